import { describe, expect, it } from 'vitest';
import { HeldForCall } from '../../pwa/src/features/video/lib/held-for-call';

/** A slot whose disposals are recorded (they happen once the held promise settles). */
function slot() {
  const disposed: string[] = [];
  const held = new HeldForCall<string>((value) => disposed.push(value));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { held, disposed, settle };
}

describe('a thing made ahead for a call, held until its video room takes it', () => {
  it('hands what is held for the call to one taker, and nothing to a second or for another call', async () => {
    const { held, disposed, settle } = slot();
    held.hold(7, Promise.resolve('peer 7'));
    expect(held.take(8)).toBeNull();
    expect(await held.peek(7)).toBe('peer 7');
    expect(await held.take(7)).toBe('peer 7');
    expect(held.take(7)).toBeNull();
    held.release();
    await settle();
    // Taken means owned by the taker: releasing afterwards disposes of nothing.
    expect(disposed).toEqual([]);
  });

  it('holds one at a time: holding for another call disposes of the one held', async () => {
    const { held, disposed, settle } = slot();
    held.hold(1, Promise.resolve('capture 1'));
    held.hold(2, Promise.resolve('capture 2'));
    await settle();
    expect(disposed).toEqual(['capture 1']);
    expect(await held.take(2)).toBe('capture 2');
  });

  it('releases only the given call’s, or whatever is held when no call is given', async () => {
    const { held, disposed, settle } = slot();
    held.hold(3, Promise.resolve('peer 3'));
    held.release(4);
    await settle();
    expect(disposed).toEqual([]);
    held.release(3);
    await settle();
    expect(disposed).toEqual(['peer 3']);
    held.hold(5, Promise.resolve('peer 5'));
    held.release();
    await settle();
    expect(disposed).toEqual(['peer 3', 'peer 5']);
    expect(held.peek(5)).toBeNull();
  });

  it('moves what was held for a call being placed to the id it got', async () => {
    const { held } = slot();
    held.hold(-1, Promise.resolve('capture'));
    held.reassign(-1, 42);
    expect(held.peek(-1)).toBeNull();
    expect(await held.take(42)).toBe('capture');
    // Nothing held for the placing call: nothing moves.
    held.reassign(-1, 43);
    expect(held.peek(43)).toBeNull();
  });

  it('forgets a failed one without disposing of it, but not one held since', async () => {
    const { held, disposed, settle } = slot();
    const failed = Promise.reject(new Error('camera refused'));
    failed.catch(() => undefined);
    held.hold(9, failed);
    held.reassign(9, 10);
    held.forget(failed);
    expect(held.peek(10)).toBeNull();
    const next = Promise.resolve('capture 10');
    held.hold(10, next);
    held.forget(failed);
    expect(held.peek(10)).toBe(next);
    // A failed one that is released is not disposed of: there is nothing to stop.
    held.hold(11, failed);
    held.release();
    await settle();
    expect(disposed).toEqual(['capture 10']);
  });
});
