import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../api/contract/catalog';
import { PRODUCT_MESSAGES, TRY_ON_MESSAGES, type ProductMutationResponse } from '../../api/contract/products';
import { buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { signIn } from './checkout-support';

/** Try-on images on products (issue #36, docs/product-rules.md §16): the upload's rules and who may set them. */
let api: TestApi;
let asShop: ApiClient;
let asOtherShop: ApiClient;
let photo: string;

type Answer = ProductMutationResponse & {
  error?: string;
  code?: string;
  issues?: { path: string; message: string }[];
};

const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** A gold disc on a transparent square (an earring's stud seen from the front), as PNG or WebP. */
async function piece(
  format: 'png' | 'webp' | 'jpeg' | 'gif',
  opts: { width?: number; height?: number; fill?: string; alpha?: boolean } = {},
) {
  const width = opts.width ?? 120;
  const height = opts.height ?? 240;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    ${opts.fill ? `<rect width="${width}" height="${height}" fill="${opts.fill}"/>` : ''}
    <circle cx="${width / 2}" cy="${width / 2}" r="${width / 3}" fill="#d4a017"/>
    <rect x="${width / 2 - 4}" y="${width / 2}" width="8" height="${height / 2}" fill="#d4a017"/></svg>`;
  let img = sharp(Buffer.from(svg));
  if (opts.alpha === false) img = img.removeAlpha();
  const bytes = await (
    format === 'png'
      ? img.png()
      : format === 'webp'
        ? img.webp({ lossless: true })
        : format === 'gif'
          ? img.gif()
          : img.jpeg()
  ).toBuffer();
  return bytes;
}

const earrings = (overrides: Record<string, unknown> = {}) => ({
  name: 'Gold jhumka',
  description: 'A pair of temple jhumkas in 22K gold.',
  price: '42000',
  category: 'earrings',
  material: 'gold',
  images: [photo],
  ...overrides,
});

const create = (client: ApiClient, body: Record<string, unknown>) =>
  client.post<Answer>('/_api/products/create', body);
const update = (client: ApiClient, body: Record<string, unknown>) =>
  client.post<Answer>('/_api/products/update', body);
const tryOnMedia = async () =>
  Number((await api.db.knex('media').where('key', 'like', '%-tryon.webp').count('* as n'))[0]!.n);

beforeAll(async () => {
  api = await startTestApi();
  asShop = await signIn(api, await buildSeller(api.db.knex));
  asOtherShop = await signIn(api, await buildSeller(api.db.knex));
  photo = dataUri(
    'image/png',
    await sharp({ create: { width: 40, height: 40, channels: 3, background: '#d4af37' } })
      .png()
      .toBuffer(),
  );
});
afterAll(async () => api?.close());

describe('try-on images', () => {
  it('stores a transparent PNG with its anchor, serves it as WebP with its transparency, and shows it on the product', async () => {
    const png = await piece('png');
    const res = await create(
      asShop,
      earrings({ tryOnImage: { image: dataUri('image/png', png), anchorX: 0.5, anchorY: 0.05 } }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const tryOn = (res.body.product as Product).tryOnImage!;
    expect(tryOn).toMatchObject({ width: 120, height: 240, anchorX: 0.5, anchorY: 0.05 });
    expect(tryOn.url).toMatch(/^\/media\/[0-9a-f]{32}-tryon\.webp$/);

    const file = await fetch(api.url + tryOn.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('cache-control')).toContain('immutable');
    const stored = sharp(Buffer.from(await file.arrayBuffer()));
    const meta = await stored.metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 120, height: 240, hasAlpha: true });
    // The corner stays see-through, the stud stays gold.
    const { data, info } = await stored.raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) =>
      data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4);
    expect(at(2, 2)[3]).toBe(0);
    const [r, g, b, a] = [...at(60, 60)];
    expect([Math.abs(r! - 0xd4), Math.abs(g! - 0xa0), Math.abs(b! - 0x17)].every((d) => d <= 6)).toBe(true);
    expect(a).toBe(255);

    // The public product and the catalogue list show it.
    const shown = await api.client().get<{ product: Product }>(`/_api/products/get?id=${res.body.productId}`);
    expect(shown.body.product.tryOnImage).toEqual(tryOn);
    const listed = await api
      .client()
      .get<{ products: Product[] }>(`/_api/products/list?sellerId=${res.body.product.sellerId}&limit=50`);
    expect(listed.body.products.find((p) => p.id === res.body.productId)?.tryOnImage).toEqual(tryOn);
  });

  it('takes a WebP with transparency on an edit, keeps a stored image while its anchor moves, and removes it', async () => {
    const made = await create(asShop, earrings({ category: 'pendants', name: 'Ruby pendant' }));
    expect(made.status).toBe(201);
    expect(made.body.product.tryOnImage).toBeNull();
    const id = made.body.productId;
    const webp = await piece('webp', { width: 100, height: 150 });
    const set = await update(asShop, {
      id,
      tryOnImage: { image: dataUri('image/webp', webp), anchorX: 0.5, anchorY: 0 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const tryOn = set.body.product.tryOnImage!;
    expect(tryOn).toMatchObject({ width: 100, height: 150, anchorX: 0.5, anchorY: 0 });

    const moved = await update(asShop, {
      id,
      tryOnImage: { image: tryOn.url, anchorX: 0.25, anchorY: 0.125 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.product.tryOnImage).toEqual({ ...tryOn, anchorX: 0.25, anchorY: 0.125 });

    // Another edit that does not mention it leaves it.
    const other = await update(asShop, { id, name: 'Ruby pendant, small' });
    expect(other.body.product.tryOnImage).toEqual({ ...tryOn, anchorX: 0.25, anchorY: 0.125 });

    const removed = await update(asShop, { id, tryOnImage: null });
    expect(removed.status).toBe(200);
    expect(removed.body.product.tryOnImage).toBeNull();
    const row = await api.db.knex('products').where({ id }).first('tryon_image_url', 'tryon_anchor_x');
    expect(row).toEqual({ tryon_image_url: null, tryon_anchor_x: null });
  });

  it('refuses what is not a transparent PNG or WebP of the right size, by its content', async () => {
    const before = await tryOnMedia();
    const refuse = async (image: string, message: string, anchor = { anchorX: 0.5, anchorY: 0.05 }) => {
      const res = await create(asShop, earrings({ tryOnImage: { image, ...anchor } }));
      expect(res.status, image.slice(0, 40)).toBe(400);
      expect(res.body.error).toBe(message);
      // The form shows it at the try-on field ('tryOnImage' or one of its parts).
      expect(res.body.issues?.[0]?.path.split('.')[0]).toBe('tryOnImage');
    };
    // A JPEG that says it is a PNG, a GIF with transparency, and bytes that are no picture at all.
    await refuse(dataUri('image/png', await piece('jpeg')), TRY_ON_MESSAGES.imageInvalid);
    await refuse(dataUri('image/png', await piece('gif')), TRY_ON_MESSAGES.imageInvalid);
    await refuse(dataUri('image/png', Buffer.from('not a picture, just text')), TRY_ON_MESSAGES.imageInvalid);
    // A JPEG declared as JPEG is not even offered.
    await refuse(dataUri('image/jpeg', await piece('jpeg')), TRY_ON_MESSAGES.imageInvalid);
    // No alpha channel; an alpha channel that is opaque everywhere (a photo on a white background).
    await refuse(dataUri('image/png', await piece('png', { alpha: false })), TRY_ON_MESSAGES.notTransparent);
    await refuse(
      dataUri('image/png', await piece('png', { fill: '#ffffff' })),
      TRY_ON_MESSAGES.notTransparent,
    );
    // Nothing but transparency.
    const empty = await sharp({
      create: { width: 100, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    await refuse(dataUri('image/png', empty), TRY_ON_MESSAGES.imageInvalid);
    // Too small, too large a side, too many bytes.
    await refuse(
      dataUri('image/png', await piece('png', { width: 40, height: 60 })),
      TRY_ON_MESSAGES.imageInvalid,
    );
    await refuse(
      dataUri('image/png', await piece('png', { width: 300, height: 2100 })),
      TRY_ON_MESSAGES.imageInvalid,
    );
    const noise = Buffer.alloc(1000 * 1000 * 4);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const heavy = await sharp(noise, { raw: { width: 1000, height: 1000, channels: 4 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(heavy.length).toBeGreaterThan(2 * 1024 * 1024);
    await refuse(dataUri('image/png', heavy), TRY_ON_MESSAGES.imageInvalid);
    // The anchor must be inside the picture.
    const png = dataUri('image/png', await piece('png'));
    await refuse(png, TRY_ON_MESSAGES.anchorOutside, { anchorX: 1.2, anchorY: 0.5 });
    await refuse(png, TRY_ON_MESSAGES.anchorOutside, { anchorX: 0.5, anchorY: -0.01 });
    // Only pieces that can be tried on.
    const ring = await create(
      asShop,
      earrings({ category: 'rings', tryOnImage: { image: png, anchorX: 0.5, anchorY: 0.5 } }),
    );
    expect(ring.status).toBe(400);
    expect(ring.body.error).toBe(TRY_ON_MESSAGES.categoryCannot);
    // Nothing refused was stored.
    expect(await tryOnMedia()).toBe(before);
  });

  it('moving a piece to a category that cannot be tried on clears its try-on image', async () => {
    const made = await create(
      asShop,
      earrings({
        name: 'Stud turned ring',
        tryOnImage: {
          image: dataUri('image/png', await piece('png', { width: 100, height: 100 })),
          anchorX: 0.5,
          anchorY: 0.5,
        },
      }),
    );
    expect(made.status).toBe(201);
    const id = made.body.productId;
    expect(made.body.product.tryOnImage).not.toBeNull();

    const moved = await update(asShop, { id, category: 'rings' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.product.tryOnImage).toBeNull();
    const row = await api.db
      .knex('products')
      .where({ id })
      .first('tryon_image_url', 'tryon_width', 'tryon_height', 'tryon_anchor_x', 'tryon_anchor_y');
    expect(row).toEqual({
      tryon_image_url: null,
      tryon_width: null,
      tryon_height: null,
      tryon_anchor_x: null,
      tryon_anchor_y: null,
    });
    const shown = await api.client().get<{ product: Product }>(`/_api/products/get?id=${id}`);
    expect(shown.body.product.tryOnImage).toBeNull();

    // Moved back to earrings, it has none until the shop sets one again.
    const back = await update(asShop, { id, category: 'earrings' });
    expect(back.status).toBe(200);
    expect(back.body.product.tryOnImage).toBeNull();
    const again = await api.client().get<{ product: Product }>(`/_api/products/get?id=${id}`);
    expect(again.body.product.tryOnImage).toBeNull();
  });

  it('an edit that fails after the image was stored leaves nothing behind', async () => {
    const ring = await create(asShop, earrings({ category: 'rings', name: 'Plain band' }));
    expect(ring.status).toBe(201);
    const before = await tryOnMedia();
    const res = await update(asShop, {
      id: ring.body.productId,
      tryOnImage: {
        image: dataUri('image/png', await piece('png', { width: 90, height: 90 })),
        anchorX: 0.5,
        anchorY: 0.5,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(TRY_ON_MESSAGES.categoryCannot);
    expect(await tryOnMedia()).toBe(before);
  });

  it('only the shop that sells the piece sets or removes its try-on image', async () => {
    const mine = await create(
      asShop,
      earrings({
        name: 'Nose pin flower',
        category: 'nose_pins',
        tryOnImage: {
          image: dataUri('image/png', await piece('png', { width: 80, height: 80 })),
          anchorX: 0.5,
          anchorY: 0.5,
        },
      }),
    );
    expect(mine.status).toBe(201);
    const id = mine.body.productId;
    const tryOn = mine.body.product.tryOnImage!;
    const other = dataUri('image/png', await piece('png', { width: 90, height: 90 }));

    // Another seller: neither sets, moves nor removes it (the product looks absent to them).
    for (const tryOnImage of [
      { image: other, anchorX: 0.5, anchorY: 0.5 },
      { image: tryOn.url, anchorX: 0, anchorY: 0 },
      null,
    ]) {
      const res = await update(asOtherShop, { id, tryOnImage });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(PRODUCT_MESSAGES.productNotFound);
    }
    // A customer is refused by role; a visitor must sign in.
    const customer = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    expect((await update(customer, { id, tryOnImage: null })).status).toBe(403);
    expect((await update(api.client(), { id, tryOnImage: null })).status).toBe(401);
    const shown = await api.client().get<{ product: Product }>(`/_api/products/get?id=${id}`);
    expect(shown.body.product.tryOnImage).toEqual(tryOn);

    // Nor can another seller borrow this shop's stored image for their own piece.
    const theirs = await create(asOtherShop, earrings({ name: 'Borrowed stud' }));
    expect(theirs.status).toBe(201);
    const borrow = await update(asOtherShop, {
      id: theirs.body.productId,
      tryOnImage: { image: tryOn.url, anchorX: 0.5, anchorY: 0.5 },
    });
    expect(borrow.status).toBe(400);
    expect(borrow.body.error).toBe(TRY_ON_MESSAGES.imageInvalid);
    const borrowOnCreate = await create(
      asOtherShop,
      earrings({ tryOnImage: { image: tryOn.url, anchorX: 0.5, anchorY: 0.5 } }),
    );
    expect(borrowOnCreate.status).toBe(400);

    // The owner removes it.
    const removed = await update(asShop, { id, tryOnImage: null });
    expect(removed.status).toBe(200);
    expect(removed.body.product.tryOnImage).toBeNull();
  });
});
