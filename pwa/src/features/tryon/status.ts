/**
 * What the try-on says and offers, as a pure state machine (issue #51 item 2, docs/product-rules.md §16): the
 * status follows the truth. Loading the model (with the bytes fetched of its real size) → starting the camera
 * (only if the model is ready before the picture is live) → "Look at the camera" (picture live, model ready,
 * no face yet) → drawing → "We lost your face" once no face was seen for FACE_LOST_MS → drawing again. A photo
 * is offered only while a piece is drawn. Tested in tests/unit/tryon-status.test.ts; the engine (engine.ts)
 * feeds it and draws the piece only in `drawing`.
 */

/** No face for this long (ms) and the drawing is cleared and the status says the face is lost. */
export const FACE_LOST_MS = 1000;

/** Above this many bytes on the wire, a phone asking to save data is asked before the model downloads. */
export const SAVE_DATA_ASK_BYTES = 1_000_000;

export type TryOnPhase =
  'ask' | 'loading' | 'camera' | 'look' | 'drawing' | 'lost' | 'no-camera' | 'camera-denied' | 'model-failed';

export interface TryOnState {
  phase: TryOnPhase;
  /** The model's bytes received so far and its full size (uncompressed, as it arrives in the page). */
  loaded: number;
  total: number;
  /** What the model costs on the wire (compressed), for "Loading the try-on (N MB)" and the Save-Data ask. */
  wireBytes: number;
  modelReady: boolean;
  cameraLive: boolean;
  /** When a face was last found (ms, the engine's clock), null before the first. */
  lastFaceAt: number | null;
}

export type TryOnEvent =
  /** The model's sizes are known; ask first when the phone saves data and it is large. */
  | { type: 'sizes'; total: number; wireBytes: number; askFirst: boolean }
  /** The person agreed to the download. */
  | { type: 'continue' }
  | { type: 'progress'; loaded: number }
  | { type: 'model-ready' }
  /** The first camera frame is on the screen. */
  | { type: 'camera-live' }
  | { type: 'face'; at: number }
  /** A frame without a face, or time passing (the engine's animation frame). */
  | { type: 'no-face'; at: number }
  | { type: 'failed'; phase: 'no-camera' | 'camera-denied' | 'model-failed' };

export const INITIAL_TRY_ON: TryOnState = {
  phase: 'loading',
  loaded: 0,
  total: 0,
  wireBytes: 0,
  modelReady: false,
  cameraLive: false,
  lastFaceAt: null,
};

const FAILED = new Set<TryOnPhase>(['no-camera', 'camera-denied', 'model-failed']);

/** Where the try-on stands once the model and the camera are both ready. */
function live(s: TryOnState, at: number | null): TryOnPhase {
  if (!s.modelReady) return 'loading';
  if (!s.cameraLive) return 'camera';
  if (s.lastFaceAt === null) return 'look';
  if (at !== null && at - s.lastFaceAt >= FACE_LOST_MS) return 'lost';
  return s.phase === 'lost' ? 'lost' : 'drawing';
}

/** The next state; the same object when nothing changed (so a frame's tick costs no render). */
export function tryOnReducer(s: TryOnState, e: TryOnEvent): TryOnState {
  if (FAILED.has(s.phase)) return s;
  let next: TryOnState;
  switch (e.type) {
    case 'sizes':
      next = {
        ...s,
        total: e.total,
        wireBytes: e.wireBytes,
        phase: e.askFirst && !s.modelReady && s.phase === 'loading' ? 'ask' : s.phase,
      };
      break;
    case 'continue':
      if (s.phase !== 'ask') return s;
      next = { ...s, phase: live(s, null) };
      break;
    case 'progress':
      if (e.loaded <= s.loaded) return s;
      next = { ...s, loaded: s.total ? Math.min(e.loaded, s.total) : e.loaded };
      break;
    case 'model-ready': {
      const r = { ...s, modelReady: true, loaded: s.total || s.loaded };
      next = { ...r, phase: s.phase === 'ask' ? 'ask' : live(r, null) };
      break;
    }
    case 'camera-live': {
      if (s.cameraLive) return s;
      const r = { ...s, cameraLive: true };
      next = { ...r, phase: s.phase === 'ask' ? 'ask' : live(r, null) };
      break;
    }
    case 'face': {
      if (!s.modelReady || !s.cameraLive) return s;
      next = { ...s, lastFaceAt: e.at, phase: 'drawing' };
      break;
    }
    case 'no-face':
      if (s.phase !== 'drawing' || s.lastFaceAt === null || e.at - s.lastFaceAt < FACE_LOST_MS) return s;
      next = { ...s, phase: 'lost' };
      break;
    case 'failed':
      next = { ...s, phase: e.phase };
      break;
  }
  return next.phase === s.phase &&
    next.loaded === s.loaded &&
    next.total === s.total &&
    next.wireBytes === s.wireBytes &&
    next.modelReady === s.modelReady &&
    next.cameraLive === s.cameraLive &&
    next.lastFaceAt === s.lastFaceAt
    ? s
    : next;
}

/** A photo (and so "Save photo") is offered only while a piece is drawn. */
export const canTakePhoto = (s: TryOnState) => s.phase === 'drawing';

/** The piece is drawn on the picture only while a face is tracked (cleared once it is lost). */
export const drawsPiece = (s: TryOnState) => s.phase === 'drawing';

/** Megabytes with one decimal, for the messages. */
export const megabytes = (bytes: number) => (Math.round(bytes / 100_000) / 10).toFixed(1);

/** The fetched share of the model, 0–100. */
export const percentLoaded = (s: TryOnState) =>
  s.total > 0 ? Math.min(100, Math.floor((s.loaded / s.total) * 100)) : 0;

/** The status line's i18n key and values for a state (null: nothing to say). */
export function statusMessage(
  s: TryOnState,
): { key: string; values?: Record<string, string | number> } | null {
  switch (s.phase) {
    case 'ask':
      return { key: 'catalog.tryOn.saveDataAsk', values: { size: megabytes(s.wireBytes) } };
    case 'loading':
      return s.wireBytes > 0
        ? {
            key: 'catalog.tryOn.loadingModel',
            values: { size: megabytes(s.wireBytes), percent: percentLoaded(s) },
          }
        : { key: 'catalog.tryOn.loadingModelUnsized' };
    case 'camera':
      return { key: 'catalog.tryOn.loading' };
    case 'look':
      return { key: 'catalog.tryOn.lookAtCamera' };
    case 'drawing':
      return null;
    case 'lost':
      return { key: 'catalog.tryOn.faceLost' };
    case 'no-camera':
      return { key: 'catalog.tryOn.noCamera' };
    case 'camera-denied':
      return { key: 'catalog.tryOn.cameraDenied' };
    case 'model-failed':
      return { key: 'catalog.tryOn.modelFailed' };
  }
}

/** A tiny store around the reducer, shared by the engine (which feeds it) and the screen (which shows it). */
export interface TryOnMachine {
  readonly state: TryOnState;
  dispatch(e: TryOnEvent): void;
  subscribe(fn: (s: TryOnState) => void): () => void;
}

export function createTryOnMachine(initial: TryOnState = INITIAL_TRY_ON): TryOnMachine {
  let state = initial;
  const subs = new Set<(s: TryOnState) => void>();
  return {
    get state() {
      return state;
    },
    dispatch(e) {
      const next = tryOnReducer(state, e);
      if (next === state) return;
      state = next;
      for (const fn of subs) fn(state);
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
}
