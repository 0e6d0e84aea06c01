import { lazy } from 'react';

// What the try-on offers other areas (the call's customer side, issue #36). The camera, model and drawing
// load on the first tap.
export { CallTryOnButton, CallTryOnProvider, type CallVideoSwap } from './call-try-on';

// The product form's try-on image field (seller side): its preview and sample face load with it.
export const TryOnImageField = lazy(() => import('./try-on-image-field'));
