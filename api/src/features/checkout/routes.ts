import type { Feature } from '../../app';

/** Routes of the checkout area. */
export const checkoutFeature: Feature = (_router) => {};
