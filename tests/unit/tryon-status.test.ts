import { describe, expect, it } from 'vitest';
import {
  FACE_LOST_MS,
  INITIAL_TRY_ON,
  canTakePhoto,
  createTryOnMachine,
  drawsPiece,
  percentLoaded,
  statusMessage,
  tryOnReducer,
  type TryOnEvent,
  type TryOnState,
} from '../../pwa/src/features/tryon/status';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';

const run = (events: TryOnEvent[], from: TryOnState = INITIAL_TRY_ON) => events.reduce(tryOnReducer, from);
const sized: TryOnEvent = { type: 'sizes', total: 10_000_000, wireBytes: 2_900_000, askFirst: false };

/** Issue #51 item 2: the try-on's status follows the truth. */
describe('try-on status', () => {
  it('loading with progress of the real size → look at the camera → drawing; a photo only while drawing', () => {
    let s = run([sized]);
    expect(s.phase).toBe('loading');
    expect(statusMessage(s)).toEqual({
      key: 'catalog.tryOn.loadingModel',
      values: { size: '2.9', percent: 0 },
    });
    s = run([{ type: 'progress', loaded: 4_500_000 }], s);
    expect(percentLoaded(s)).toBe(45);
    expect(statusMessage(s)?.values).toEqual({ size: '2.9', percent: 45 });
    // Progress never goes back and never passes the whole.
    expect(run([{ type: 'progress', loaded: 1 }], s)).toBe(s);
    expect(percentLoaded(run([{ type: 'progress', loaded: 99_000_000 }], s))).toBe(100);
    // The camera's picture is live while the model still loads: still loading (not "Starting the camera").
    s = run([{ type: 'camera-live' }], s);
    expect(s.phase).toBe('loading');
    expect(canTakePhoto(s)).toBe(false);
    s = run([{ type: 'model-ready' }], s);
    expect(s.phase).toBe('look');
    expect(statusMessage(s)?.key).toBe('catalog.tryOn.lookAtCamera');
    expect(canTakePhoto(s)).toBe(false);
    expect(drawsPiece(s)).toBe(false);
    // No face yet: time passing keeps "Look at the camera" (it is not "lost").
    expect(run([{ type: 'no-face', at: 50_000 }], s).phase).toBe('look');
    s = run([{ type: 'face', at: 1000 }], s);
    expect(s.phase).toBe('drawing');
    expect(statusMessage(s)).toBeNull();
    expect(canTakePhoto(s)).toBe(true);
    expect(drawsPiece(s)).toBe(true);
  });

  it('the model ready before the picture: "Starting the camera…", then look at the camera', () => {
    const s = run([sized, { type: 'model-ready' }]);
    expect(s.phase).toBe('camera');
    expect(statusMessage(s)?.key).toBe('catalog.tryOn.loading');
    expect(run([{ type: 'camera-live' }], s).phase).toBe('look');
    // A face reported before both are ready changes nothing.
    expect(run([{ type: 'face', at: 5 }], s)).toBe(s);
  });

  it('a face lost for FACE_LOST_MS says so and clears the drawing; found again, it draws', () => {
    let s = run([sized, { type: 'camera-live' }, { type: 'model-ready' }, { type: 'face', at: 10_000 }]);
    // A missed frame shorter than the limit keeps the drawing (no blinking).
    s = run([{ type: 'no-face', at: 10_000 + FACE_LOST_MS - 1 }], s);
    expect(s.phase).toBe('drawing');
    s = run([{ type: 'no-face', at: 10_000 + FACE_LOST_MS }], s);
    expect(s.phase).toBe('lost');
    expect(statusMessage(s)?.key).toBe('catalog.tryOn.faceLost');
    expect(drawsPiece(s)).toBe(false);
    expect(canTakePhoto(s)).toBe(false);
    s = run([{ type: 'face', at: 13_000 }], s);
    expect(s.phase).toBe('drawing');
    expect(canTakePhoto(s)).toBe(true);
    // The clock restarts from the newest face.
    expect(run([{ type: 'no-face', at: 13_000 + FACE_LOST_MS - 1 }], s).phase).toBe('drawing');
  });

  it('Save-Data: asks before a large download, and loads once the person continues', () => {
    let s = run([{ ...sized, askFirst: true }]);
    expect(s.phase).toBe('ask');
    expect(statusMessage(s)).toEqual({ key: 'catalog.tryOn.saveDataAsk', values: { size: '2.9' } });
    // The camera going live meanwhile does not skip the question.
    s = run([{ type: 'camera-live' }], s);
    expect(s.phase).toBe('ask');
    s = run([{ type: 'continue' }], s);
    expect(s.phase).toBe('loading');
    expect(run([{ type: 'model-ready' }], s).phase).toBe('look');
  });

  it('failures are final and say so', () => {
    const s = run([sized, { type: 'failed', phase: 'camera-denied' }]);
    expect(statusMessage(s)?.key).toBe('catalog.tryOn.cameraDenied');
    expect(run([{ type: 'model-ready' }, { type: 'camera-live' }, { type: 'face', at: 1 }], s)).toBe(s);
    expect(statusMessage(run([{ type: 'failed', phase: 'model-failed' }]))?.key).toBe(
      'catalog.tryOn.modelFailed',
    );
  });

  it('the machine tells its subscribers only of changes', () => {
    const m = createTryOnMachine();
    const seen: string[] = [];
    m.subscribe((s) => seen.push(s.phase));
    m.dispatch(sized);
    m.dispatch({ type: 'model-ready' });
    m.dispatch({ type: 'camera-live' });
    m.dispatch({ type: 'camera-live' });
    m.dispatch({ type: 'no-face', at: 1 });
    m.dispatch({ type: 'face', at: 2 });
    m.dispatch({ type: 'face', at: 2 });
    m.dispatch({ type: 'no-face', at: 2 + FACE_LOST_MS });
    expect(seen).toEqual(['loading', 'camera', 'look', 'drawing', 'lost']);
  });

  it('every status message has its English and Tamil words', () => {
    const keys = [
      'loadingModel',
      'loadingModelUnsized',
      'loading',
      'lookAtCamera',
      'faceLost',
      'saveDataAsk',
    ];
    const tr = (l: typeof en) => l.catalog.tryOn as Record<string, string>;
    for (const k of keys) {
      expect(tr(en)[k], k).toBeTruthy();
      expect(tr(ta)[k], k).toMatch(/[\u0B80-\u0BFF]/);
    }
  });
});
