import { describe, expect, it } from 'vitest';
import { playWhenAllowed } from '../../pwa/src/features/video/lib/playback';

/** A media element whose play() is refused until `allowed`, as Safari refuses sound before a gesture. */
function element() {
  const state = { allowed: false, plays: 0, playing: false };
  return {
    state,
    play: () => {
      state.plays++;
      if (!state.allowed) return Promise.reject(new DOMException('needs a gesture', 'NotAllowedError'));
      state.playing = true;
      return Promise.resolve();
    },
  };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('call playback after a tap', () => {
  it('plays at once when allowed, and waits for nothing', async () => {
    const el = element();
    el.state.allowed = true;
    const page = new EventTarget();
    playWhenAllowed(el, page);
    await tick();
    expect(el.state.playing).toBe(true);
    page.dispatchEvent(new Event('pointerdown'));
    expect(el.state.plays).toBe(1);
  });

  it('refused before a gesture: plays on the next tap, once', async () => {
    const el = element();
    const page = new EventTarget();
    playWhenAllowed(el, page);
    await tick();
    expect(el.state.playing).toBe(false);
    el.state.allowed = true; // the tap is the gesture
    page.dispatchEvent(new Event('pointerdown'));
    await tick();
    expect(el.state.playing).toBe(true);
    page.dispatchEvent(new Event('keydown'));
    expect(el.state.plays).toBe(2);
  });

  it('stops waiting when the call ends first; other failures are not retried', async () => {
    const el = element();
    const page = new EventTarget();
    const stop = playWhenAllowed(el, page);
    await tick();
    stop();
    page.dispatchEvent(new Event('pointerdown'));
    expect(el.state.plays).toBe(1);

    const aborted = { play: () => Promise.reject(new DOMException('replaced', 'AbortError')) };
    let calls = 0;
    playWhenAllowed({ play: () => (calls++, aborted.play()) }, page);
    await tick();
    page.dispatchEvent(new Event('pointerdown'));
    expect(calls).toBe(1);
  });
});
