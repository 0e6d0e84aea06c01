import type { Feature } from '../../app';

/** Routes of the admin area. */
export const adminFeature: Feature = (_router) => {};
