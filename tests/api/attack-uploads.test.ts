import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_BODY_PATHS } from '../../api/src/app';
import { startTestApi, type TestApi } from '../support/api';
import { apiEndpoints, newSession, rawRequest, roleUsers, type Endpoint } from './attack-support';

/**
 * Oversized bodies are refused with 413 on every POST endpoint (the image upload endpoints have a larger,
 * still bounded limit), and hostile images sent to product creation are refused with the invalid-image
 * message and store nothing.
 */

let api: TestApi;
let posts: Endpoint[];
let sellerCookie: string;
let imageServer: http.Server;
let imageOrigin: string;
let goodPng: string;

const TOO_LARGE = { error: 'The request is too large.', code: 'payload_too_large' };
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" onload="alert(1)"><script>alert(document.cookie)</script><rect width="64" height="64" fill="gold"/></svg>',
);

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real, tiny PNG whose IHDR claims 50000×50000 pixels (2.5 gigapixels): a decompression bomb. */
async function hugeDimensionPng(): Promise<Buffer> {
  const out = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#d4af37' } })
      .png()
      .toBuffer(),
  );
  out.writeUInt32BE(50000, 16);
  out.writeUInt32BE(50000, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

beforeAll(async () => {
  api = await startTestApi({ config: { mediaAllowPrivateUrls: true } });
  posts = apiEndpoints(api).filter((e) => e.method === 'POST');
  const users = await roleUsers(api);
  sellerCookie = `nagai_session=${await newSession(api, users.seller.id)}`;
  goodPng = `data:image/png;base64,${(
    await sharp({ create: { width: 32, height: 32, channels: 3, background: '#d4af37' } })
      .png()
      .toBuffer()
  ).toString('base64')}`;
  // Serves files whose names say "image" and whose bytes are not.
  imageServer = http.createServer((req, res) => {
    const bodies: Record<string, [string, Buffer]> = {
      '/ring.png': ['image/png', SVG],
      '/ring.jpg': ['image/jpeg', Buffer.from('<html><script>alert(1)</script></html>')],
      '/ring.gif': ['image/gif', Buffer.from('#!/bin/sh\necho owned\n')],
      '/ring.webp': ['image/webp', Buffer.from('%PDF-1.4 not an image')],
    };
    const hit = req.url ? bodies[req.url] : undefined;
    if (!hit) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': hit[0] });
    res.end(hit[1]);
  });
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
  imageOrigin = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (imageServer ? imageServer.close(() => resolve()) : resolve()));
  await api?.close();
});

const post = (path: string, body: string | Buffer, extra: Record<string, string> = {}) =>
  rawRequest(
    api.url,
    'POST',
    path,
    { Origin: api.url, 'Content-Type': 'application/json', Cookie: sellerCookie, ...extra },
    body,
    60_000,
  );

/** Valid JSON of about `bytes` bytes. */
const jsonOfSize = (bytes: number) => Buffer.from(`{"name":"${'a'.repeat(bytes)}"}`);

describe('oversized bodies', () => {
  it('every small-limit POST endpoint answers a 200 kB JSON body with 413', async () => {
    const small = posts.filter((e) => !LARGE_BODY_PATHS.has(e.path));
    expect(small.length).toBeGreaterThan(20);
    const body = jsonOfSize(200 * 1024);
    const wrong: string[] = [];
    for (const ep of small) {
      const r = await post(ep.path, body);
      if (r.status !== 413 || JSON.stringify(r.json) !== JSON.stringify(TOO_LARGE))
        wrong.push(`${ep.path}: ${r.status} ${r.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the image upload endpoints refuse a 30 MB body with 413 but read a 2 MB one', async () => {
    for (const path of LARGE_BODY_PATHS) {
      const huge = await post(path, jsonOfSize(30 * 1024 * 1024));
      expect(huge.status, path).toBe(413);
      expect(huge.json).toEqual(TOO_LARGE);
      // Within the limit the body is read and validated (400), not refused for its size.
      const fine = await post(path, jsonOfSize(2 * 1024 * 1024));
      expect(fine.status, path).toBe(400);
      expect((fine.json as { code: string }).code).not.toBe('payload_too_large');
    }
  });

  it('a body streamed without Content-Length (chunked) is counted as it comes and refused at the limit', async () => {
    const body = jsonOfSize(200 * 1024);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(api.url + '/_api/cart/add', {
        method: 'POST',
        agent: false,
        headers: { Origin: api.url, 'Content-Type': 'application/json', Cookie: sellerCookie },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // Streamed without a Content-Length (chunked): the parser counts the bytes as they come.
      for (let i = 0; i < body.length; i += 16 * 1024) req.write(body.subarray(i, i + 16 * 1024));
      req.end();
    });
    expect(chunked).toBe(413);
  });
});

describe('hostile images on product creation', () => {
  const product = (images: string[]) =>
    JSON.stringify({
      name: 'Temple Lakshmi Necklace',
      description: 'Antique finish temple necklace with ruby stones.',
      price: '125000.50',
      category: 'necklaces',
      material: 'gold',
      images,
    });
  const stored = async () => {
    const [p] = (await api.db.knex('products').count({ n: '*' })) as { n: unknown }[];
    const [m] = (await api.db.knex('media').count({ n: '*' })) as { n: unknown }[];
    return { products: Number(p.n), media: Number(m.n) };
  };

  it('refuses SVG with script, SVG bytes labelled PNG, a 50000×50000 PNG and non-images named like images', async () => {
    const before = await stored();
    const cases: [string, string][] = [
      ['svg data uri', `data:image/svg+xml;base64,${SVG.toString('base64')}`],
      ['svg bytes as data:image/png', `data:image/png;base64,${SVG.toString('base64')}`],
      ['svg bytes as data:image/jpeg', `data:image/jpeg;base64,${SVG.toString('base64')}`],
      ['huge-dimension png', `data:image/png;base64,${(await hugeDimensionPng()).toString('base64')}`],
      [
        'png header then html',
        `data:image/png;base64,${Buffer.concat([Buffer.from(goodPng.split(',')[1], 'base64').subarray(0, 16), Buffer.from('<html><script>alert(1)</script>')]).toString('base64')}`,
      ],
      ['svg served as .png', `${imageOrigin}/ring.png`],
      ['html served as .jpg', `${imageOrigin}/ring.jpg`],
      ['script served as .gif', `${imageOrigin}/ring.gif`],
      ['pdf served as .webp', `${imageOrigin}/ring.webp`],
      ['javascript: url', 'javascript:alert(1)//x.png'],
      ['file: url', 'file:///etc/passwd.png'],
    ];
    const mediaKeys = async () => ((await api.db.knex('media').pluck('key')) as string[]).sort();
    const keysBefore = await mediaKeys();
    const refuse = async (label: string, images: string[]) => {
      const r = await post('/_api/products/create', product(images));
      expect(r.status, `${label}: ${r.text}`).toBe(400);
      // A decompression bomb gets its own, clearer message; everything else is not an image at all.
      const message = label.startsWith('huge')
        ? /^The image dimensions are too large\.$/
        : /^Invalid image format\./;
      expect((r.json as { error: string }).error, label).toMatch(message);
    };
    for (const [label, image] of cases) await refuse(label, [image]);
    // Nothing at all is stored for a hostile image: no product, no image row, no media bytes.
    expect(await stored()).toEqual(before);
    expect(await mediaKeys()).toEqual(keysBefore);

    // After a good image, one bad image still refuses the whole product, and the good image's renditions,
    // stored before the bad one was read, are removed again: a refused upload leaves nothing behind.
    for (const [label, image] of cases) await refuse(label, [goodPng, image]);
    expect((await stored()).products).toBe(before.products);
    expect(await mediaKeys()).toEqual(keysBefore);
  }, 120_000);

  it('accepts a real PNG (the refusals above are about the images, not the request)', async () => {
    const before = await stored();
    const r = await post('/_api/products/create', product([goodPng]));
    expect(r.status, r.text).toBe(201);
    expect((await stored()).products).toBe(before.products + 1);
    const images = (await api.db
      .knex('product_images')
      .where({ product_id: (r.json as { productId: number }).productId })
      .select('card_url')) as { card_url: string }[];
    expect(images).toHaveLength(1);
    const served = await rawRequest(api.url, 'GET', images[0].card_url, {});
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
  });
});
