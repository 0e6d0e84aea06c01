import type { Feature } from '../../app';

/** Routes of the cart area. */
export const cartFeature: Feature = (_router) => {};
