// What the try-on offers other areas (the call's customer side, issue #36). The camera, model and drawing
// load on the first tap.
export { CallTryOnButton, CallTryOnProvider, type CallVideoSwap } from './call-try-on';
