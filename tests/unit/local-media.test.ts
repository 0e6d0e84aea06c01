import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  adoptLocalMedia,
  assignPlacedMedia,
  prepareLocalMedia,
  prepareLocalMediaForPlacing,
  releaseLocalMedia,
  releasePlacedMedia,
  takeLocalMedia,
} from '../../pwa/src/features/video/lib/local-media';

/** A capture: its tracks count their stops. */
function fakeStream() {
  const tracks = [{ stopped: 0 }, { stopped: 0 }].map((t) => ({ ...t, stop: () => t.stopped++, t }));
  return {
    stream: { getTracks: () => tracks } as unknown as MediaStream,
    stops: () => tracks.reduce((n, x) => n + x.t.stopped, 0),
  };
}

// The camera is captured from the tap that places a call, before the server has given the call its id (issue
// #39: the caller's offer goes out as soon as the call exists).
describe('the capture started at the tap that places a call', () => {
  let captures: ReturnType<typeof fakeStream>[];
  beforeEach(() => {
    captures = [];
    vi.stubGlobal('navigator', {
      mediaDevices: {
        getUserMedia: vi.fn(() => {
          const c = fakeStream();
          captures.push(c);
          return Promise.resolve(c.stream);
        }),
      },
    });
  });
  afterEach(() => {
    releaseLocalMedia();
    vi.unstubAllGlobals();
  });

  it('becomes the placed call’s capture once its id arrives: one capture, handed to its video room', async () => {
    prepareLocalMediaForPlacing();
    expect(captures).toHaveLength(1);
    const assigned = assignPlacedMedia(41);
    // The video room takes the same capture, not a second one.
    const taken = takeLocalMedia(41);
    expect(await taken).toBe(await assigned);
    expect(await taken).toBe(captures[0].stream);
    expect(captures).toHaveLength(1);
    expect(captures[0].stops()).toBe(0);
  });

  it('is stopped when placing the call fails', async () => {
    prepareLocalMediaForPlacing();
    releasePlacedMedia();
    await Promise.resolve();
    await Promise.resolve();
    expect(captures[0].stops()).toBe(2);
    // The next call captures afresh.
    expect(await takeLocalMedia(42)).toBe(captures[1].stream);
  });

  it('starts a capture when the id arrives if none was started at the tap, and leaves another call’s alone', async () => {
    const other = prepareLocalMedia(7);
    releasePlacedMedia();
    expect(captures[0].stops()).toBe(0);
    const assigned = assignPlacedMedia(43);
    // One capture is held at a time: the other call's was released for this one.
    expect(await assigned).toBe(captures[1].stream);
    expect(await other).toBe(captures[0].stream);
    await Promise.resolve();
    expect(captures[0].stops()).toBe(2);
  });
});

// A page reloaded during a call starts its camera from the entry module, before the call layer has loaded
// (pwa/src/lib/live-call-early.ts); the call's video room then takes that capture, no second one.
describe('a capture started before the call layer loaded', () => {
  let asked = 0;
  beforeEach(() => {
    asked = 0;
    vi.stubGlobal('navigator', {
      mediaDevices: {
        getUserMedia: vi.fn(() => {
          asked++;
          return Promise.resolve(fakeStream().stream);
        }),
      },
    });
  });
  afterEach(() => {
    releaseLocalMedia();
    vi.unstubAllGlobals();
  });

  it("is the call's capture: taken by its video room without asking the camera again", async () => {
    const early = fakeStream();
    const capture = Promise.resolve(early.stream);
    adoptLocalMedia(7, capture);
    expect(takeLocalMedia(7)).toBe(capture);
    expect(asked).toBe(0);
    expect(early.stops()).toBe(0);
  });

  it('is stopped when the call already has one, and released like any other when the call ends', async () => {
    const held = prepareLocalMedia(8);
    const early = fakeStream();
    adoptLocalMedia(8, Promise.resolve(early.stream));
    expect(takeLocalMedia(8)).toBe(held);
    await new Promise((r) => setTimeout(r, 0));
    expect(early.stops()).toBe(2);

    const other = fakeStream();
    adoptLocalMedia(9, Promise.resolve(other.stream));
    releaseLocalMedia(9);
    await new Promise((r) => setTimeout(r, 0));
    expect(other.stops()).toBe(2);
  });
});
