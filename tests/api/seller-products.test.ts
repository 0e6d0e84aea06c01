import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductMutationResponse } from '../../api/contract/products';
import { buildProduct, buildSeller, buildUser, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
let imageServer: http.Server;
let imageBase: string;
let png: Buffer;
let pngUri: string;
let otherPngUri: string;
let jpeg: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 212, g: 175, b: 55 } } })
    .png()
    .toBuffer();
  pngUri = `data:image/png;base64,${png.toString('base64')}`;
  const other = await sharp({
    create: { width: 40, height: 40, channels: 3, background: { r: 10, g: 90, b: 200 } },
  })
    .png()
    .toBuffer();
  otherPngUri = `data:image/png;base64,${other.toString('base64')}`;
  jpeg = await sharp({
    create: { width: 900, height: 1400, channels: 3, background: { r: 180, g: 20, b: 60 } },
  })
    .jpeg()
    .toBuffer();
  // A local image host: product images given by URL are fetched and stored by the server.
  imageServer = http.createServer((req, res) => {
    if (req.url === '/images/Ring.JPG') {
      res.writeHead(200, { 'Content-Type': 'image/jpeg' });
      res.end(jpeg);
    } else if (req.url === '/images/fake.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end('this is not an image');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
  api = await startTestApi({ config: { mediaAllowPrivateUrls: true } });
});
afterAll(async () => {
  await api?.close();
  await new Promise((resolve) => imageServer?.close(resolve));
});

/** A client signed in as the user through a session row (the login route is another area's subject). */
async function signIn(user: { id: number }): Promise<ApiClient> {
  const token = crypto.randomBytes(32).toString('base64url');
  await api.db.knex('sessions').insert({
    id: crypto.createHash('sha256').update(token).digest('base64url'),
    user_id: user.id,
    expires_at: new Date(Date.now() + 86_400_000),
  });
  const client = api.client();
  client.cookies.set('nagai_session', token);
  return client;
}

const ACCESS = (role: string) => `Access denied. Your role (${role}) lacks required permissions.`;
const INVALID_FORMAT =
  'Invalid image format. Use a PNG, JPEG, WebP or GIF image, or an http(s) URL ending in .png, .jpg, .jpeg, .webp or .gif.';

const product = (overrides: Record<string, unknown> = {}) => ({
  name: 'Temple Lakshmi Necklace',
  description: 'Antique finish temple necklace with ruby stones.',
  price: '125000.50',
  category: 'necklaces',
  material: 'gold',
  images: [pngUri],
  ...overrides,
});

type CreateBody = ProductMutationResponse & { error?: string; code?: string };

async function sellerClient(overrides: Parameters<typeof buildSeller>[1] = {}) {
  const seller = await buildSeller(api.db.knex, overrides);
  return { seller, client: await signIn(seller) };
}

const imagesOf = (productId: number) =>
  api.db.knex('product_images').where({ product_id: productId }).orderBy('position');

describe('POST /_api/products/create', () => {
  it('stores every field and an uploaded PNG as WebP renditions', async () => {
    const { seller, client } = await sellerClient({ isApproved: null });
    const res = await client.post<CreateBody>(
      '/_api/products/create',
      product({
        stockQuantity: 4,
        sku: 'TLN-001',
        width: 120.5,
        height: '45',
        size: 'Adjustable',
        purity: '22K',
        weight: '38.125',
        diamondsTotalCount: 0,
        diamondsType: 'None',
        diamondsTotalWeight: '0.25',
        gemstoneTotalCount: 12,
        gemstoneType: 'Ruby',
        makingCharges: '8500',
        stoneCharges: 0,
        discountAmount: '1000.00',
        gstAmount: '3640.79',
        sizeAvailable: ['16 in', '18 in', '16 in'],
        isCustomMade: true,
        // Gold of 2 g or more carries its hallmark ID (issue #25, docs/product-rules.md §10).
        huid: 'TLN001',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, productId: expect.any(Number) });
    expect(res.body.product).toMatchObject({
      id: res.body.productId,
      sellerId: seller.id,
      name: 'Temple Lakshmi Necklace',
      price: '125000.50',
      stockQuantity: 4,
      width: 120.5,
      weight: 38.125,
      gemstoneTotalCount: 12,
      makingCharges: '8500.00',
      stoneCharges: '0.00',
      // The GST inside the price, as the invoice computes it (#40); a figure that disagrees is refused (#49).
      gstAmount: '3640.79',
      sizeAvailable: ['16 in', '18 in'],
      isCustomMade: true,
      shopName: seller.shopName,
      urlSlug: seller.urlSlug,
    });
    expect(res.body.product.images).toHaveLength(1);
    expect(res.body.product.imageUrl).toBe(res.body.product.images[0].cardUrl);
    // Its blurred preview rides along, for the grid to show while the image loads.
    expect(res.body.product.images[0].placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
    const row = await api.db
      .knex('products')
      .where({ id: res.body.productId })
      .first(
        '*',
        api.db.knex.raw('price::text as price_text'),
        api.db.knex.raw('gst_amount::text as gst_text'),
        api.db.knex.raw('weight_g::text as weight_text'),
      );
    expect(row).toMatchObject({
      seller_id: seller.id,
      name: 'Temple Lakshmi Necklace',
      description: 'Antique finish temple necklace with ruby stones.',
      price_text: '125000.50',
      category: 'necklaces',
      material: 'gold',
      stock_quantity: 4,
      sku: 'TLN-001',
      size: 'Adjustable',
      purity: '22K',
      weight_text: '38.125',
      diamonds_total_count: 0,
      diamonds_type: 'None',
      gemstone_total_count: 12,
      gemstone_type: 'Ruby',
      gst_text: '3640.79',
      is_custom_made: true,
      deleted_at: null,
    });
    expect(Number(row.width_mm)).toBe(120.5);
    expect(Number(row.height_mm)).toBe(45);
    expect(Number(row.making_charges)).toBe(8500);
    expect(Number(row.stone_charges)).toBe(0);
    expect(Number(row.discount_amount)).toBe(1000);
    expect(Number(row.diamonds_total_weight)).toBe(0.25);
    const sizes: unknown =
      typeof row.size_available === 'string' ? JSON.parse(row.size_available) : row.size_available;
    expect(sizes).toEqual(['16 in', '18 in']);

    const images = await imagesOf(res.body.productId);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ position: 0, source_url: null, width: 64, height: 48 });
    expect(images[0].card_url).toMatch(/^\/media\/[a-f0-9]+-card\.webp$/);
    expect(images[0].detail_url).toMatch(/^\/media\/[a-f0-9]+-detail\.webp$/);
    const media = await api.client().get(images[0].detail_url);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/webp');
  });

  it('fetches an http image URL (extension case-insensitive), keeps order, ignores duplicates', async () => {
    const { client } = await sellerClient();
    const url = `${imageBase}/images/Ring.JPG`;
    const res = await client.post<CreateBody>(
      '/_api/products/create',
      product({ images: [url, pngUri, url, ` ${pngUri} `] }),
    );
    expect(res.status).toBe(201);
    const images = await imagesOf(res.body.productId);
    expect(images.map((i) => i.position)).toEqual([0, 1]);
    expect(images[0].source_url).toBe(url);
    // The cover is the URL image: 900×1400 fits inside the 480×480 card bounds.
    expect(images[0]).toMatchObject({ width: Math.round((900 * 480) / 1400), height: 480 });
    expect(images[1].source_url).toBeNull();
    const media = await api.db
      .knex('media')
      .where({ key: images[0].card_url.replace('/media/', '') })
      .first('content_type');
    expect(media.content_type).toBe('image/webp');
  });

  it('defaults stock to 1 and custom made to false', async () => {
    const { client } = await sellerClient();
    const res = await client.post<CreateBody>(
      '/_api/products/create',
      product({ name: 'Plain Band', price: 999 }),
    );
    expect(res.status).toBe(201);
    const row = await api.db.knex('products').where({ id: res.body.productId }).first();
    expect(row).toMatchObject({ stock_quantity: 1, is_custom_made: false, sku: null, weight_g: null });
  });

  it.each([
    [{ name: 'Ri' }, 'Product name must be at least 3 characters long.'],
    [{ name: undefined }, 'Product name must be at least 3 characters long.'],
    [{ description: 'Too short' }, 'Description must be at least 10 characters long.'],
    [{ price: 0 }, 'Price must be a positive amount.'],
    [{ price: '-5' }, 'Price must be a positive amount.'],
    [{ price: 'abc' }, 'Price must be a positive amount.'],
    [{ price: '10.555' }, 'Price must be a positive amount.'],
    [{ category: 'crowns' }, 'Please choose a category from the list.'],
    [{ material: 'wood' }, 'Please choose a material from the list.'],
    [{ images: [] }, 'At least one image is required.'],
    [{ images: undefined }, 'At least one image is required.'],
    [{ images: ['ftp://example.com/a.png'] }, INVALID_FORMAT],
    [{ images: ['https://example.com/a.bmp'] }, INVALID_FORMAT],
    [{ images: ['https://example.com/a.png?x=1#y'].map((u) => u.replace('.png', '')) }, INVALID_FORMAT],
    [{ images: ['data:image/svg+xml;base64,PHN2Zz48L3N2Zz4='] }, INVALID_FORMAT],
    [{ images: ['/media/abc-detail.webp'] }, INVALID_FORMAT],
    [{ images: ['not a url'] }, INVALID_FORMAT],
    [{ stockQuantity: -1 }, 'Stock quantity cannot be negative.'],
    [{ stockQuantity: 1.5 }, 'Stock quantity must be a whole number.'],
    [{ weight: 0 }, 'Weight must be a positive number.'],
    [{ width: -3 }, 'Width must be a positive number.'],
    [{ height: 0 }, 'Height must be a positive number.'],
    [{ makingCharges: -1 }, 'Making charges cannot be negative.'],
    [{ stoneCharges: '-0.01' }, 'Stone charges cannot be negative.'],
    [{ discountAmount: -10 }, 'Discount amount cannot be negative.'],
    [{ gstAmount: -1 }, 'GST amount cannot be negative.'],
    [{ diamondsTotalCount: -1 }, 'Diamond count must be a whole number of at least 0.'],
    [{ diamondsTotalWeight: 0 }, 'Diamond weight must be a positive number.'],
    [{ gemstoneTotalCount: 0 }, 'Gemstone count must be at least 1.'],
    [{ isCustomMade: 'yes' }, 'Custom made must be true or false.'],
    [{ sellerId: 1 }, 'Unknown fields are not allowed.'],
  ])('refuses %j', async (override, message) => {
    const { seller, client } = await sellerClient();
    const res = await client.post('/_api/products/create', product(override));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message });
    expect(await api.db.knex('products').where({ seller_id: seller.id }).first()).toBeUndefined();
  });

  it('refuses data that is not really an image, by upload or by URL', async () => {
    const { seller, client } = await sellerClient();
    const fake = `data:image/png;base64,${Buffer.from('not a png at all').toString('base64')}`;
    for (const images of [[fake], [`${imageBase}/images/fake.png`]]) {
      const res = await client.post('/_api/products/create', product({ images }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Invalid image format. Use a PNG, JPEG, WebP or GIF image.' });
    }
    const missing = await client.post(
      '/_api/products/create',
      product({ images: [`${imageBase}/nothing.png`] }),
    );
    expect(missing.status).toBe(400);
    expect(await api.db.knex('products').where({ seller_id: seller.id }).first()).toBeUndefined();
  });

  it('needs a seller with a shop profile (any approval state) or an admin with one', async () => {
    for (const isApproved of [null, false]) {
      const { client } = await sellerClient({ isApproved });
      expect((await client.post('/_api/products/create', product())).status).toBe(201);
    }
    for (const role of ['seller', 'admin'] as const) {
      const client = await signIn(await buildUser(api.db.knex, { role }));
      const res = await client.post('/_api/products/create', product());
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        error: 'Please set up your shop profile before adding products.',
        code: 'seller_profile_required',
      });
    }
    const customer = await signIn(await buildUser(api.db.knex, { role: 'customer' }));
    const c = await customer.post('/_api/products/create', product());
    expect(c.status).toBe(403);
    expect(c.body).toMatchObject({ error: ACCESS('customer') });
    expect((await api.client().post('/_api/products/create', product())).status).toBe(401);
  });
});

describe('POST /_api/products/update', () => {
  async function sellerWithProduct(): Promise<{ seller: BuiltSeller; client: ApiClient; id: number }> {
    const { seller, client } = await sellerClient();
    const res = await client.post<CreateBody>('/_api/products/create', product({ images: [pngUri] }));
    return { seller, client, id: res.body.productId };
  }

  it('changes only the given fields; null clears an optional field', async () => {
    const { client, id } = await sellerWithProduct();
    await client.post('/_api/products/update', { id, sku: 'OLD-1', purity: '18K' });
    const res = await client.post('/_api/products/update', {
      id,
      name: 'Renamed Necklace',
      price: '99999.99',
      stockQuantity: 0,
      sku: null,
      isCustomMade: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, productId: id });
    const row = await api.db
      .knex('products')
      .where({ id })
      .first('*', api.db.knex.raw('price::text as price_text'));
    expect(row).toMatchObject({
      name: 'Renamed Necklace',
      price_text: '99999.99',
      stock_quantity: 0,
      sku: null,
      purity: '18K',
      is_custom_made: true,
      description: 'Antique finish temple necklace with ruby stones.',
      category: 'necklaces',
    });
    expect(await imagesOf(id)).toHaveLength(1);
  });

  it('replaces, reorders and removes images in the given order, keeping stored ones', async () => {
    const { client, id } = await sellerWithProduct();
    const url = `${imageBase}/images/Ring.JPG`;
    await client.post('/_api/products/update', { id, images: [pngUri, url, otherPngUri] });
    const [a, b, c] = await imagesOf(id);
    expect([a, b, c].map((i) => i.position)).toEqual([0, 1, 2]);

    // Reorder with the paths the API returns, an absolute URL of one, and the original source URL of another.
    const reorder = await client.post('/_api/products/update', {
      id,
      images: [c.detail_url, `${api.url}${a.card_url}`, url],
    });
    expect(reorder.status).toBe(200);
    const after = await imagesOf(id);
    expect((reorder.body as unknown as CreateBody).product.images.map((i) => i.url)).toEqual(
      after.map((i) => i.detail_url),
    );
    expect((reorder.body as unknown as CreateBody).product.imageUrl).toBe(c.card_url);
    expect(after.map((i) => i.media_key)).toEqual([c.media_key, a.media_key, b.media_key]);
    expect(after[2].source_url).toBe(url);

    // Remove all but one.
    await client.post('/_api/products/update', { id, images: [a.detail_url] });
    expect((await imagesOf(id)).map((i) => [i.position, i.media_key])).toEqual([[0, a.media_key]]);

    const empty = await client.post('/_api/products/update', { id, images: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: 'At least one image is required.' });
  });

  it('refuses a stored image path the product does not have', async () => {
    const { client, id } = await sellerWithProduct();
    const other = await buildProduct(api.db.knex, (await buildSeller(api.db.knex)).id);
    const res = await client.post('/_api/products/update', {
      id,
      images: [`/media/test-${other.id}-detail.webp`],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: INVALID_FORMAT });
  });

  it('validates like create', async () => {
    const { client, id } = await sellerWithProduct();
    for (const [body, message] of [
      [{ id, name: 'ab' }, 'Product name must be at least 3 characters long.'],
      [{ id, gemstoneTotalCount: 0 }, 'Gemstone count must be at least 1.'],
      [{ id, stockQuantity: -2 }, 'Stock quantity cannot be negative.'],
      [{ id, images: ['https://example.com/x.tiff'] }, INVALID_FORMAT],
      [{ id, shopName: 'x' }, 'Unknown fields are not allowed.'],
      [{ id: 0, name: 'Fine name' }, 'Product ID must be a positive integer.'],
      [{ name: 'Fine name' }, 'Product ID must be a positive integer.'],
    ] as const) {
      const res = await client.post('/_api/products/update', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: message });
    }
  });

  it('hides other sellers’ products behind 404; an admin may change any', async () => {
    const a = await sellerWithProduct();
    const b = await sellerClient();
    const res = await b.client.post('/_api/products/update', { id: a.id, name: 'Stolen Necklace' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Product not found.', code: 'product_not_found' });
    const missing = await b.client.post('/_api/products/update', { id: 2_000_000, name: 'Nothing here' });
    expect(missing.body).toEqual(res.body);
    expect((await api.db.knex('products').where({ id: a.id }).first('name')).name).toBe(
      'Temple Lakshmi Necklace',
    );

    const admin = await signIn(await buildUser(api.db.knex, { role: 'admin' }));
    const byAdmin = await admin.post('/_api/products/update', { id: a.id, name: 'Admin Fixed Name' });
    expect(byAdmin.status).toBe(200);
    const row = await api.db.knex('products').where({ id: a.id }).first('name', 'seller_id');
    expect(row).toEqual({ name: 'Admin Fixed Name', seller_id: a.seller.id });

    const customer = await signIn(await buildUser(api.db.knex, { role: 'customer' }));
    const c = await customer.post('/_api/products/update', { id: a.id, name: 'Customer Edit' });
    expect(c.status).toBe(403);
    expect(c.body).toMatchObject({ error: ACCESS('customer') });
    expect((await api.client().post('/_api/products/update', { id: a.id, name: 'Visitor' })).status).toBe(
      401,
    );
  });
});

describe('the GST beside the price (issue #49)', () => {
  const gstOf = async (id: number) =>
    (
      (await api.db.knex('products').where({ id }).first(api.db.knex.raw('gst_amount::text as gst'))) as {
        gst: string;
      }
    ).gst;
  const MISMATCH =
    'The GST inside a price of ₹10,300 is ₹300 (3%, included in the price). Enter 300.00 or leave GST empty.';

  it('refuses a GST figure that disagrees with the price, naming the right one on the field; writes nothing', async () => {
    const { seller, client } = await sellerClient();
    const name = `GST check ${crypto.randomBytes(3).toString('hex')}`;
    const res = await client.post<CreateBody>(
      '/_api/products/create',
      product({ name, price: '10300', gstAmount: '500' }),
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: MISMATCH,
      code: 'gst_mismatch',
      issues: [{ path: 'gstAmount', message: MISMATCH }],
    });
    expect(await api.db.knex('products').where({ seller_id: seller.id, name }).first('id')).toBeUndefined();

    // The right figure, or none: saved, with the GST inside the price stored beside it.
    const right = await client.post<CreateBody>(
      '/_api/products/create',
      product({ name, price: '10300', gstAmount: '300.00' }),
    );
    expect(right.status).toBe(201);
    expect(await gstOf(right.body.productId)).toBe('300.00');
    const none = await client.post<CreateBody>('/_api/products/create', product({ name, price: '10300' }));
    expect(none.status).toBe(201);
    expect(await gstOf(none.body.productId)).toBe('300.00');
  });

  it('checks an edit against the price it leaves, and follows a new price', async () => {
    const { client } = await sellerClient();
    const created = await client.post<CreateBody>('/_api/products/create', product({ price: '10300' }));
    const id = created.body.productId;
    const alone = await client.post('/_api/products/update', { id, gstAmount: '500' });
    expect(alone.status).toBe(422);
    expect(alone.body).toMatchObject({ code: 'gst_mismatch', error: MISMATCH });
    // A new price with the old GST: refused, and the price stays.
    const stale = await client.post('/_api/products/update', { id, price: '20600', gstAmount: '300' });
    expect(stale.status).toBe(422);
    expect(stale.body).toMatchObject({ code: 'gst_mismatch', issues: [{ path: 'gstAmount' }] });
    const kept = (await api.db
      .knex('products')
      .where({ id })
      .first(api.db.knex.raw('price::text as price'))) as {
      price: string;
    };
    expect(kept.price).toBe('10300.00');
    // A new price alone: its GST is stored beside it.
    const moved = await client.post('/_api/products/update', { id, price: '20600' });
    expect(moved.status).toBe(200);
    expect(await gstOf(id)).toBe('600.00');
  });
});

describe('POST /_api/products/delete', () => {
  it('soft-deletes: orders keep their product, carts drop it, a second delete is 404', async () => {
    const { seller, client } = await sellerClient();
    const p = await buildProduct(api.db.knex, seller.id);
    const customer = await buildUser(api.db.knex, { role: 'customer' });
    await api.db.knex('cart_items').insert({ user_id: customer.id, product_id: p.id, quantity: 2 });
    const [order] = (await api.db
      .knex('orders')
      .insert({
        customer_id: customer.id,
        seller_id: seller.id,
        checkout_ref: `ref-${p.id}`,
        subtotal: '15000.00',
        total_amount: '15000.00',
        customer_name: 'Kavya',
        customer_phone: '9876543210',
        shipping_address: '5 Lake View Road',
        city: 'Chennai',
        state: 'Tamil Nadu',
        pin_code: '600001',
        payment_method: 'cash_on_delivery',
      })
      .returning('id')) as { id: number }[];
    await api.db.knex('order_items').insert({
      order_id: order.id,
      product_id: p.id,
      product_name: p.name,
      price: '15000.00',
      quantity: 1,
    });

    // The dialog first names the open orders that include it (issue #48): a finished order does not count.
    const openOrders = async () =>
      (await client.get<{ openOrders: number }>(`/_api/products/open-orders?id=${p.id}`)).body;
    expect(await openOrders()).toEqual({ openOrders: 1 });
    await api.db.knex('orders').where({ id: order.id }).update({ status: 'delivered' });
    expect(await openOrders()).toEqual({ openOrders: 0 });
    await api.db.knex('orders').where({ id: order.id }).update({ status: 'shipped' });
    expect(await openOrders()).toEqual({ openOrders: 1 });

    const res = await client.post('/_api/products/delete', { id: p.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    const row = await api.db.knex('products').where({ id: p.id }).first();
    expect(row.deleted_at).not.toBeNull();
    expect(await api.db.knex('cart_items').where({ product_id: p.id })).toHaveLength(0);
    const item = await api.db
      .knex('order_items as oi')
      .join('products as pr', 'pr.id', 'oi.product_id')
      .where('oi.order_id', order.id)
      .first('pr.name', 'oi.quantity');
    expect(item).toEqual({ name: p.name, quantity: 1 });
    expect(await imagesOf(p.id)).toHaveLength(1);

    const again = await client.post('/_api/products/delete', { id: p.id });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'Product not found.' });
    const update = await client.post('/_api/products/update', { id: p.id, name: 'Back from the dead' });
    expect(update.status).toBe(404);
  });

  it('hides other sellers’ products behind 404; an admin may delete any', async () => {
    const a = await sellerClient();
    const b = await sellerClient();
    const p = await buildProduct(api.db.knex, a.seller.id);
    const res = await b.client.post('/_api/products/delete', { id: p.id });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Product not found.', code: 'product_not_found' });
    expect((await api.db.knex('products').where({ id: p.id }).first('deleted_at')).deleted_at).toBeNull();

    const admin = await signIn(await buildUser(api.db.knex, { role: 'admin' }));
    expect((await admin.post('/_api/products/delete', { id: p.id })).status).toBe(200);
    expect((await api.db.knex('products').where({ id: p.id }).first('deleted_at')).deleted_at).not.toBeNull();
  });

  it.each([[{ id: 0 }], [{ id: -4 }], [{ id: 'x' }], [{ id: 1.5 }], [{}]])('refuses %j', async (body) => {
    const { client } = await sellerClient();
    const res = await client.post('/_api/products/delete', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Product ID must be a positive integer.' });
  });

  it('refuses customers and visitors', async () => {
    const { seller } = await sellerClient();
    const p = await buildProduct(api.db.knex, seller.id);
    const customer = await signIn(await buildUser(api.db.knex, { role: 'customer' }));
    const res = await customer.post('/_api/products/delete', { id: p.id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: ACCESS('customer') });
    expect((await api.client().post('/_api/products/delete', { id: p.id })).status).toBe(401);
    expect((await api.db.knex('products').where({ id: p.id }).first('deleted_at')).deleted_at).toBeNull();
  });
});
