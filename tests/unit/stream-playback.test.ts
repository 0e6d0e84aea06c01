import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachStream } from '../../pwa/src/features/video/hooks/use-stream-playback';

// The page a refused play waits on for a tap (lib/playback.ts), for this file only.
const hadDocument = 'document' in globalThis;
beforeAll(() => {
  if (!hadDocument) Object.assign(globalThis, { document: new EventTarget() });
});
afterAll(() => {
  if (!hadDocument) delete (globalThis as { document?: unknown }).document;
});

/** A media element that records its plays; a video one may paint a first frame when told. */
function media(allowed = true) {
  const el = {
    srcObject: null as MediaProvider | null,
    plays: 0,
    frame: undefined as (() => void) | undefined,
    play() {
      el.plays++;
      return allowed ? Promise.resolve() : Promise.reject(new DOMException('gesture', 'NotAllowedError'));
    },
    requestVideoFrameCallback(cb: () => void) {
      el.frame = cb;
      return 1;
    },
  };
  return el;
}
const stream = () => ({ id: Math.random().toString() }) as unknown as MediaStream;

describe('a call view playing a stream (useStreamPlayback)', () => {
  it('puts the stream on the picture and the sound, plays both and marks the first frame once', () => {
    const video = media();
    const audio = media();
    const s = stream();
    let frames = 0;
    attachStream(video, audio, s, () => frames++);
    expect([video.srcObject, audio.srcObject]).toEqual([s, s]);
    expect([video.plays, audio.plays]).toEqual([1, 1]);
    video.frame?.();
    expect(frames).toBe(1);
  });

  it('plays one’s own picture without an audio element, and a stream that went marks no frame', () => {
    const video = media();
    let frames = 0;
    const undo = attachStream(video, null, stream(), () => frames++);
    expect(video.plays).toBe(1);
    undo();
    video.frame?.();
    expect(frames).toBe(0);
  });

  it('clears the elements when the stream is gone, and plays nothing', () => {
    const video = media();
    const audio = media();
    attachStream(video, audio, stream());
    attachStream(video, audio, null);
    expect([video.srcObject, audio.srcObject]).toEqual([null, null]);
    expect([video.plays, audio.plays]).toEqual([1, 1]);
  });

  it('does not set the same stream again (a re-render keeps the element playing)', () => {
    const video = media();
    const s = stream();
    let sets = 0;
    const watched = Object.defineProperty({ ...video }, 'srcObject', {
      get: () => s,
      set: () => sets++,
    });
    attachStream(watched, null, s);
    expect(sets).toBe(0);
  });
});
