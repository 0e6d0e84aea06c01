import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/product-path';
import { expectAccessible, launchBrowser, newContext } from './support/browser';
import { faceVideoFile } from './support/face-video';

/**
 * Virtual try-on (issue #36) end to end: Chromium's fake camera plays a real face (support/face-video.ts), the
 * face-mesh model runs in the page from our own origin, and the piece is drawn at the face's landmarks.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([`--use-file-for-fake-video-capture=${await faceVideoFile()}`]);
});
afterAll(async () => browser?.close());

interface Placed {
  part: string;
  x: number;
  y: number;
  w: number;
  h: number;
  o: number;
}

/**
 * Gold-coloured pixels in a box of a picture (the drawn piece is gold; the face, hair and background of the
 * camera's picture are not), from a canvas or a video element found by selector.
 */
export function goldPixels(
  page: Page,
  selector: string,
  box: { x: number; y: number; w: number; h: number },
) {
  return page.evaluate(
    ({ selector, box }) => {
      const el = document.querySelector<HTMLCanvasElement | HTMLVideoElement>(selector)!;
      const c = document.createElement('canvas');
      const w = el instanceof HTMLVideoElement ? el.videoWidth : el.width;
      const h = el instanceof HTMLVideoElement ? el.videoHeight : el.height;
      c.width = w;
      c.height = h;
      const g = c.getContext('2d')!;
      g.drawImage(el, 0, 0, w, h);
      const x = Math.max(0, Math.round(box.x));
      const y = Math.max(0, Math.round(box.y));
      const d = g.getImageData(
        x,
        y,
        Math.max(1, Math.min(w - x, Math.round(box.w))),
        Math.max(1, Math.min(h - y, Math.round(box.h))),
      ).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) {
        const [r, gg, b] = [d[i]!, d[i + 1]!, d[i + 2]!];
        if (r > 150 && gg > 100 && b < 80 && r - b > 100 && gg - b > 50) n++;
      }
      return n;
    },
    { selector, box },
  );
}

async function earringsPath(page: Page): Promise<string> {
  const res = await page.request.get('/_api/products/list?category=earrings&limit=1');
  const body = (await res.json()) as { products: { id: number; name: string }[] };
  return productPath(body.products[0]!);
}

describe('virtual try-on', () => {
  it('on a phone: "Try it on" finds the face and draws the earrings at the ears', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.grantPermissions(['camera']);
    const page = await context.newPage();
    const path = await earringsPath(page);
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const button = page.getByRole('button', { name: 'Try it on' });
    await button.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Landmarks found: the model reports a face and the placements of both earrings.
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLCanvasElement>('[data-testid="try-on-canvas"]')?.dataset.status ===
        'tracking',
      undefined,
      { timeout: 45_000 },
    );
    const placed = JSON.parse(
      (await page.locator('[data-testid="try-on-canvas"]').getAttribute('data-placements'))!,
    ) as Placed[];
    expect(placed.map((p) => p.part)).toEqual(['right-ear', 'left-ear']);
    const [right, left] = placed as [Placed, Placed];
    // The face in the video is about a third of the frame wide: the ears are apart, on either side of its middle.
    expect(left.x - right.x).toBeGreaterThan(100);
    expect(right.h).toBeGreaterThan(15);
    // The piece drawn at the ear: gold pixels below the lobe in the composited picture, none in the camera's.
    const box = { x: right.x - right.w / 2, y: right.y, w: right.w, h: right.h };
    await page.waitForFunction(
      () =>
        Number(document.querySelector<HTMLCanvasElement>('[data-testid="try-on-canvas"]')?.dataset.frames) >
        5,
    );
    const drawn = await goldPixels(page, '[data-testid="try-on-canvas"]', box);
    const camera = await page.evaluate(async () => {
      const s = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 } });
      const v = document.createElement('video');
      v.id = 'raw-camera';
      v.muted = true;
      v.srcObject = s;
      document.body.appendChild(v);
      await v.play();
      return v.videoWidth;
    });
    expect(camera).toBe(640);
    const plain = await goldPixels(page, '#raw-camera', box);
    expect(drawn).toBeGreaterThan(right.w * right.h * 0.15);
    expect(plain).toBeLessThan(drawn / 10);
    // It fits a 360 px screen and reads well.
    const canvasBox = (await page.locator('[data-testid="try-on-canvas"]').boundingBox())!;
    expect(canvasBox.width).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Take photo' }).click();
    await page.getByRole('img', { name: /^Photo of you wearing/ }).waitFor();
    await page.getByRole('link', { name: 'Save photo' }).waitFor();
    await expectAccessible(page, 'try-on dialog (phone)');
    await context.close();
  }, 60_000);
});
