import { describe, expect, it, vi } from 'vitest';
import {
  clampVolume,
  cycleLength,
  onSpans,
  RINGBACK_INDIA,
  Ringtone,
} from '../../pwa/src/features/calls/lib/ringtone';

/** A minimal AudioContext that records what the ringtone builds and schedules. */
function fakeContext() {
  const made = {
    oscillators: [] as { frequency: { value: number }; started: boolean; stopped: boolean }[],
    gains: [] as { gain: { value: number; events: [string, number, number][] } }[],
  };
  const node = () => ({ connect: (n: unknown) => n, disconnect: vi.fn() });
  const ctx = {
    currentTime: 0,
    destination: {},
    createGain() {
      const events: [string, number, number][] = [];
      const g = {
        ...node(),
        gain: {
          value: 1,
          events,
          setValueAtTime: (v: number, t: number) => events.push(['set', v, t]),
          linearRampToValueAtTime: (v: number, t: number) => events.push(['ramp', v, t]),
        },
      };
      made.gains.push(g);
      return g;
    },
    createOscillator() {
      const o = {
        ...node(),
        frequency: { value: 0 },
        started: false,
        stopped: false,
        start() {
          o.started = true;
        },
        stop() {
          o.stopped = true;
        },
      };
      made.oscillators.push(o);
      return o;
    },
  };
  return { ctx: ctx as unknown as AudioContext, made };
}

describe('ringtones', () => {
  it('clamps the volume to 0..1 with 0.5 as the default', () => {
    expect(clampVolume(undefined)).toBe(0.5);
    expect(clampVolume(Number.NaN)).toBe(0.5);
    expect(clampVolume(2)).toBe(1);
    expect(clampVolume(-1)).toBe(0);
    expect(clampVolume(0.3)).toBe(0.3);
  });

  it("India's ringback: 400 Hz × 25 Hz, 0.4 on, 0.2 off, 0.4 on, 2.0 off", () => {
    expect(RINGBACK_INDIA.frequencies).toEqual([400]);
    expect(RINGBACK_INDIA.modulationHz).toBe(25);
    expect(cycleLength(RINGBACK_INDIA.cadence)).toBeCloseTo(3.0);
    const spans = onSpans(RINGBACK_INDIA.cadence, 0);
    expect(spans.map(([a, b]) => [+a.toFixed(2), +b.toFixed(2)])).toEqual([
      [0, 0.4],
      [0.6, 1.0],
    ]);
  });

  it('builds carrier and modulator, schedules looping cycles at the volume, and stops everything', () => {
    vi.useFakeTimers();
    const { ctx, made } = fakeContext();
    const tone = new Ringtone(RINGBACK_INDIA, 0.5, () => ctx);
    tone.start();
    expect(tone.playing).toBe(true);
    expect(made.oscillators.map((o) => o.frequency.value).sort((a, b) => a - b)).toEqual([25, 400]);
    expect(made.oscillators.every((o) => o.started)).toBe(true);
    expect(made.gains.some((g) => g.gain.value === 0.5)).toBe(true);
    const gate = made.gains[0];
    const firstCount = gate.gain.events.length;
    expect(firstCount).toBeGreaterThan(0);
    // Time passes: more cycles get scheduled (it loops).
    (ctx as unknown as { currentTime: number }).currentTime = 6;
    vi.advanceTimersByTime(600);
    expect(gate.gain.events.length).toBeGreaterThan(firstCount);
    tone.stop();
    expect(tone.playing).toBe(false);
    expect(made.oscillators.every((o) => o.stopped)).toBe(true);
    vi.useRealTimers();
  });
});
