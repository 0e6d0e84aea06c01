import { isTryOnCode, TRYON_CODE_CACHE } from '../../../../api/contract/face-model';
import { acquireFaceDetector, faceModelReady, faceModelSizes, type FaceDetector } from './detector';
import { SAVE_DATA_ASK_BYTES, type TryOnMachine } from './status';

/** Whether the phone asks to save data (Network Information API; absent in most browsers but Chrome's). */
export function savesData(): boolean {
  const c = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return c?.saveData === true;
}

/**
 * The face model for a try-on (dialog or call), feeding its machine: the model's real sizes (for "Loading the
 * try-on (N MB)" and its progress), on a phone that saves data first, and if the download is over
 * SAVE_DATA_ASK_BYTES, waits for the person's "Continue" (the machine's `ask` phase) before the download;
 * elsewhere the sizes arrive while the page's shared model starts, with the bytes received as progress. A model already loaded starts at once.
 */
export async function loadFaceModel(machine: TryOnMachine): Promise<FaceDetector> {
  if (!faceModelReady()) {
    const asks = savesData();
    const sizes = faceModelSizes().then(
      (s) =>
        machine.dispatch({
          type: 'sizes',
          total: s.total,
          wireBytes: s.wire,
          askFirst: asks && s.wire > SAVE_DATA_ASK_BYTES,
        }),
      () => undefined,
    );
    // Only a phone that saves data waits for the sizes (its question) before the download; any other starts the
    // model at once and shows the size when it arrives (a round trip less before the model starts).
    if (asks) await sizes;
    if (machine.state.phase === 'ask')
      await new Promise<void>((resolve) => {
        const off = machine.subscribe((s) => {
          if (s.phase === 'ask') return;
          off();
          resolve();
        });
      });
    if (
      machine.state.phase !== 'loading' &&
      machine.state.phase !== 'camera' &&
      machine.state.phase !== 'look'
    )
      throw new Error('the try-on stopped before its model loaded');
  }
  const detector = await acquireFaceDetector({
    onProgress: (loaded) => machine.dispatch({ type: 'progress', loaded }),
  });
  machine.dispatch({ type: 'model-ready' });
  return detector;
}

/** This module's file (a build's chunk): one of the try-on's code files kept for offline use. */
export const MODEL_LOAD_CODE_URL = import.meta.url;

/**
 * Keeps the try-on's code files (the chunks' own URLs, `import.meta.url` of their modules) in TRYON_CODE_CACHE,
 * which the service worker answers from first (sw/sw.ts): a try-on run before the worker controlled the page
 * (a first visit) is kept too, so the next works offline. Usually the worker has put them there already; a
 * file missing is fetched (from the browser's cache, as it was just loaded). A previous build's files go.
 */
export async function keepTryOnCode(urls: readonly string[]): Promise<void> {
  if (!import.meta.env.PROD || typeof caches === 'undefined') return;
  const keep = urls.filter((u) => isTryOnCode(new URL(u).pathname));
  if (!keep.length) return;
  const cache = await caches.open(TRYON_CODE_CACHE);
  for (const url of keep) if (!(await cache.match(url))) await cache.add(url);
  const current = new Set(keep);
  for (const req of await cache.keys()) if (!current.has(req.url)) await cache.delete(req);
}
