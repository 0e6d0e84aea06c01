import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Next } from 'koa';
import type { AppContext } from './context';

const require = createRequire(import.meta.url);
const PACKAGE_DIR = path.dirname(require.resolve('@mediapipe/face_mesh/package.json'));
const VERSION = (
  JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * The face-landmark model of the virtual try-on (issue #36), served from our own origin: @mediapipe/face_mesh's
 * script, WebAssembly and packed model under /vendor/face_mesh/<version>/ (the version in the path, so a year's
 * immutable caching is safe), and the small page that runs it. Nothing is fetched from elsewhere.
 *
 * The model's glue code compiles functions from strings (embind's `new Function`), which the app's CSP forbids.
 * So it runs in its own page, framed with `sandbox="allow-scripts"` (an opaque origin: no cookies, no access to
 * the app), under a CSP of its own that allows 'unsafe-eval' there only. The app posts it camera frames and
 * reads back landmarks (pwa/src/features/tryon/detector.ts); frames never leave the device.
 */
export const FACE_MESH_BASE = `/vendor/face_mesh/${VERSION}/`;

/** The files the detector page loads (the SIMD build, which every browser the try-on runs on has). */
const LOADED = [
  'face_mesh.js',
  'face_mesh.binarypb',
  'face_mesh_solution_packed_assets_loader.js',
  'face_mesh_solution_packed_assets.data',
  'face_mesh_solution_simd_wasm_bin.js',
  'face_mesh_solution_simd_wasm_bin.wasm',
];

const FILES: Record<string, string> = {
  'face_mesh.js': 'text/javascript; charset=utf-8',
  'face_mesh.binarypb': 'application/octet-stream',
  'face_mesh_solution_packed_assets.data': 'application/octet-stream',
  'face_mesh_solution_packed_assets_loader.js': 'text/javascript; charset=utf-8',
  'face_mesh_solution_simd_wasm_bin.js': 'text/javascript; charset=utf-8',
  'face_mesh_solution_simd_wasm_bin.wasm': 'application/wasm',
  'face_mesh_solution_wasm_bin.js': 'text/javascript; charset=utf-8',
  'face_mesh_solution_wasm_bin.wasm': 'application/wasm',
};

/**
 * The detector page's own policy. `sandbox allow-scripts` makes the page an opaque origin however it is opened:
 * framed by the app (which also sets the iframe's sandbox attribute) or opened directly as a page, where without
 * it the 'unsafe-eval' page would run in the app's origin with its cookies and storage (issue #46, item 8). Never
 * allow-same-origin: with allow-scripts it would undo the sandbox. The app accepts the page's messages by their
 * source (`event.source === frame.contentWindow`, pwa/src/features/tryon/detector.ts), not by origin, which is
 * "null" for a sandboxed page.
 */
const FRAME_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'; " +
  "img-src 'self' blob: data:; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; " +
  'sandbox allow-scripts';

const FRAME_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>face landmarks</title></head><body>
<script src="face_mesh.js"></script><script src="frame.js"></script></body></html>`;

/**
 * The detector page's script: one FaceMesh, frames in (ImageBitmap, transferred), landmarks out. Answers
 * 'ready' once the model is loaded and every frame with { id, landmarks | null }.
 */
const FRAME_JS = `(() => {
  'use strict';
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  let mesh = null;
  let latest = null;
  const post = (m) => parent.postMessage(m, '*');
  // Progress (issue #51): the bytes of the WebAssembly and the packed model received so far, counted as they
  // arrive (the model's code fetches the one and XHRs the other); at most every 100 ms, and at each file's end.
  const bytes = {};
  let lastReport = 0;
  const big = (url) => /\\.(wasm|data)$/.test(String(url).split('?')[0]);
  const report = (force) => {
    const now = Date.now();
    if (!force && now - lastReport < 100) return;
    lastReport = now;
    let loaded = 0;
    for (const k in bytes) loaded += bytes[k];
    post({ type: 'progress', loaded });
  };
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const res = await realFetch(input, init);
    const url = typeof input === 'string' ? input : input.url;
    if (!big(url) || !res.body) return res;
    let n = 0;
    const counted = res.body.pipeThrough(new TransformStream({
      transform(chunk, c) { n += chunk.byteLength; bytes[url] = n; report(false); c.enqueue(chunk); },
      flush() { report(true); },
    }));
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  const realOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    if (big(url)) {
      this.addEventListener('progress', (e) => { bytes[url] = e.loaded; report(false); });
      this.addEventListener('load', () => report(true));
    }
    return realOpen.call(this, method, url, ...rest);
  };
  async function start() {
    mesh = new FaceMesh({ locateFile: (f) => f });
    mesh.setOptions({ maxNumFaces: 1, refineLandmarks: false, minDetectionConfidence: 0.5, minTrackingConfidence: 0.5 });
    mesh.onResults((r) => { latest = r.multiFaceLandmarks && r.multiFaceLandmarks[0] ? r.multiFaceLandmarks[0] : null; });
    await mesh.initialize();
    post({ type: 'ready' });
  }
  window.addEventListener('message', async (e) => {
    if (e.source !== parent) return;
    const m = e.data;
    if (!m || m.type !== 'frame' || !mesh) return;
    const bmp = m.bitmap;
    try {
      if (canvas.width !== bmp.width || canvas.height !== bmp.height) { canvas.width = bmp.width; canvas.height = bmp.height; }
      ctx.drawImage(bmp, 0, 0);
      latest = null;
      await mesh.send({ image: canvas });
      const flat = latest ? new Float32Array(latest.length * 3) : null;
      if (latest) latest.forEach((p, i) => { flat[i * 3] = p.x; flat[i * 3 + 1] = p.y; flat[i * 3 + 2] = p.z; });
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

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** Each file compressed once per process (the WebAssembly is 6 MB: brotli brings it to about a third). */
const compressed = new Map<string, Promise<{ br: Buffer; gz: Buffer; raw: Buffer }>>();

function compressedFile(name: string): Promise<{ br: Buffer; gz: Buffer; raw: Buffer }> {
  let entry = compressed.get(name);
  if (!entry) {
    entry = (async () => {
      const raw =
        name === 'frame.html'
          ? Buffer.from(FRAME_HTML)
          : name === 'frame.js'
            ? Buffer.from(FRAME_JS)
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
 * bytes of the WebAssembly and packed model as the page receives them (what the progress counts), `wire` every
 * file the detector page loads as sent (brotli, as a phone on HTTPS gets them), `files` each file's raw, brotli
 * and gzip bytes.
 */
export async function modelSizes(): Promise<{
  total: number;
  wire: number;
  files: Record<string, { raw: number; br: number; gz: number }>;
}> {
  const files: Record<string, { raw: number; br: number; gz: number }> = {};
  for (const name of LOADED) {
    const f = await compressedFile(name);
    files[name] = { raw: f.raw.length, br: f.br.length, gz: f.gz.length };
  }
  const total = LOADED.filter((n) => /\.(wasm|data)$/.test(n)).reduce((a, n) => a + files[n]!.raw, 0);
  const wire = LOADED.reduce((a, n) => a + files[n]!.br, 0);
  return { total, wire, files };
}

/** Serves /vendor/face_mesh/<version>/<file> (the package's files and the detector page), else passes on. */
export function faceMeshAssets() {
  return async function faceMesh(ctx: AppContext, next: Next) {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith('/vendor/face_mesh/'))
      return next();
    const name = ctx.path.startsWith(FACE_MESH_BASE) ? ctx.path.slice(FACE_MESH_BASE.length) : '';
    if (name === 'sizes.json') {
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.body = await modelSizes();
      return;
    }
    const type =
      name === 'frame.html'
        ? 'text/html; charset=utf-8'
        : name === 'frame.js'
          ? 'text/javascript; charset=utf-8'
          : FILES[name];
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
