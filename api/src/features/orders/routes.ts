import type { Feature } from '../../app';

/** Routes of the orders area. */
export const ordersFeature: Feature = (_router) => {};
