/**
 * Where the try-on's face model is served from and which of its files a face try-on loads (issue #51): the
 * server (api/src/http/face-mesh.ts) serves them, the app's detector (pwa/src/features/tryon/detector.ts) fetches
 * them for its sandboxed page and keeps them in the Cache Storage from the first use on (FACE_MODEL_CACHE). The version is
 * @vladmandic/human's, checked against the installed package when the server starts.
 */
export const FACE_MODEL_VERSION = '3.3.6';

/** The version's folder: the version in the path, so a year's immutable caching is safe. */
export const FACE_MODEL_BASE = `/vendor/human/${FACE_MODEL_VERSION}/`;

/** The files a face try-on loads: the library's bundle and the detector and mesh models (graph and weights). */
export const FACE_FILES = [
  'dist/human.esm.js',
  'models/blazeface.json',
  'models/blazeface.bin',
  'models/facemesh.json',
  'models/facemesh.bin',
] as const;

/**
 * TensorFlow.js's WebAssembly backend (SIMD), for a device whose WebGL is drawn in software (no GPU, or a blocked
 * one): fetched only there, from @tensorflow/tfjs-backend-wasm of the version the bundle carries.
 */
export const FACE_WASM_FILES = ['wasm/tfjs-backend-wasm-simd.wasm'] as const;

/** The Cache Storage cache the app keeps the model in from the first try-on on (works offline after it). */
export const FACE_MODEL_CACHE = 'nagai-tryon-v1';

/**
 * The try-on's own code (the dialog and what only the try-on loads): not precached (the precache's 1.6 MB budget),
 * kept from the first try-on on in this cache instead, which the service worker answers from first
 * (sw/sw.ts), so a try-on works offline after the first. The names are the build's chunk names
 * (`assets/<name>-<hash>.js`, content-hashed: a new build's chunk is a new file).
 */
export const TRYON_CODE_CACHE = 'nagai-tryon-code-v1';
export const TRYON_CODE_CHUNKS = ['try-on-dialog', 'engine', 'piece-image', 'model-load'] as const;

/** Whether a path is one of the try-on's code chunks (`/assets/engine-UwaCarZf.js`). */
export const isTryOnCode = (pathname: string) =>
  new RegExp(`^/assets/(${TRYON_CODE_CHUNKS.join('|')})-[\\w-]+\\.js$`).test(pathname);
