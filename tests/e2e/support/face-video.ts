import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

const require = createRequire(import.meta.url);

/** 640×480, the size the try-on figures are given at (docs/benchmarks.md). */
export const FACE_VIDEO = { width: 640, height: 480 } as const;

/** The demo photograph the face video and the try-on's sample face are cut from (@vladmandic/face-api, MIT). */
export function samplePhotoPath(): string {
  return path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo/sample6.jpg');
}

/**
 * A Y4M video for Chromium's fake camera (`--use-file-for-fake-video-capture`) that shows a real face: a photo
 * from @vladmandic/face-api's demo (a dev dependency, MIT), cropped to one woman's face and shoulders. Chromium
 * plays the file in a loop. Written once into .tmp/ and reused.
 */
export async function faceVideoFile(): Promise<string> {
  const out = path.resolve('.tmp/tryon-face.y4m');
  if (fs.existsSync(out)) return out;
  const source = samplePhotoPath();
  const { width, height } = FACE_VIDEO;
  const rgb = await sharp(source)
    .extract({ left: 470, top: 230, width: 720, height: 540 })
    .resize(width, height)
    .removeAlpha()
    .raw()
    .toBuffer();
  // BT.601 studio-range I420, the Y4M "C420jpeg" layout Chromium reads.
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const k = (j * width + i) * 3;
      const [r, g, b] = [rgb[k]!, rgb[k + 1]!, rgb[k + 2]!];
      y[j * width + i] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
    }
  for (let j = 0; j < height / 2; j++)
    for (let i = 0; i < width / 2; i++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [di, dj] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const k = ((j * 2 + dj) * width + i * 2 + di) * 3;
        r += rgb[k]!;
        g += rgb[k + 1]!;
        b += rgb[k + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      u[j * (width / 2) + i] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      v[j * (width / 2) + i] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}`;
  // A few identical frames: Chromium loops the file, so one would do; several keep its reader's timing even.
  fs.writeFileSync(tmp, Buffer.concat([header, ...Array.from({ length: 10 }, () => frame)]));
  fs.renameSync(tmp, out);
  return out;
}
