/**
 * One thing made ahead for a call (the camera capture, a prepared peer connection), held until the call's
 * video room takes it, or disposed of when the call ends without it. One is held at a time: holding one for
 * another call disposes of the one held.
 */
export class HeldForCall<T> {
  private entry: { callId: number; promise: Promise<T> } | null = null;

  constructor(private readonly dispose: (value: T) => void) {}

  /** What is held for the call, left held (null when nothing is). */
  peek(callId: number): Promise<T> | null {
    return this.entry?.callId === callId ? this.entry.promise : null;
  }

  /** Holds what is being made for the call; what was held before is disposed of. */
  hold(callId: number, promise: Promise<T>): void {
    this.release();
    this.entry = { callId, promise };
  }

  /** What is held for `from` is now for `to` (a call being placed got its id). */
  reassign(from: number, to: number): void {
    if (this.entry?.callId === from) this.entry = { callId: to, promise: this.entry.promise };
  }

  /** Hands over what is held for the call: the taker owns it now (null when nothing is held for it). */
  take(callId: number): Promise<T> | null {
    const promise = this.peek(callId);
    if (promise) this.entry = null;
    return promise;
  }

  /** Lets go of `promise`, without disposing of it, if it is still the one held (it failed: nothing to keep). */
  forget(promise: Promise<T>): void {
    if (this.entry?.promise === promise) this.entry = null;
  }

  /** Disposes of what nobody took (the call ended first, placing it failed); only the given call's if set. */
  release(callId?: number): void {
    if (!this.entry || (callId !== undefined && this.entry.callId !== callId)) return;
    const { promise } = this.entry;
    this.entry = null;
    void promise.then(this.dispose, () => undefined);
  }
}
