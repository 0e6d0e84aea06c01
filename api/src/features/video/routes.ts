import type { Feature } from '../../app';

/** Routes of the video area. */
export const videoFeature: Feature = (_router) => {};
