import {
  FACE_FILES,
  FACE_MODEL_BASE,
  FACE_MODEL_CACHE,
  FACE_WASM_FILES,
} from '../../../../api/contract/face-model';
import type { Landmark } from './geometry';

/** Where the server serves the model (api/src/http/face-mesh.ts), its version in the path. */
export const FACE_MESH_BASE = FACE_MODEL_BASE;

/**
 * A model file's response: from the app's Cache Storage when a try-on kept it, else from the server, and then
 * kept (issue #51: from the first try-on on, the next starts without the network and works offline). The app
 * keeps the files itself, not the service worker: a first visit's page is not yet the worker's, and the
 * sandboxed page's own requests never are.
 */
async function modelResponse(url: string): Promise<Response> {
  // No Cache Storage (an insecure origin, a private mode): straight from the server.
  const cache = typeof caches === 'undefined' ? null : await caches.open(FACE_MODEL_CACHE).catch(() => null);
  const hit = await cache?.match(url).catch(() => undefined);
  if (hit) return hit;
  const res = await fetch(url);
  if (res.ok && cache) void cache.put(url, res.clone()).catch(() => undefined);
  return res;
}

/** Drops kept files of another version of the model (the current one's stay). */
async function dropOldModelFiles(): Promise<void> {
  const cache = await caches.open(FACE_MODEL_CACHE);
  const keep = new Set(
    [...FACE_FILES, ...FACE_WASM_FILES].map((f) => new URL(FACE_MESH_BASE + f, location.href).href),
  );
  for (const req of await cache.keys()) if (!keep.has(req.url)) await cache.delete(req);
}

/** One file for the detector page, its decoded bytes counted as they arrive. */
async function fetchModelFile(name: string, onBytes: (n: number) => void): Promise<ArrayBuffer> {
  const res = await modelResponse(`${FACE_MESH_BASE}${name}`);
  if (!res.ok || !res.body) throw new Error(`${name}: ${res.status}`);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    onBytes(size);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out.buffer;
}

export interface FaceDetector {
  /** Landmarks of the one face in the frame, or null when there is none. */
  detect(
    frame: CanvasImageSource & { width?: number },
    width: number,
    height: number,
  ): Promise<Landmark[] | null>;
  close(): void;
}

type FrameMessage =
  | { type: 'ready'; times?: Record<string, number> }
  | { type: 'file'; path: string }
  | { type: 'landmarks'; id: number; landmarks: Float32Array | null }
  | { type: 'error'; id?: number; message: string };

/**
 * Starts the face-landmark model in its sandboxed page (a hidden frame: the model's code needs 'unsafe-eval',
 * which the app's CSP refuses) and resolves once it is loaded. Frames go to it as transferred ImageBitmaps on
 * this device; only landmarks come back.
 */
export function startFaceDetector(
  opts: { timeoutMs?: number; onProgress?: (loaded: number) => void } = {},
): Promise<FaceDetector> {
  const frame = document.createElement('iframe');
  frame.sandbox.add('allow-scripts');
  frame.src = `${FACE_MESH_BASE}frame.html`;
  frame.title = 'face landmarks';
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.cssText =
    'position:fixed;width:1px;height:1px;left:-10px;top:-10px;border:0;opacity:0;pointer-events:none';
  let nextId = 1;
  const waiting = new Map<number, { resolve: (l: Landmark[] | null) => void; reject: (e: Error) => void }>();
  let onReady: (() => void) | null = null;
  let onFail: ((e: Error) => void) | null = null;
  // The model's bytes received so far, by file, for the progress (at most every 100 ms, and at each file's end).
  const received = new Map<string, number>();
  let lastReport = 0;
  // The page's script ran (its first ask for a file): a mark for the figures.
  let scriptRan = false;
  const report = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastReport < 100) return;
    lastReport = now;
    let sum = 0;
    for (const n of received.values()) sum += n;
    opts.onProgress?.(sum);
  };
  // Every file is fetched at once, while the page starts (it asks for the bundle first, then the models).
  const files = new Map(
    FACE_FILES.map((name) => {
      const p = fetchModelFile(name, (n) => {
        received.set(name, n);
        report(false);
      });
      p.catch(() => undefined);
      return [name as string, p] as const;
    }),
  );
  const sendFile = (name: string) => {
    const reply = (m: { bytes?: ArrayBuffer; error?: string }) =>
      frame.contentWindow?.postMessage({ type: 'file', path: name, ...m }, '*', m.bytes ? [m.bytes] : []);
    // The WebAssembly backend only when the page asks for it (a device without a GPU for WebGL), not counted in
    // the progress.
    const file =
      typeof name !== 'string'
        ? undefined
        : (files.get(name) ??
          ((FACE_WASM_FILES as readonly string[]).includes(name)
            ? fetchModelFile(name, () => undefined)
            : undefined));
    if (!file) return reply({ error: 'not a model file' });
    files.delete(name); // each is sent once (its bytes are transferred)
    file.then(
      (bytes) => {
        report(true);
        reply({ bytes });
      },
      (err: unknown) => reply({ error: String(err instanceof Error ? err.message : err) }),
    );
  };
  const listener = (e: MessageEvent) => {
    // The page is sandboxed twice (this attribute and its own CSP, `sandbox allow-scripts`): its origin is
    // opaque, so its messages arrive with origin "null", as anyone's sandboxed page would. Only this frame's
    // window is accepted, by identity.
    if (e.source !== frame.contentWindow) return;
    const m = e.data as FrameMessage;
    if (m.type === 'ready') {
      // For the figures (tests/bench/tryon.ts): the page's start-up, by step, as measures ending now.
      let end = performance.now();
      for (const [step, ms] of Object.entries(m.times ?? {}).reverse()) {
        if (typeof ms !== 'number') continue;
        performance.measure(`try-on:frame-${step}`, { start: end - ms, end });
        end -= ms;
      }
      onReady?.();
    } else if (m.type === 'file') {
      if (!scriptRan) performance.mark('try-on:frame-script');
      scriptRan = true;
      sendFile(m.path);
    } else if (m.type === 'landmarks') {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (!w) return;
      if (!m.landmarks) return w.resolve(null);
      const out: Landmark[] = [];
      for (let i = 0; i < m.landmarks.length; i += 3)
        out.push({ x: m.landmarks[i]!, y: m.landmarks[i + 1]!, z: m.landmarks[i + 2]! });
      w.resolve(out);
    } else if (m.type === 'error') {
      const err = new Error(m.message);
      if (m.id !== undefined) {
        waiting.get(m.id)?.reject(err);
        waiting.delete(m.id);
      } else onFail?.(err);
    }
  };
  window.addEventListener('message', listener);
  const close = () => {
    window.removeEventListener('message', listener);
    frame.remove();
    for (const w of waiting.values()) w.resolve(null);
    waiting.clear();
  };
  document.body.appendChild(frame);
  return new Promise<FaceDetector>((resolve, reject) => {
    const timer = setTimeout(() => {
      close();
      reject(new Error('face model timed out'));
    }, opts.timeoutMs ?? 60_000);
    onFail = (e) => {
      clearTimeout(timer);
      close();
      reject(e);
    };
    onReady = () => {
      clearTimeout(timer);
      void dropOldModelFiles().catch(() => undefined);
      resolve({
        async detect(source, width, height) {
          const bitmap = await createImageBitmap(source as ImageBitmapSource, {
            resizeWidth: width,
            resizeHeight: height,
          });
          const id = nextId++;
          return new Promise<Landmark[] | null>((res, rej) => {
            waiting.set(id, { resolve: res, reject: rej });
            frame.contentWindow?.postMessage({ type: 'frame', id, bitmap }, '*', [bitmap]);
          });
        },
        close,
      });
    };
  });
}

/** A loaded model is kept this long after its last user lets go, so trying the next piece starts at once. */
export const DETECTOR_IDLE_MS = 120_000;

let shared: {
  detector: Promise<FaceDetector>;
  users: number;
  timer: ReturnType<typeof setTimeout> | null;
  ready: boolean;
  loaded: number;
  listeners: Set<(loaded: number) => void>;
} | null = null;

/** Whether the page's face model is loaded already (nothing to download, nothing to ask). */
export const faceModelReady = () => !!shared?.ready;

/** The model's real sizes, from the server (api/src/http/face-mesh.ts `modelSizes`). */
export async function faceModelSizes(): Promise<{ total: number; wire: number }> {
  const res = await fetch(`${FACE_MESH_BASE}sizes.json`);
  if (!res.ok) throw new Error(`sizes ${res.status}`);
  const body = (await res.json()) as { total: number; wire: number };
  return { total: body.total, wire: body.wire };
}

/**
 * The page's one face model, started on first use and shared by the dialog and the call (one at a time in
 * practice). `close()` on the answer lets go; the model stops DETECTOR_IDLE_MS after the last user let go.
 */
export async function acquireFaceDetector(
  opts: { onProgress?: (loaded: number) => void } = {},
): Promise<FaceDetector> {
  if (!shared) {
    const listeners = new Set<(loaded: number) => void>();
    const entry = {
      detector: startFaceDetector({
        onProgress: (loaded) => {
          entry.loaded = loaded;
          for (const fn of listeners) fn(loaded);
        },
      }),
      users: 0,
      timer: null as ReturnType<typeof setTimeout> | null,
      ready: false,
      loaded: 0,
      listeners,
    };
    shared = entry;
    entry.detector.then(
      () => {
        entry.ready = true;
      },
      () => {
        if (shared === entry) shared = null;
      },
    );
  }
  const entry = shared;
  const onProgress = opts.onProgress;
  if (onProgress) {
    entry.listeners.add(onProgress);
    if (entry.loaded) onProgress(entry.loaded);
    void entry.detector.finally(() => entry.listeners.delete(onProgress)).catch(() => undefined);
  }
  entry.users++;
  if (entry.timer) clearTimeout(entry.timer);
  entry.timer = null;
  let detector: FaceDetector;
  try {
    detector = await entry.detector;
  } catch (err) {
    entry.users--;
    throw err;
  }
  let released = false;
  return {
    detect: (frame, width, height) => detector.detect(frame, width, height),
    close() {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.users > 0) return;
      entry.timer = setTimeout(() => {
        if (entry.users > 0) return;
        if (shared === entry) shared = null;
        detector.close();
      }, DETECTOR_IDLE_MS);
    },
  };
}
