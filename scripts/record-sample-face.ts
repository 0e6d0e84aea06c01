/**
 * Records the try-on's sample face (docs/product-rules.md §16): the face-mesh landmarks the product form's
 * preview draws a face from (pwa/src/features/tryon/sample-face-drawing.ts) and places a try-on image on, so the
 * preview needs neither a camera nor the model, and no photograph ships in the app. The landmarks are what
 * the try-on's face model finds (recorded with @mediapipe/face_mesh; @vladmandic/human's mesh since issue #51), in headless Chromium through the same sandboxed page the app uses, on the face the
 * try-on's browser test plays (tests/e2e/support/face-video.ts: a photo from @vladmandic/face-api's demo, a dev
 * dependency). Run again only to change the face:
 *
 *   npx tsx scripts/record-sample-face.ts
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import prettier from 'prettier';
import sharp from 'sharp';
import { FACE_MODEL_BASE } from '../api/contract/face-model';
import { REPO, startServer } from '../tests/bench/lib/harness';

const require = createRequire(import.meta.url);
const OUT = path.join(REPO, 'pwa/src/features/tryon/sample-face');
const WIDTH = 384;
const HEIGHT = 480;

const source = path.join(
  path.dirname(require.resolve('@vladmandic/face-api/package.json')),
  'demo/sample6.jpg',
);
// The face of tests/e2e/support/face-video.ts, cropped taller (down to the chest, where necklaces and pendants
// hang) and smaller: a preview is at most a phone's width.
const picture = await sharp(source)
  .extract({ left: 470, top: 230, width: 720, height: 900 })
  .resize(WIDTH, HEIGHT)
  .webp({ quality: 70 })
  .toBuffer();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-sample-face-'));
const server = await startServer({ DATA_DIR: dataDir });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--disable-gpu'] });
try {
  // Any page of the server's origin may frame the model's page (its CSP allows 'self' ancestors).
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await page.goto(`${server.url}/_api/products/list?limit=1`);
  const landmarks = await page.evaluate(
    async ({ base, picture }) => {
      const frameUrl = `${base}frame.html`;
      const frame = document.createElement('iframe');
      frame.sandbox.add('allow-scripts');
      frame.src = frameUrl;
      document.body.appendChild(frame);
      const img = new Image();
      img.src = picture;
      await img.decode();
      return new Promise<number[] | null>((resolve, reject) => {
        window.addEventListener('message', async (e) => {
          const m = e.data as {
            type: string;
            path?: string;
            landmarks?: Float32Array | null;
            message?: string;
          };
          if (m.type === 'file') {
            // The page asks the app for the model's files (pwa/src/features/tryon/detector.ts does the same).
            const bytes = await (await fetch(`${base}${m.path}`)).arrayBuffer();
            frame.contentWindow!.postMessage({ type: 'file', path: m.path, bytes }, '*', [bytes]);
          } else if (m.type === 'ready') {
            const bitmap = await createImageBitmap(img);
            frame.contentWindow!.postMessage({ type: 'frame', id: 1, bitmap }, '*', [bitmap]);
          } else if (m.type === 'landmarks') resolve(m.landmarks ? [...m.landmarks] : null);
          else if (m.type === 'error') reject(new Error(m.message));
        });
      });
    },
    {
      base: `${server.url}${FACE_MODEL_BASE}`,
      picture: `data:image/webp;base64,${picture.toString('base64')}`,
    },
  );
  if (!landmarks || landmarks.length !== 468 * 3) throw new Error('no face found on the sample picture');
  // x, y, z of each of the 468 points, to 4 decimals (a tenth of a pixel at this size).
  const rounded = landmarks.map((v) => Math.round(v * 10_000) / 10_000);
  const json = JSON.stringify({ width: WIDTH, height: HEIGHT, landmarks: rounded });
  fs.writeFileSync(
    `${OUT}.json`,
    await prettier.format(json, { ...(await prettier.resolveConfig(`${OUT}.json`)), parser: 'json' }),
  );
  console.log(`wrote ${OUT}.json`);
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
