import FFT from 'fft.js';
import { expect } from 'vitest';

/**
 * The other person's voice, checked for what was sent: the fake microphones send a known tone, so the sound the
 * call plays (the `remote-audio` element's stream) must carry that tone, not merely some energy (silence, noise,
 * or another track would pass an energy check). Works in Chromium and in Firefox.
 *
 * The tones (measured through a call here, and named in the engines' sources):
 * - Chromium's fake microphone (--use-fake-device-for-media-stream): a 400 Hz beep of 20 ms every 500 ms;
 * - Firefox's (media.navigator.streams.fake): a steady 1 kHz sine.
 */
export const CHROMIUM_TONE_HZ = 400;
export const FIREFOX_TONE_HZ = 1000;

/** How far the loudest frequency may sit from the sent tone (codec, resampling, and a 20 ms beep's spread). */
export const TONE_TOLERANCE_HZ = 40;
/** The least share of the received power within ±TONE_BAND_HZ of the tone: a tone, not noise or speech. */
export const MIN_TONE_SHARE = 0.5;
export const TONE_BAND_HZ = 80;
/**
 * The least RMS level of a reading: a 20 ms beep in a 0.7 s window at full scale reads about 0.1; a muted
 * microphone sends digital silence (0), the codec's comfort noise reads below 0.001.
 */
export const MIN_TONE_RMS = 0.005;
/** Readings taken, each over one analyser window (32,768 samples: 0.68 s at 48 kHz); most must hear the tone. */
export const TONE_READINGS = 3;
/** Readings of TONE_READINGS that must hear the tone (a loaded machine may drop a window's audio). */
export const MIN_TONE_READINGS = 2;

export interface ToneReading {
  /** The loudest frequency of the window. */
  hz: number;
  /** The share of the window's power within ±TONE_BAND_HZ of that frequency. */
  share: number;
  /** Root mean square of the window's samples (full scale 1). */
  rms: number;
}

export interface ReceivedTone {
  error?: string;
  /** Whether the audio element that plays the other person's sound is playing. */
  playing?: boolean;
  sampleRate?: number;
  readings: ToneReading[];
}

/**
 * In the page (a string, for either engine): the probe's AudioContext, the engine's own. The suite's
 * refuseSoundWithoutGesture wraps window.AudioContext to hold the product's sound until a tap, which is the
 * product's rule, not this probe's. Answers the context's state: headless Firefox's stays suspended here (even
 * after a key press), so there RECORDED_TONE listens instead.
 */
export const TONE_CONTEXT = `(async () => {
  const Engine = Object.getPrototypeOf(AudioContext) === BaseAudioContext ? AudioContext : Object.getPrototypeOf(AudioContext);
  const ctx = new Engine();
  window.__toneContext = ctx;
  await Promise.race([ctx.resume(), new Promise((r) => setTimeout(r, 1000))]);
  if (ctx.state !== 'running') void ctx.close();
  return ctx.state;
})()`;

/**
 * In the page: one reading of an AnalyserNode (the engine's own FFT: Blackman window, fftSize samples, no
 * smoothing): its loudest frequency from 50 Hz up (below is hum and DC, no voice), the share of the power within
 * ±TONE_BAND_HZ of it, and the RMS level of the same samples.
 */
const READ_ANALYSER = `(analyser, sampleRate) => {
  const binHz = sampleRate / analyser.fftSize;
  const db = new Float32Array(analyser.frequencyBinCount);
  analyser.getFloatFrequencyData(db);
  const samples = new Float32Array(analyser.fftSize);
  analyser.getFloatTimeDomainData(samples);
  let sq = 0;
  for (const x of samples) sq += x * x;
  const power = new Float64Array(db.length);
  let total = 0;
  let peak = Math.ceil(50 / binHz);
  for (let k = Math.ceil(50 / binHz); k < db.length; k++) {
    power[k] = Number.isFinite(db[k]) ? Math.pow(10, db[k] / 10) : 0;
    total += power[k];
    if (power[k] > power[peak]) peak = k;
  }
  const half = Math.round(${TONE_BAND_HZ} / binHz);
  let band = 0;
  for (let k = Math.max(1, peak - half); k <= Math.min(db.length - 1, peak + half); k++) band += power[k];
  return { hz: peak * binHz, share: total > 0 ? band / total : 0, rms: Math.sqrt(sq / samples.length) };
}`;

/**
 * In the page (a string, for either engine): the remote audio as received, without an AudioContext that plays:
 * the track recorded (MediaRecorder) for 2.5 s and decoded; answers the last TONE_READINGS windows of 32,768
 * samples each, analysed here in the test (analyseWindow).
 */
export const RECORDED_TONE = `(async () => {
  const el = document.querySelector('[data-testid="remote-audio"]');
  const stream = el && el.srcObject;
  if (!stream || !stream.getAudioTracks().length) return { error: 'no remote audio track', windows: [] };
  const recorder = new MediaRecorder(new MediaStream(stream.getAudioTracks()));
  const chunks = [];
  recorder.ondataavailable = (e) => chunks.push(e.data);
  const stopped = new Promise((r) => (recorder.onstop = r));
  recorder.start();
  await new Promise((r) => setTimeout(r, 2500));
  recorder.stop();
  await stopped;
  const bytes = await new Blob(chunks, { type: recorder.mimeType }).arrayBuffer();
  const audio = await new OfflineAudioContext(1, 1, 48000).decodeAudioData(bytes);
  const x = audio.getChannelData(0);
  const windows = [];
  for (let start = x.length - 32768; start >= 0 && windows.length < ${TONE_READINGS}; start -= 32768)
    windows.push(Array.from(x.subarray(start, start + 32768)));
  return { playing: !el.paused, sampleRate: audio.sampleRate, windows };
})()`;

/** One window of samples (a power of two long) as a ToneReading: Hann window, fft.js's real transform. */
export function analyseWindow(samples: number[], sampleRate: number): ToneReading {
  const n = samples.length;
  const fft = new FFT(n);
  const out = fft.createComplexArray() as number[];
  let sq = 0;
  const windowed = samples.map((x, i) => {
    sq += x * x;
    return x * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
  });
  fft.realTransform(out, windowed);
  const binHz = sampleRate / n;
  const from = Math.ceil(50 / binHz);
  const power = new Float64Array(n / 2);
  let total = 0;
  let peak = from;
  for (let k = from; k < n / 2; k++) {
    power[k] = out[2 * k]! ** 2 + out[2 * k + 1]! ** 2;
    total += power[k]!;
    if (power[k]! > power[peak]!) peak = k;
  }
  const half = Math.round(TONE_BAND_HZ / binHz);
  let band = 0;
  for (let k = Math.max(1, peak - half); k <= Math.min(n / 2 - 1, peak + half); k++) band += power[k]!;
  return { hz: peak * binHz, share: total > 0 ? band / total : 0, rms: Math.sqrt(sq / n) };
}

/** In the page (a string, after TONE_CONTEXT): TONE_READINGS readings of the remote audio through an AnalyserNode. */
export const RECEIVED_TONE = `(async () => {
  const el = document.querySelector('[data-testid="remote-audio"]');
  const stream = el && el.srcObject;
  if (!stream || !stream.getAudioTracks().length) return { error: 'no remote audio track', readings: [] };
  const ctx = window.__toneContext;
  try {
    for (let i = 0; i < 30 && ctx.state !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    if (ctx.state !== 'running') return { error: 'audio context ' + ctx.state, readings: [] };
    const source = ctx.createMediaStreamSource(new MediaStream(stream.getAudioTracks()));
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 32768;
    analyser.smoothingTimeConstant = 0;
    const silent = ctx.createGain();
    silent.gain.value = 0;
    source.connect(analyser);
    analyser.connect(silent);
    silent.connect(ctx.destination);
    const windowMs = (analyser.fftSize / ctx.sampleRate) * 1000;
    const read = ${READ_ANALYSER};
    const readings = [];
    for (let i = 0; i < ${TONE_READINGS}; i++) {
      await new Promise((r) => setTimeout(r, windowMs + 50));
      readings.push(read(analyser, ctx.sampleRate));
    }
    return { playing: !el.paused, sampleRate: ctx.sampleRate, readings };
  } finally {
    void ctx.close();
  }
})()`;

/** Whether one reading hears the tone: loud enough, loudest at the tone, and mostly the tone. */
export function hearsTone(r: ToneReading, toneHz: number): boolean {
  return r.rms >= MIN_TONE_RMS && Math.abs(r.hz - toneHz) <= TONE_TOLERANCE_HZ && r.share >= MIN_TONE_SHARE;
}

/** The readings that hear the tone, of a RECEIVED_TONE result (none when the probe could not listen). */
export function toneHeard(result: ReceivedTone, toneHz: number): number {
  return result.readings.filter((r) => hearsTone(r, toneHz)).length;
}

/** Asserts the page's call plays the other side's tone: its audio element plays, and most readings hear it. */
export async function expectToneReceived(
  who: string,
  evaluate: (script: string) => Promise<unknown>,
  toneHz: number,
): Promise<void> {
  const live = (await evaluate(TONE_CONTEXT)) === 'running';
  let heard: ReceivedTone;
  if (live) heard = (await evaluate(RECEIVED_TONE)) as ReceivedTone;
  else {
    const recorded = (await evaluate(RECORDED_TONE)) as Omit<ReceivedTone, 'readings'> & {
      windows: number[][];
    };
    const { windows, ...rest } = recorded;
    heard = { ...rest, readings: windows.map((w) => analyseWindow(w, recorded.sampleRate!)) };
  }
  console.log(`${who} hears (${live ? 'AnalyserNode' : 'recorded'}): ${JSON.stringify(heard)}`);
  expect(heard.error, who).toBeUndefined();
  expect(heard.playing, `${who}: the remote audio element plays`).toBe(true);
  expect(
    toneHeard(heard, toneHz),
    `${who} hears the ${toneHz} Hz tone: ${JSON.stringify(heard)}`,
  ).toBeGreaterThanOrEqual(MIN_TONE_READINGS);
}
