import type { Feature } from '../../app';

/** Routes of the accounts area. */
export const accountsFeature: Feature = (_router) => {};
