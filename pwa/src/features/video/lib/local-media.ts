/**
 * The camera and microphone for a call, captured ahead of the connection: the callee starts capturing at
 * the accept click (while the respond request is in flight), the caller while it rings. Capturing takes
 * from tens of milliseconds to a second, so doing it before the call is active takes it off the path from
 * accept to first frame. One capture is held at a time; the video room takes ownership and stops it.
 */
export const LOCAL_MEDIA_CONSTRAINTS: MediaStreamConstraints = {
  audio: true,
  video: { width: 640, height: 480 },
};

let held: { callId: number; promise: Promise<MediaStream> } | null = null;

const stopAll = (promise: Promise<MediaStream>) =>
  promise.then(
    (stream) => stream.getTracks().forEach((t) => t.stop()),
    () => undefined,
  );

/** Starts capturing for the call (idempotent per call; a capture held for another call is released). */
export function prepareLocalMedia(callId: number): Promise<MediaStream> {
  if (held?.callId === callId) return held.promise;
  releaseLocalMedia();
  if (!navigator.mediaDevices?.getUserMedia) return Promise.reject(new Error('getUserMedia unavailable'));
  const promise = navigator.mediaDevices.getUserMedia(LOCAL_MEDIA_CONSTRAINTS);
  const entry = { callId, promise };
  // A failed capture is not kept: the next request asks again (and its error is shown then).
  promise.catch(() => {
    if (held === entry) held = null;
  });
  held = entry;
  return promise;
}

/** Hands the call's capture (started now if it was not) to the caller, who stops it when done. */
export function takeLocalMedia(callId: number): Promise<MediaStream> {
  const promise = prepareLocalMedia(callId);
  held = null;
  return promise;
}

/** Stops a capture nobody took (the accept failed, the call ended first); only the given call's if set. */
export function releaseLocalMedia(callId?: number): void {
  if (!held || (callId !== undefined && held.callId !== callId)) return;
  const { promise } = held;
  held = null;
  void stopAll(promise);
}

/** Stops a capture once it resolves (or at once if it already has). */
export function stopLocalMedia(promise: Promise<MediaStream> | null | undefined): void {
  if (promise) void stopAll(promise);
}
