import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Next } from 'koa';
import { FACE_FILES, FACE_MODEL_BASE, FACE_MODEL_VERSION, FACE_WASM_FILES } from '../../contract/face-model';
import type { AppContext } from './context';

const require = createRequire(import.meta.url);
// The package's exports map names no package.json: its root is the folder above its Node build.
const PACKAGE_DIR = path.resolve(path.dirname(require.resolve('@vladmandic/human')), '..');
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
if (VERSION !== FACE_MODEL_VERSION)
  throw new Error(
    `@vladmandic/human ${VERSION} is installed; api/contract/face-model.ts names ${FACE_MODEL_VERSION}`,
  );

/**
 * The face-landmark model of the virtual try-on (issues #36, #51), served from our own origin:
 * @vladmandic/human's browser bundle (TensorFlow.js inside, WebGL backend) and only the two face models it needs,
 * the BlazeFace detector and the 468-point face mesh, under /vendor/human/<version>/ (the version in the path, so
 * a year's immutable caching is safe), and the small page that runs it. Nothing is fetched from elsewhere.
 *
 * The model runs in its own page, framed with `sandbox="allow-scripts"` (an opaque origin: no cookies, no access
 * to the app, no storage): third-party model code never runs in the app's origin. The app posts it camera frames
 * and reads back landmarks (pwa/src/features/tryon/detector.ts); frames never leave the device. The page asks
 * the app for the bundle and the model files (the app keeps them in its Cache Storage from the first try-on on,
 * so a try-on works offline), so only this small page comes over the frame's own request: a navigation, which the browser's cache keeps for the app (a year, immutable).
 */
export const FACE_MESH_BASE = FACE_MODEL_BASE;

/** TensorFlow.js's WebAssembly binaries, of the version @vladmandic/human bundles (checked at start). */
const WASM_DIR = path.resolve(
  path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')),
  'dist',
);
const WASM_VERSION = (
  JSON.parse(fs.readFileSync(path.join(WASM_DIR, '..', 'package.json'), 'utf8')) as { version: string }
).version;
if (!fs.readFileSync(path.join(PACKAGE_DIR, 'dist/tfjs.version.js'), 'utf8').includes(`"${WASM_VERSION}"`))
  throw new Error(
    `@tensorflow/tfjs-backend-wasm ${WASM_VERSION} is not the TensorFlow.js @vladmandic/human bundles`,
  );

const FILES: Record<string, string> = {
  'dist/human.esm.js': 'text/javascript; charset=utf-8',
  'models/blazeface.json': 'application/json',
  'models/blazeface.bin': 'application/octet-stream',
  'models/facemesh.json': 'application/json',
  'models/facemesh.bin': 'application/octet-stream',
  ...Object.fromEntries(FACE_WASM_FILES.map((f) => [f, 'application/wasm'])),
};

/**
 * The detector page's script. It asks the app (its parent) for each file by its path under the version's
 * folder ({ type: 'file', path } → { type: 'file', path, bytes | error }; the app counts the bytes as they
 * arrive for the progress); imports the bundle from a blob: URL; runs Human with only the face detector and the
 * mesh (TensorFlow.js's WebGL backend, its WebAssembly one where WebGL is drawn in software); answers 'ready'
 * once loaded (with where its start-up time went) and
 * every frame with { id, landmarks | null }: 468 points, x and y in 0..1 of the frame, z the depth in x's scale
 * (as MediaPipe's face mesh gives them: the mesh's raw depth is in its 192-pixel crop's units, the crop's width
 * is the face box's).
 */
const FRAME_JS = `(() => {
  'use strict';
  const post = (m) => parent.postMessage(m, '*');
  const waiting = new Map();
  // A file from the app: its bytes (an ArrayBuffer, transferred) or an error.
  const file = (p) => new Promise((resolve, reject) => {
    waiting.set(p, { resolve, reject });
    post({ type: 'file', path: p });
  });
  const realFetch = window.fetch.bind(window);
  const base = new URL('./', location.href).href;
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? new URL(input, base).href : input.url;
    if (!url.startsWith(base)) return realFetch(input, init);
    const p = url.slice(base.length).split('?')[0];
    const bytes = await file(p);
    const type = p.endsWith('.json') ? 'application/json' : p.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(bytes, { status: 200, headers: { 'Content-Type': type } });
  };
  let human = null;
  let busy = false;
  async function start() {
    const t0 = performance.now();
    const code = await file('dist/human.esm.js');
    const t1 = performance.now();
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const { Human } = await import(url);
    URL.revokeObjectURL(url);
    const t2 = performance.now();
    const off = { enabled: false };
    // WebGL where the device draws it on a GPU; TensorFlow.js's WebAssembly (SIMD) where WebGL is missing or
    // drawn in software (SwiftShader, llvmpipe), which is many times slower there than WebAssembly.
    let backend = 'wasm';
    try {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl && gl.getExtension('WEBGL_debug_renderer_info');
      const renderer = gl ? String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) : '';
      if (gl && !/swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer)) backend = 'webgl';
    } catch (e) { backend = 'wasm'; }
    human = new Human({
      backend, wasmPath: base + 'wasm/', wasmPlatformFetch: false,
      modelBasePath: base + 'models/', cacheModels: false, warmup: 'none', debug: false,
      async: true, filter: { enabled: false }, cacheSensitivity: 0,
      face: {
        enabled: true,
        detector: { enabled: true, modelPath: 'blazeface.json', maxDetected: 1, rotation: false, return: false },
        mesh: { enabled: true, modelPath: 'facemesh.json' },
        iris: off, emotion: off, description: off, antispoof: off, liveness: off, attention: off, gear: off,
      },
      body: off, hand: off, object: off, gesture: off, segmentation: off,
    });
    await human.load();
    // No warm-up on a blank picture: the first camera frame is the warm-up (a blank one runs the detector only,
    // and costs its time before the first real answer).
    const t3 = performance.now();
    // Where its start-up went (ms): waiting for the bundle, importing it, loading the backend and the models.
    post({ type: 'ready', backend: human.tf.getBackend(), times: { bundle: t1 - t0, import: t2 - t1, load: t3 - t2 } });
  }
  window.addEventListener('message', async (e) => {
    if (e.source !== parent) return;
    const m = e.data;
    if (!m) return;
    if (m.type === 'file') {
      const w = waiting.get(m.path);
      if (!w) return;
      waiting.delete(m.path);
      if (m.bytes) w.resolve(m.bytes);
      else w.reject(new Error(m.error || 'file failed'));
      return;
    }
    if (m.type !== 'frame' || !human) return;
    const bmp = m.bitmap;
    try {
      const r = await human.detect(bmp);
      const f = r.face && r.face[0];
      let flat = null;
      if (f && f.meshRaw && f.meshRaw.length >= 468) {
        flat = new Float32Array(f.meshRaw.length * 3);
        const zScale = f.boxRaw[2];
        f.meshRaw.forEach((p, i) => { flat[i * 3] = p[0]; flat[i * 3 + 1] = p[1]; flat[i * 3 + 2] = p[2] * zScale; });
      }
      post({ type: 'landmarks', id: m.id, landmarks: flat });
    } catch (err) {
      post({ type: 'error', id: m.id, message: String(err && err.message || err) });
    } finally {
      bmp.close();
    }
  });
  start().catch((err) => post({ type: 'error', message: String(err && err.message || err) }));
})();
`;

/**
 * The detector page's own policy. `sandbox allow-scripts` makes the page an opaque origin however it is opened:
 * framed by the app (which also sets the iframe's sandbox attribute) or opened directly as a page (issue #46,
 * item 8). Never allow-same-origin: with allow-scripts it would undo the sandbox. Its one script is inline,
 * allowed by its hash (a script file would be a request of the opaque origin, which the browser caches under an
 * origin that is new on every load: it never comes from the cache, so the try-on would not start offline). The
 * library's bundle arrives from the app as bytes and is imported from a blob: URL (script-src blob:); it needs no
 * 'unsafe-eval'. The app accepts the page's messages by their source (`event.source === frame.contentWindow`,
 * pwa/src/features/tryon/detector.ts), not by origin, which is "null" for a sandboxed page.
 */
const FRAME_CSP =
  `default-src 'none'; script-src 'sha256-${crypto.createHash('sha256').update(FRAME_JS).digest('base64')}' ` +
  "blob: 'wasm-unsafe-eval'; connect-src 'self' blob: data:; img-src 'self' blob: data:; worker-src 'self' blob:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox allow-scripts";

/** The detector page, its script inline: the page needs nothing else from the network to start (offline too). */
const FRAME_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>face landmarks</title></head><body>
<script>${FRAME_JS}</script></body></html>`;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** Each file compressed once per process (the bundle is 2 MB raw: brotli brings it to about a quarter). */
const compressed = new Map<string, Promise<{ br: Buffer; gz: Buffer; raw: Buffer }>>();

function compressedFile(name: string): Promise<{ br: Buffer; gz: Buffer; raw: Buffer }> {
  let entry = compressed.get(name);
  if (!entry) {
    entry = (async () => {
      const raw =
        name === 'frame.html'
          ? Buffer.from(FRAME_HTML)
          : name.startsWith('wasm/')
            ? await fs.promises.readFile(path.join(WASM_DIR, name.slice('wasm/'.length)))
            : await fs.promises.readFile(path.join(PACKAGE_DIR, name));
      const [br, gz] = await Promise.all([
        brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
        gzip(raw, { level: 9 }),
      ]);
      return { br, gz, raw };
    })();
    entry.catch(() => compressed.delete(name));
    compressed.set(name, entry);
  }
  return entry;
}

/**
 * The model's real sizes (issue #51: "Loading the try-on (N MB)", the Save-Data ask, the progress): `total` the
 * bytes of the bundle and model files as the app receives them, decoded (what the progress counts), `wire` the
 * same files as sent (brotli, as a phone on HTTPS gets them), `files` each file's raw, brotli and gzip bytes.
 */
export async function modelSizes(): Promise<{
  total: number;
  wire: number;
  files: Record<string, { raw: number; br: number; gz: number }>;
}> {
  const files: Record<string, { raw: number; br: number; gz: number }> = {};
  for (const name of FACE_FILES) {
    const f = await compressedFile(name);
    files[name] = { raw: f.raw.length, br: f.br.length, gz: f.gz.length };
  }
  const total = FACE_FILES.reduce((a, n) => a + files[n]!.raw, 0);
  const wire = FACE_FILES.reduce((a, n) => a + files[n]!.br, 0);
  return { total, wire, files };
}

/** Serves /vendor/human/<version>/<file> (the face files and the detector page), else passes on. */
export function faceMeshAssets() {
  return async function faceMesh(ctx: AppContext, next: Next) {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith('/vendor/human/'))
      return next();
    const name = ctx.path.startsWith(FACE_MESH_BASE) ? ctx.path.slice(FACE_MESH_BASE.length) : '';
    if (name === 'sizes.json') {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = await modelSizes();
      return;
    }
    const type = name === 'frame.html' ? 'text/html; charset=utf-8' : FILES[name];
    if (!type) return next();
    const file = await compressedFile(name);
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Vary', 'Accept-Encoding');
    // The detector page is an opaque origin (sandboxed frame): it fetches the model with CORS.
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    if (name === 'frame.html') ctx.set('Content-Security-Policy', FRAME_CSP);
    if (encoding === 'br' || encoding === 'gzip') {
      ctx.set('Content-Encoding', encoding);
      ctx.body = encoding === 'br' ? file.br : file.gz;
    } else {
      ctx.body = file.raw;
    }
  };
}
