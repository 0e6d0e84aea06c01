import type { Feature } from '../../app';

/** Routes of the calls area. */
export const callsFeature: Feature = (_router) => {};
