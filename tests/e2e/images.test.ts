import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_WIDTHS } from '../../api/contract/media';
import { launchBrowser, newContext } from './support/browser';

/**
 * Images for slow links (docs/product-rules.md "Images"): a phone downloads the width it shows, in AVIF, the
 * boxes never shift, images below the fold wait, and a blurred preview shows while each loads.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const STORE = '/lakshmi-jewellers';

describe('product images', () => {
  it('a 360 px phone gets the AVIF width each card shows, with its size, lazy below the fold and a preview', async () => {
    const context = await newContext(browser, { mobile: true });
    const page = await context.newPage();

    // What the server sends, before any script: sources, sizes and the preview are in the HTML.
    const html = await (await page.request.get(STORE)).text();
    expect(html).toMatch(/<source type="image\/avif" srcSet="\/media\/[0-9a-f]{32}-w240\.avif 240w, /i);
    expect(html).toMatch(/background-image:url\(&quot;data:image\/webp;base64,/);

    const media: { url: string; bytes: number }[] = [];
    page.on('response', (res) => {
      if (!res.url().includes('/media/')) return;
      void res
        .body()
        .then((b) => media.push({ url: new URL(res.url()).pathname, bytes: b.length }))
        .catch(() => undefined);
    });
    await page.goto(STORE);
    const first = page.locator('main article img').first();
    await first.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('main article img');
      return !!img?.complete && img.naturalWidth > 0;
    });
    const cards = await page.locator('main article img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((img) => ({
        current: img.currentSrc,
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        loading: img.loading,
        top: img.getBoundingClientRect().top,
      })),
    );
    expect(cards.length).toBeGreaterThan(4);
    // Two columns of half the screen (sizes 50vw): the smallest derived width that covers 180 CSS px at this
    // screen's density, in AVIF.
    const dpr = await page.evaluate(() => window.devicePixelRatio);
    const want = MEDIA_WIDTHS.find((w) => w >= 180 * dpr)!;
    expect(cards[0]!.current).toMatch(new RegExp(`/media/[0-9a-f]{32}-w${want}\\.avif$`));
    for (const c of cards) {
      expect(Number(c.width)).toBeGreaterThan(0);
      expect(Number(c.height)).toBeGreaterThan(0);
    }
    // Cards beyond the first screen load lazily.
    const below = cards.filter((c) => c.top > 740);
    expect(below.length).toBeGreaterThan(0);
    for (const c of below) expect(c.loading).toBe('lazy');

    // Once loaded (and the app running), the preview is gone: a transparent image never shows it behind itself.
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.style.backgroundImage)).toBe('');

    // The phone fetched derived widths only, never the 480 px card rendition the grid used before, and the
    // first card's file is the width it shows (or the image itself, when that is narrower).
    const fetched = media.filter((m) => /-w\d+\.avif$/.test(m.url));
    expect(fetched.length).toBeGreaterThan(0);
    expect(media.some((m) => m.url.endsWith('-card.webp'))).toBe(false);
    const natural = await first.evaluate((img: HTMLImageElement) => img.naturalWidth);
    expect(natural).toBeLessThanOrEqual(want);
    const firstBytes = fetched.find((m) => cards[0]!.current.endsWith(m.url))?.bytes;
    const card = await page.request.get(cards[0]!.current.replace(/-w\d+\.avif$/, '-card.webp'));
    console.log(
      `first card: ${firstBytes} B as ${want} px AVIF against ${(await card.body()).length} B for the 480 px WebP card`,
    );
    await context.close();
  });
});
