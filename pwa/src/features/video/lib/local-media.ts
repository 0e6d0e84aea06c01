import { LOCAL_MEDIA_CONSTRAINTS } from '../../../lib/live-call-early';
import { HeldForCall } from './held-for-call';

/**
 * The camera and microphone for a call, captured ahead of the connection: the callee starts capturing at
 * the accept click (while the respond request is in flight), the caller while it rings. Capturing takes
 * from tens of milliseconds to a second, so doing it before the call is active takes it off the path from
 * accept to first frame. One capture is held at a time; the video room takes ownership and stops it.
 */
export { LOCAL_MEDIA_CONSTRAINTS };

const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((t) => t.stop());
const held = new HeldForCall<MediaStream>(stopTracks);

/** Starts capturing for the call (idempotent per call; a capture held for another call is released). */
export function prepareLocalMedia(callId: number): Promise<MediaStream> {
  const current = held.peek(callId);
  if (current) return current;
  held.release();
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error('getUserMedia unavailable'));
  const promise = navigator.mediaDevices.getUserMedia(LOCAL_MEDIA_CONSTRAINTS);
  // A failed capture is not kept: the next request asks again (and its error is shown then).
  promise.catch(() => held.forget(promise));
  held.hold(callId, promise);
  return promise;
}

/** The call being placed: its id comes with the server's answer (`assignPlacedMedia`). */
const PLACING = -1;

/**
 * Starts capturing at the tap that places a call, while the request that creates it is in flight, so that
 * the caller's offer can go out as soon as the call exists (it rings the jeweller at the same moment).
 */
export function prepareLocalMediaForPlacing(): void {
  prepareLocalMedia(PLACING).catch(() => undefined);
}

/** The placed call got its id: the capture started at the tap is that call's (started now if there was none). */
export function assignPlacedMedia(callId: number): Promise<MediaStream> {
  held.reassign(PLACING, callId);
  return prepareLocalMedia(callId);
}

/** Placing the call failed: the capture started at the tap stops. */
export function releasePlacedMedia(): void {
  held.release(PLACING);
}

/** Hands the call's capture (started now if it was not) to the caller, who stops it when done. */
export function takeLocalMedia(callId: number): Promise<MediaStream> {
  const promise = prepareLocalMedia(callId);
  held.take(callId);
  return promise;
}

/** Stops a capture nobody took (the accept failed, the call ended first); only the given call's if set. */
export function releaseLocalMedia(callId?: number): void {
  held.release(callId);
}

/** Stops a capture once it resolves (or at once if it already has). */
export function stopLocalMedia(promise: Promise<MediaStream> | null | undefined): void {
  if (promise) void promise.then(stopTracks, () => undefined);
}

/**
 * A capture started before the call layer loaded (the page reloaded during the call: lib/live-call-early.ts)
 * is the call's: held for its video room like one this module started. Stopped if one is held for it already.
 */
export function adoptLocalMedia(callId: number, capture: Promise<MediaStream>): void {
  if (held.peek(callId)) {
    stopLocalMedia(capture);
    return;
  }
  held.release();
  capture.catch(() => held.forget(capture));
  held.hold(callId, capture);
}
