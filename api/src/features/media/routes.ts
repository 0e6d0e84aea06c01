import type { Feature } from '../../app';

/** Routes of the media area. */
export const mediaFeature: Feature = (_router) => {};
