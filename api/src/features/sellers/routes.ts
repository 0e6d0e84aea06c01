import type { Feature } from '../../app';

/** Routes of the sellers area. */
export const sellersFeature: Feature = (_router) => {};
