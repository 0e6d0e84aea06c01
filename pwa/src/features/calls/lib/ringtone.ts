import { CALL_LIMITS } from '../../../../../api/contract/constants';

/**
 * Synthesised ringtones (Web Audio, no audio files). The outgoing ringback is India's: 400 Hz modulated by
 * 25 Hz, 0.4 s on, 0.2 s off, 0.4 s on, 2.0 s off. The incoming ring uses the same cadence on a brighter
 * two-tone so a seller tells it apart from a call they placed.
 */
export interface RingPattern {
  /** Carrier frequencies in Hz, mixed equally. */
  frequencies: number[];
  /** Amplitude modulation frequency in Hz (0 for none). */
  modulationHz: number;
  /** Alternating on/off durations in seconds, starting with on; the pattern loops. */
  cadence: number[];
}

export const RINGBACK_INDIA: RingPattern = {
  frequencies: [400],
  modulationHz: 25,
  cadence: [0.4, 0.2, 0.4, 2.0],
};

export const INCOMING_RING: RingPattern = {
  frequencies: [650, 820],
  modulationHz: 25,
  cadence: [0.4, 0.2, 0.4, 2.0],
};

export type RingtoneKind = 'incoming' | 'outgoing';

export const PATTERNS: Record<RingtoneKind, RingPattern> = {
  incoming: INCOMING_RING,
  outgoing: RINGBACK_INDIA,
};

/** Volume clamped to 0..1; anything not a finite number gives the default 0.5. */
export function clampVolume(volume: number | undefined): number {
  if (typeof volume !== 'number' || !Number.isFinite(volume)) return CALL_LIMITS.ringtoneVolume;
  return Math.min(1, Math.max(0, volume));
}

/** Length of one loop of a cadence, in seconds. */
export function cycleLength(cadence: readonly number[]): number {
  return cadence.reduce((a, b) => a + b, 0);
}

/** The sound-on spans of one cycle starting at `start`: [from, to] pairs in seconds. */
export function onSpans(cadence: readonly number[], start: number): [number, number][] {
  const spans: [number, number][] = [];
  let t = start;
  cadence.forEach((d, i) => {
    if (i % 2 === 0) spans.push([t, t + d]);
    t += d;
  });
  return spans;
}

// --- the page's one AudioContext, created and resumed on a user gesture ---

type Ctor = typeof AudioContext;
let context: AudioContext | null = null;
const listeners = new Set<() => void>();

function audioContextCtor(): Ctor | undefined {
  const w = globalThis as unknown as { AudioContext?: Ctor; webkitAudioContext?: Ctor };
  return w.AudioContext ?? w.webkitAudioContext;
}

/** The shared context, created on first use (it stays suspended until a gesture resumes it). */
export function getAudioContext(): AudioContext | null {
  if (context) return context;
  const Ctor = audioContextCtor();
  if (!Ctor) return null;
  context = new Ctor();
  context.addEventListener('statechange', () => listeners.forEach((l) => l()));
  return context;
}

/** Whether sound can play now. */
export function isAudioUnlocked(): boolean {
  return context?.state === 'running';
}

/** The shared context's state, for tests and diagnostics ('none' before it exists). */
export function audioState(): AudioContextState | 'none' {
  return context?.state ?? 'none';
}

/** Resumes audio; call it from inside a user gesture (pointerdown, keydown, click). */
export function unlockAudio(): Promise<void> {
  const ctx = getAudioContext();
  if (!ctx || ctx.state === 'running') return Promise.resolve();
  return ctx.resume().catch(() => undefined);
}

/**
 * Starts the shared context without waiting for a gesture: where the platform lets a page play sound on its
 * own (an installed app, a site the user often plays media on) it runs at once and no prompt is needed;
 * elsewhere the promise just waits for the first gesture.
 */
export function tryAudioWithoutGesture(): void {
  const ctx = getAudioContext();
  if (ctx && ctx.state !== 'running') void ctx.resume().catch(() => undefined);
}

export function subscribeAudioState(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A looping synthesised tone on the shared context. */
export class Ringtone {
  private nodes: AudioScheduledSourceNode[] = [];
  private output: GainNode | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private nextCycle = 0;

  constructor(
    private readonly pattern: RingPattern,
    private readonly volume = CALL_LIMITS.ringtoneVolume,
    private readonly ctxProvider: () => AudioContext | null = getAudioContext,
  ) {}

  get playing(): boolean {
    return this.output !== null;
  }

  /** Starts looping; a no-op while already playing or without Web Audio. */
  start(): void {
    if (this.output) return;
    const ctx = this.ctxProvider();
    if (!ctx) return;
    const gate = ctx.createGain();
    gate.gain.value = 0;
    const master = ctx.createGain();
    master.gain.value = clampVolume(this.volume);
    gate.connect(master).connect(ctx.destination);

    // Amplitude modulation: the carrier's gain swings 0..1 at modulationHz around 0.5.
    const am = ctx.createGain();
    am.gain.value = this.pattern.modulationHz > 0 ? 0.5 : 1;
    am.connect(gate);
    for (const f of this.pattern.frequencies) {
      const osc = ctx.createOscillator();
      osc.frequency.value = f;
      const mix = ctx.createGain();
      mix.gain.value = 1 / this.pattern.frequencies.length;
      osc.connect(mix).connect(am);
      osc.start();
      this.nodes.push(osc);
    }
    if (this.pattern.modulationHz > 0) {
      const lfo = ctx.createOscillator();
      lfo.frequency.value = this.pattern.modulationHz;
      const depth = ctx.createGain();
      depth.gain.value = 0.5;
      lfo.connect(depth).connect(am.gain);
      lfo.start();
      this.nodes.push(lfo);
    }
    this.output = gate;
    this.nextCycle = ctx.currentTime + 0.05;
    this.schedule(ctx);
    // Schedule cycles a little ahead so the loop never gaps, whatever the timer's jitter.
    this.timer = setInterval(() => this.schedule(ctx), 500);
  }

  private schedule(ctx: AudioContext): void {
    const gate = this.output;
    if (!gate) return;
    const length = cycleLength(this.pattern.cadence);
    while (this.nextCycle < ctx.currentTime + length + 1) {
      for (const [from, to] of onSpans(this.pattern.cadence, this.nextCycle)) {
        // Short ramps avoid clicks at the edges.
        gate.gain.setValueAtTime(0, from);
        gate.gain.linearRampToValueAtTime(1, from + 0.01);
        gate.gain.setValueAtTime(1, to - 0.01);
        gate.gain.linearRampToValueAtTime(0, to);
      }
      this.nextCycle += length;
    }
  }

  /** Stops and releases every node. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const n of this.nodes) {
      try {
        n.stop();
      } catch {
        /* already stopped */
      }
      n.disconnect();
    }
    this.nodes = [];
    this.output?.disconnect();
    this.output = null;
  }
}
