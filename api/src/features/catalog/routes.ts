import type { Feature } from '../../app';

/** Routes of the catalog area. */
export const catalogFeature: Feature = (_router) => {};
