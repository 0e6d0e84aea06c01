import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_IMAGE_MESSAGE, mediaSrcSets } from '../../api/contract/media';
import { AppError } from '../../api/src/http/errors';
import { ingestImage } from '../../api/src/features/media/service';
import { startTestApi, type TestApi } from '../support/api';

let api: TestApi;
let server: http.Server;
let origin: string;
let jpeg: Buffer;
let png: Buffer;

const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100" fill="gold"/></svg>',
);

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A valid tiny PNG whose header claims 30000×30000 pixels: a decompression bomb in miniature. */
async function hugeDimensionPng(): Promise<Buffer> {
  const small = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#d4af37' } })
    .png()
    .toBuffer();
  const out = Buffer.from(small);
  // IHDR data starts at byte 16: width, height (big-endian), then its CRC covers type + data (bytes 12..29).
  out.writeUInt32BE(30000, 16);
  out.writeUInt32BE(30000, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

async function expectRefused(p: Promise<unknown>, message = INVALID_IMAGE_MESSAGE) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(400);
  expect((err as AppError).message).toBe(message);
  return err as AppError;
}

beforeAll(async () => {
  api = await startTestApi();
  // 800×600 landscape JPEG with an EXIF orientation of 6 (rotate 90°): the stored card must be portrait.
  jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#b76e79' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  png = await sharp({ create: { width: 1000, height: 500, channels: 4, background: '#d4af37' } })
    .png()
    .toBuffer();
  server = http.createServer((req, res) => {
    if (req.url === '/piece.jpg') {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      return res.end(jpeg);
    }
    if (req.url === '/evil.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end(SVG_WITH_SCRIPT);
    }
    if (req.url?.startsWith('/hop/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(302, { Location: n <= 1 ? '/piece.jpg' : `/hop/${n - 1}` });
      return res.end();
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await api?.close();
});

describe('ingestImage', () => {
  it('stores a PNG data URI as WebP card and detail renditions served at /media', async () => {
    const stored = await ingestImage(api.db.knex, `data:image/png;base64,${png.toString('base64')}`);
    expect(stored.cardUrl).toBe(`/media/${stored.key}-card.webp`);
    expect(stored.detailUrl).toBe(`/media/${stored.key}-detail.webp`);
    expect([stored.width, stored.height]).toEqual([480, 240]);

    const card = await fetch(api.url + stored.cardUrl);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/webp');
    const cardMeta = await sharp(Buffer.from(await card.arrayBuffer())).metadata();
    expect([cardMeta.format, cardMeta.width, cardMeta.height]).toEqual(['webp', 480, 240]);

    const detail = await fetch(api.url + stored.detailUrl);
    const detailMeta = await sharp(Buffer.from(await detail.arrayBuffer())).metadata();
    expect([detailMeta.width, detailMeta.height]).toEqual([1000, 500]); // never enlarged

    // The blurred preview: a WebP of at most 16 px inline, small enough to ride in every product answer.
    const [, base64] = /^data:image\/webp;base64,([A-Za-z0-9+/=]+)$/.exec(stored.placeholder)!;
    const preview = await sharp(Buffer.from(base64!, 'base64')).metadata();
    expect([preview.format, preview.width, preview.height]).toEqual(['webp', 16, 8]);
    expect(stored.placeholder.length).toBeLessThan(400);
  });

  it('gives an image stored before previews existed its preview when it is stored again', async () => {
    const image = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#2e7d32' } })
      .png()
      .toBuffer();
    const first = await ingestImage(api.db.knex, image);
    await api.db
      .knex('media')
      .where({ key: `${first.key}-placeholder.webp` })
      .delete();
    const again = await ingestImage(api.db.knex, image);
    expect(again.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(
      await api.db
        .knex('media')
        .where({ key: `${first.key}-placeholder.webp` })
        .first(),
    ).toBeTruthy();
  });

  it('fetches a JPEG over http(s), follows redirects, auto-orients and strips metadata', async () => {
    const stored = await ingestImage(api.db.knex, `${origin}/hop/3`, { allowPrivateUrls: true });
    expect([stored.width, stored.height]).toEqual([360, 480]);
    const res = await fetch(api.url + stored.detailUrl);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([600, 800]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('refuses more than 3 redirects', async () => {
    await expectRefused(
      ingestImage(api.db.knex, `${origin}/hop/5`, { allowPrivateUrls: true }),
      'The image URL redirected too many times.',
    );
  });

  it('deduplicates: the same image twice gives the same keys and no new rows', async () => {
    const count = async () => Number((await api.db.knex('media').count('* as n'))[0].n);
    const first = await ingestImage(api.db.knex, png);
    const before = await count();
    const again = await ingestImage(api.db.knex, `data:image/png;base64,${png.toString('base64')}`);
    expect(again).toEqual(first);
    expect(await count()).toBe(before);
  });

  it('refuses an SVG carrying a script, even declared as PNG', async () => {
    await expectRefused(ingestImage(api.db.knex, SVG_WITH_SCRIPT));
    await expectRefused(
      ingestImage(api.db.knex, `data:image/png;base64,${SVG_WITH_SCRIPT.toString('base64')}`),
    );
    await expectRefused(
      ingestImage(api.db.knex, `data:image/svg+xml;base64,${SVG_WITH_SCRIPT.toString('base64')}`),
    );
    await expectRefused(ingestImage(api.db.knex, `${origin}/evil.png`, { allowPrivateUrls: true }));
  });

  it('refuses non-image bytes with an image name and a truncated image', async () => {
    const text = Buffer.from('MZ this is not an image at all, just bytes pretending to be one.png');
    await expectRefused(ingestImage(api.db.knex, `data:image/png;base64,${text.toString('base64')}`));
    await expectRefused(ingestImage(api.db.knex, png.subarray(0, 40)));
    await expectRefused(ingestImage(api.db.knex, 'ftp://example.com/a.png'));
  });

  it('refuses a PNG that claims huge dimensions before decoding it', async () => {
    const bomb = await hugeDimensionPng();
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([meta.width, meta.height]).toEqual([30000, 30000]);
    await expectRefused(ingestImage(api.db.knex, bomb), 'The image dimensions are too large.');
  });

  it('refuses loopback and private URLs unless allowed', async () => {
    const refused = 'The image URL points to a private network address.';
    await expectRefused(ingestImage(api.db.knex, `${origin}/piece.jpg`), refused);
    await expectRefused(ingestImage(api.db.knex, 'http://localhost:9/piece.jpg'), refused);
    await expectRefused(ingestImage(api.db.knex, 'http://[::1]:9/piece.jpg'), refused);
    await expectRefused(ingestImage(api.db.knex, 'http://169.254.169.254/latest/meta-data.png'), refused);
    await expectRefused(ingestImage(api.db.knex, 'http://10.1.2.3/a.png'), refused);
  });
});

describe('GET /media/:key', () => {
  it('serves with immutable caching, an ETag, 304 on If-None-Match and a locked-down CSP', async () => {
    const stored = await ingestImage(api.db.knex, png);
    const res = await fetch(api.url + stored.cardUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();

    const again = await fetch(api.url + stored.cardUrl, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
  });

  it('derives the srcset widths on first request, in WebP and AVIF, stores them and refuses other widths', async () => {
    const stored = await ingestImage(api.db.knex, png); // 1000×500
    const sets = mediaSrcSets(stored.cardUrl, 720)!;
    expect(sets.webp.split(', ')).toEqual(
      [240, 360, 480, 720].map((w) => `/media/${stored.key}-w${w}.webp ${w}w`),
    );
    expect(sets.avif).toContain(`/media/${stored.key}-w360.avif 360w`);
    expect(mediaSrcSets('https://example.com/a.webp')).toBeNull();

    const stock = async (key: string) => api.db.knex('media').where({ key }).first();
    expect(await stock(`${stored.key}-w360.webp`)).toBeUndefined();
    const webp = await fetch(`${api.url}/media/${stored.key}-w360.webp`);
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webp.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const webpMeta = await sharp(Buffer.from(await webp.arrayBuffer())).metadata();
    expect([webpMeta.format, webpMeta.width, webpMeta.height]).toEqual(['webp', 360, 180]);
    expect(await stock(`${stored.key}-w360.webp`)).toBeTruthy(); // made once, then served from the table

    const avif = await fetch(`${api.url}/media/${stored.key}-w240.avif`);
    expect(avif.headers.get('content-type')).toBe('image/avif');
    const avifMeta = await sharp(Buffer.from(await avif.arrayBuffer())).metadata();
    expect([avifMeta.format, avifMeta.compression, avifMeta.width]).toEqual(['heif', 'av1', 240]);

    // Never enlarged: the 1200 width of a 1000 px image is the image itself.
    const wide = await fetch(`${api.url}/media/${stored.key}-w1200.webp`);
    expect((await sharp(Buffer.from(await wide.arrayBuffer())).metadata()).width).toBe(1000);

    // Only the listed widths, and only of stored images.
    for (const key of [`${stored.key}-w361.webp`, `${stored.key}-w360.png`, `${'0'.repeat(32)}-w360.webp`]) {
      const res = await fetch(`${api.url}/media/${key}`);
      expect(res.status, key).toBe(404);
      expect(await stock(key)).toBeUndefined();
    }
  });

  it('answers 404 for an unknown key', async () => {
    const res = await fetch(`${api.url}/media/0000000000000000deadbeef-card.webp`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const bad = await fetch(`${api.url}/media/..%2Fetc%2Fpasswd`);
    expect(bad.status).toBe(404);
  });
});
