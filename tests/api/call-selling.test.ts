import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  CALL_ITEMS_PAGE_SIZE,
  SELLING_MESSAGES,
  type CallDetailResponse,
  type CallItem,
  type CallItemsCreatedResponse,
  type CallItemsResponse,
  type CallProduct,
  type CallProductSearchResponse,
  type HoldResponse,
  type HoldsResponse,
  type MessageCallItem,
  type PhotoCallItem,
} from '../../api/contract/call-selling';
import type {
  CallHistoryResponse,
  CallStatusResponse,
  IncomingCallsResponse,
} from '../../api/contract/calls';
import type { Cart } from '../../api/contract/cart';
import { CALL_MESSAGES } from '../../api/contract/calls';
import { buildProduct, buildSeller, buildUser, type BuiltProduct } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { EventStreamReader } from '../support/sse';
import { activeCall, callParties, signIn, type CallParties } from './calls-support';
import { postCheckout, productState } from './checkout-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

/** Places a call about a product and has the seller accept it. */
async function callAbout(p: CallParties, productId: number, accept = true): Promise<number> {
  const res = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
    sellerId: p.seller.id,
    productId,
  });
  if (res.status !== 201) throw new Error(`initiate failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (accept) {
    const ok = await p.asSeller.post('/_api/call/respond', { callId: res.body.callId, response: 'accept' });
    if (ok.status !== 200) throw new Error(`accept failed: ${ok.status}`);
  }
  return res.body.callId;
}

const stranger = async (): Promise<ApiClient> =>
  signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
const strangerSeller = async (): Promise<ApiClient> => signIn(api, await buildSeller(api.db.knex));

/** The CallProduct the factory's product shows as. */
const cardOf = (p: BuiltProduct, stock: number | null = 10): CallProduct => ({
  id: p.id,
  name: p.name,
  price: p.price,
  imageUrl: `/media/test-${p.id}-card.webp`,
  fullImageUrl: `/media/test-${p.id}-detail.webp`,
  material: 'gold',
  category: 'chains',
  width: null,
  height: null,
  tryOnImage: null,
  purity: '22K',
  weight: 8.5,
  sku: null,
  stockQuantity: stock,
  available: stock === null || stock > 0,
});

const share = (p: CallParties, callId: number, productIds: number[]) =>
  p.asSeller.post<CallItemsCreatedResponse & { code?: string; error?: string }>('/_api/call/share', {
    callId,
    productIds,
  });

const jpegDataUri = async (width: number, height: number, orientation?: number) => {
  let img = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 160, b: 40 } } }).jpeg();
  if (orientation) img = img.withMetadata({ orientation });
  return `data:image/jpeg;base64,${(await img.toBuffer()).toString('base64')}`;
};

const count = async (table: string, where: Record<string, unknown>) =>
  Number(((await api.db.knex(table).where(where).count({ n: '*' })) as { n: unknown }[])[0].n);

const stock = async (productId: number) =>
  (
    (await api.db.knex('products').where({ id: productId }).first('stock_quantity')) as {
      stock_quantity: number | null;
    }
  ).stock_quantity;

describe('calls placed from a product', () => {
  it('carries the piece on the ring, the status, the history and the summary', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id);
    const ring = await EventStreamReader.open(p.asSeller);
    onTestFinished(() => ring.close());
    await ring.waitFor((e) => e.event === 'hello');
    const callId = await callAbout(p, product.id, false);
    const streamed = await ring.waitFor((e) => e.event === 'incoming');
    expect(streamed.data).toMatchObject({ callId, product: cardOf(product) });
    const row = (await api.db.knex('calls').where({ id: callId }).first('product_id')) as {
      product_id: number;
    };
    expect(row.product_id).toBe(product.id);

    const incoming = await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming');
    expect(incoming.body.calls).toEqual([
      {
        callId,
        caller: { id: p.customer.id, displayName: p.customer.displayName, avatarUrl: null },
        createdAt: expect.any(String),
        product: cardOf(product),
      },
    ]);
    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });

    const mine = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(mine.body).toMatchObject({ shopName: p.seller.shopName, product: cardOf(product) });
    const theirs = await p.asSeller.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(theirs.body).toMatchObject({
      participantName: p.customer.displayName,
      shopName: p.seller.shopName,
      product: cardOf(product),
    });

    for (const client of [p.asCustomer, p.asSeller]) {
      const history = await client.get<CallHistoryResponse>('/_api/calls/history');
      expect(history.body.calls.find((c) => c.callId === callId)?.product).toEqual(cardOf(product));
      const detail = await client.get<CallDetailResponse>(`/_api/call/detail?callId=${callId}`);
      expect(detail.status).toBe(200);
      expect(detail.body.product).toEqual(cardOf(product));
    }
  });

  it('refuses a product of another shop, a deleted one and one that does not exist', async () => {
    const p = await callParties(api);
    const other = await buildSeller(api.db.knex);
    const foreign = await buildProduct(api.db.knex, other.id);
    const gone = await buildProduct(api.db.knex, p.seller.id, { deletedAt: new Date() });
    for (const productId of [foreign.id, gone.id, 2_000_000_000]) {
      const res = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id, productId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: SELLING_MESSAGES.productNotInShop,
        code: 'product_not_in_shop',
      });
    }
    expect(await count('calls', { caller_id: p.customer.id })).toBe(0);
  });

  it('a call from the shop page has no product', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const status = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(status.body.product).toBeNull();
    expect(status.body.shopName).toBe(p.seller.shopName);
  });
});

describe('showing products in a call', () => {
  it('lets the jeweller search their own shop, then show products to the customer', async () => {
    const p = await callParties(api);
    const ring = await buildProduct(api.db.knex, p.seller.id, { name: 'Ruby Ring' });
    const bangle = await buildProduct(api.db.knex, p.seller.id, { name: 'Temple Bangle' });
    await api.db.knex('products').where({ id: bangle.id }).update({ sku: 'TB-0042' });
    await buildProduct(api.db.knex, p.seller.id, { name: 'Ruby Gone', deletedAt: new Date() });
    await buildProduct(api.db.knex, (await buildSeller(api.db.knex)).id, { name: 'Ruby Elsewhere' });
    const callId = await activeCall(p);

    const byName = await p.asSeller.get<CallProductSearchResponse>(
      `/_api/call/products?callId=${callId}&q=ruby`,
    );
    expect(byName.status).toBe(200);
    expect(byName.body.products.map((x) => x.id)).toEqual([ring.id]);
    const bySku = await p.asSeller.get<CallProductSearchResponse>(
      `/_api/call/products?callId=${callId}&q=tb-00`,
    );
    expect(bySku.body.products.map((x) => x.id)).toEqual([bangle.id]);
    const newest = await p.asSeller.get<CallProductSearchResponse>(`/_api/call/products?callId=${callId}`);
    expect(newest.body.products.map((x) => x.id)).toEqual([bangle.id, ring.id]);
    expect((await p.asSeller.get(`/_api/call/products?callId=${callId}&q=%25`)).body).toEqual({
      products: [],
    });

    const res = await share(p, callId, [ring.id, bangle.id]);
    expect(res.status).toBe(201);
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        callId,
        fromUserId: p.seller.id,
        createdAt: expect.any(String),
        kind: 'product',
        product: cardOf(ring),
      },
      expect.objectContaining({ kind: 'product', product: { ...cardOf(bangle), sku: 'TB-0042' } }),
    ]);
    const listed = await p.asCustomer.get<CallItemsResponse>(`/_api/call/items?callId=${callId}`);
    expect(listed.body).toEqual({ items: res.body.items, status: 'active' });
  });

  it("refuses another shop's product (403), a call that is not active (409) and non-participants (404)", async () => {
    const p = await callParties(api);
    const own = await buildProduct(api.db.knex, p.seller.id);
    const deleted = await buildProduct(api.db.knex, p.seller.id, { deletedAt: new Date() });
    const foreign = await buildProduct(api.db.knex, (await buildSeller(api.db.knex)).id);
    const callId = await activeCall(p);

    for (const ids of [[foreign.id], [own.id, foreign.id], [deleted.id]]) {
      const res = await share(p, callId, ids);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: SELLING_MESSAGES.notYourProduct, code: 'not_your_product' });
    }
    const other = await strangerSeller();
    expect((await other.post('/_api/call/share', { callId, productIds: [own.id] })).status).toBe(404);
    expect((await other.get(`/_api/call/products?callId=${callId}`)).status).toBe(404);
    // The customer of the call is not a seller: the route itself refuses.
    expect((await p.asCustomer.post('/_api/call/share', { callId, productIds: [own.id] })).status).toBe(403);
    expect((await share(p, callId, [])).status).toBe(400);

    await p.asCustomer.post('/_api/call/end', { callId });
    const late = await share(p, callId, [own.id]);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: CALL_MESSAGES.callNotActive, code: 'call_not_active' });
    expect((await p.asSeller.get(`/_api/call/products?callId=${callId}`)).status).toBe(409);
    expect(await count('call_items', { call_id: callId })).toBe(0);
    const items = await p.asCustomer.get<CallItemsResponse>(`/_api/call/items?callId=${callId}`);
    expect(items.body).toEqual({ items: [], status: 'ended' });
  });
});

describe('chat in a call', () => {
  it('carries messages both ways and turns product links into cards', async () => {
    const p = await callParties(api);
    const a = await buildProduct(api.db.knex, p.seller.id);
    const b = await buildProduct(api.db.knex, (await buildSeller(api.db.knex)).id);
    const c = await buildProduct(api.db.knex, p.seller.id);
    const d = await buildProduct(api.db.knex, p.seller.id);
    const gone = await buildProduct(api.db.knex, p.seller.id, { deletedAt: new Date() });
    const callId = await activeCall(p);

    const text =
      `Like this one? https://nagai.example/?product=${a.id}, or www.other.example/products/gold-chain-${b.id}.` +
      ` Also /product/x-${gone.id} and /product/y-999999999 (old) and http://x.example/product/z-${c.id}` +
      ` and ?product=${d.id} and ?product=${a.id}`;
    const sent = await p.asCustomer.post<CallItemsCreatedResponse>('/_api/call/message', { callId, text });
    expect(sent.status).toBe(201);
    const [item] = sent.body.items as MessageCallItem[];
    expect(item).toMatchObject({ kind: 'message', callId, fromUserId: p.customer.id, text });
    // The first three links, in order; a deleted or unknown product is no card.
    expect(item.products).toEqual([cardOf(a), cardOf(b)]);

    const reply = await p.asSeller.post<CallItemsCreatedResponse>('/_api/call/message', {
      callId,
      text: `  See /products/temple-${c.id}  `,
    });
    expect(reply.body.items[0]).toMatchObject({
      text: `See /products/temple-${c.id}`,
      products: [cardOf(c)],
    });

    const page = await p.asSeller.get<CallItemsResponse>(
      `/_api/call/items?callId=${callId}&after=${item.id}`,
    );
    expect(page.body.items.map((i) => i.id)).toEqual([reply.body.items[0].id]);

    expect((await p.asCustomer.post('/_api/call/message', { callId, text: '   ' })).body).toMatchObject({
      error: SELLING_MESSAGES.messageEmpty,
    });
    expect((await p.asCustomer.post('/_api/call/message', { callId, text: 'x'.repeat(1001) })).status).toBe(
      400,
    );
    const outsider = await stranger();
    expect((await outsider.post('/_api/call/message', { callId, text: 'hello' })).status).toBe(404);
    await p.asSeller.post('/_api/call/end', { callId });
    expect((await p.asCustomer.post('/_api/call/message', { callId, text: 'bye' })).status).toBe(409);
  });
});

describe('photos in a call', () => {
  it('stores the jeweller’s photo upright, without metadata, for the two participants only', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    // 60×40 with EXIF orientation 6 (rotate 90°): the stored photo is 40×60.
    const image = await jpegDataUri(60, 40, 6);
    const sent = await p.asSeller.post<CallItemsCreatedResponse>('/_api/call/photo', { callId, image });
    expect(sent.status).toBe(201);
    const [item] = sent.body.items as PhotoCallItem[];
    expect(item).toEqual({
      id: expect.any(Number),
      callId,
      fromUserId: p.seller.id,
      createdAt: expect.any(String),
      kind: 'photo',
      photoUrl: `/_api/call/photo?id=${item.id}`,
      width: 40,
      height: 60,
    });

    for (const client of [p.asCustomer, p.asSeller]) {
      const res = await fetch(api.url + item.photoUrl, { headers: { Cookie: client.cookieHeader() } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 40, height: 60 });
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    }
    const outsider = await stranger();
    expect((await outsider.get(item.photoUrl)).status).toBe(404);
    expect((await api.client().get(item.photoUrl)).status).toBe(401);
    expect((await p.asSeller.get('/_api/call/photo?id=999999999')).status).toBe(404);
  });

  it('refuses what is not an image, and photos from the customer', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const text = `data:image/png;base64,${Buffer.from('not a picture at all').toString('base64')}`;
    const bad = await p.asSeller.post('/_api/call/photo', { callId, image: text });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: SELLING_MESSAGES.photoInvalid, code: 'photo_invalid' });
    // A PNG header with nothing decodable behind it.
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64),
    ]);
    const broken = await p.asSeller.post('/_api/call/photo', {
      callId,
      image: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(broken.body).toMatchObject({ code: 'photo_invalid' });
    expect((await p.asSeller.post('/_api/call/photo', { callId, image: 'hello' })).status).toBe(400);
    const image = await jpegDataUri(8, 8);
    expect((await p.asCustomer.post('/_api/call/photo', { callId, image })).status).toBe(403);
    expect((await (await strangerSeller()).post('/_api/call/photo', { callId, image })).status).toBe(404);
    expect(await count('call_items', { call_id: callId })).toBe(0);
  });
});

describe('items and the summary', () => {
  it('are private to the two participants', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const outsider = await stranger();
    const otherSeller = await strangerSeller();
    for (const client of [outsider, otherSeller]) {
      expect((await client.get(`/_api/call/items?callId=${callId}`)).status).toBe(404);
      expect((await client.get(`/_api/call/detail?callId=${callId}`)).status).toBe(404);
    }
  });

  it('pages items by id and sums the call up for both sides', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id);
    const callId = await callAbout(p, product.id);
    await share(p, callId, [product.id]);
    await p.asCustomer.post('/_api/call/message', { callId, text: 'Lovely' });
    await p.asSeller.post('/_api/call/photo', { callId, image: await jpegDataUri(10, 10) });
    api.clock.advance(42_000);
    await p.asCustomer.post('/_api/call/end', { callId });

    const all = await p.asSeller.get<CallItemsResponse>(`/_api/call/items?callId=${callId}`);
    expect(all.body.status).toBe('ended');
    expect(all.body.items.map((i) => i.kind)).toEqual(['product', 'message', 'photo']);
    expect(CALL_ITEMS_PAGE_SIZE).toBe(200);

    const hold = await p.asCustomer.post<HoldResponse>('/_api/holds', { callId, productId: product.id });
    expect(hold.status).toBe(201);

    const mine = await p.asCustomer.get<CallDetailResponse>(`/_api/call/detail?callId=${callId}`);
    expect(mine.body).toEqual({
      callId,
      status: 'ended',
      isIncoming: false,
      participantId: p.seller.id,
      participantName: p.seller.shopName,
      shopName: p.seller.shopName,
      createdAt: expect.any(String),
      answeredAt: expect.any(String),
      endedAt: expect.any(String),
      endReason: 'hangup',
      durationSeconds: expect.any(Number),
      product: cardOf(product, 9),
      items: all.body.items.map((i: CallItem) =>
        i.kind === 'product' ? { ...i, product: cardOf(product, 9) } : i,
      ),
      holds: [hold.body.hold],
      purchases: [],
      likes: [],
    } satisfies CallDetailResponse);
    // 42 s on the test clock, plus however long the requests took on a busy machine.
    expect(mine.body.durationSeconds).toBeGreaterThanOrEqual(42);
    expect(mine.body.durationSeconds).toBeLessThan(60);
    const theirs = await p.asSeller.get<CallDetailResponse>(`/_api/call/detail?callId=${callId}`);
    expect(theirs.body).toMatchObject({ isIncoming: true, participantName: p.customer.displayName });
  });
});

describe('the event stream', () => {
  it('delivers each item to both participants at once', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id);
    const callId = await activeCall(p);
    const seller = await EventStreamReader.open(p.asSeller);
    const customer = await EventStreamReader.open(p.asCustomer);
    onTestFinished(() => {
      seller.close();
      customer.close();
    });
    await seller.waitFor((e) => e.event === 'hello');
    await customer.waitFor((e) => e.event === 'hello');

    const shown = (await share(p, callId, [product.id])).body.items[0];
    const said = (
      await p.asCustomer.post<CallItemsCreatedResponse>('/_api/call/message', {
        callId,
        text: `this one? ?product=${product.id}`,
      })
    ).body.items[0];
    for (const stream of [seller, customer]) {
      for (const item of [shown, said]) {
        const got = await stream.waitFor(
          (e) => e.event === 'item' && (e.data as CallItem).id === item.id,
          3000,
        );
        expect(got.data).toEqual(item);
      }
    }
    // A stranger's stream hears nothing of it.
    const outsider = await EventStreamReader.open(await stranger(), { after: 0 });
    onTestFinished(() => outsider.close());
    await outsider.waitFor((e) => e.event === 'hello');
    await new Promise((r) => setTimeout(r, 200));
    expect(outsider.events.filter((e) => e.event === 'item')).toEqual([]);
  });
});

describe("the customer's hold and add-to-cart as lines in the call (#48)", () => {
  it('are written by the server from the real hold and cart change, relayed to the jeweller, in the call only', async () => {
    const p = await callParties(api);
    const shown = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 5 });
    const other = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 5 });
    const elsewhere = await buildProduct(api.db.knex, (await buildSeller(api.db.knex)).id);
    const callId = await activeCall(p);
    await share(p, callId, [shown.id]);
    const seller = await EventStreamReader.open(p.asSeller);
    onTestFinished(() => seller.close());
    await seller.waitFor((e) => e.event === 'hello');

    // A hold of a shown piece, and an add-to-cart of any piece of the shop (a card, the product dialog).
    expect((await p.asCustomer.post('/_api/holds', { callId, productId: shown.id })).status).toBe(201);
    expect((await p.asCustomer.post('/_api/cart/add', { productId: other.id, quantity: 1 })).status).toBe(
      200,
    );
    const held = await seller.waitFor(
      (e) => e.event === 'item' && (e.data as CallItem).kind === 'hold',
      3000,
    );
    expect(held.data).toMatchObject({
      callId,
      kind: 'hold',
      fromUserId: p.customer.id,
      product: { id: shown.id, name: shown.name },
    });
    const carted = await seller.waitFor(
      (e) => e.event === 'item' && (e.data as CallItem).kind === 'cart',
      3000,
    );
    expect(carted.data).toMatchObject({
      callId,
      kind: 'cart',
      fromUserId: p.customer.id,
      product: { id: other.id, name: other.name },
    });
    const items = (await p.asSeller.get<CallItemsResponse>(`/_api/call/items?callId=${callId}`)).body.items;
    expect(items.map((i) => i.kind)).toEqual(['product', 'hold', 'cart']);

    // No line for what did not happen or is not the call's: a refused add (beyond stock), another shop's
    // piece, a second refused hold.
    expect((await p.asCustomer.post('/_api/cart/add', { productId: other.id, quantity: 50 })).status).toBe(
      400,
    );
    expect((await p.asCustomer.post('/_api/cart/add', { productId: elsewhere.id, quantity: 1 })).status).toBe(
      200,
    );
    expect((await p.asCustomer.post('/_api/holds', { callId, productId: shown.id })).status).toBe(409);
    // Neither side can send such a line itself: the item routes take products, photos and text only.
    const forged = await p.asCustomer.post('/_api/call/message', { callId, text: 'held', kind: 'hold' });
    expect(forged.status).toBe(201);
    expect(await count('call_items', { call_id: callId, kind: 'hold' })).toBe(1);
    expect(await count('call_items', { call_id: callId, kind: 'cart' })).toBe(1);

    // After the call, an add-to-cart is no line in it.
    expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
    expect((await p.asCustomer.post('/_api/cart/add', { productId: other.id, quantity: 1 })).status).toBe(
      200,
    );
    expect(await count('call_items', { call_id: callId, kind: 'cart' })).toBe(1);
  });
});

describe('holds', () => {
  /** A customer in an active call in which the jeweller showed `product`. */
  async function shownIn(stockQuantity: number | null = 3) {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { stockQuantity });
    const callId = await activeCall(p);
    await share(p, callId, [product.id]);
    return { p, product, callId };
  }
  const hold = (client: ApiClient, callId: number, productId: number) =>
    client.post<HoldResponse & { code?: string; error?: string }>('/_api/holds', { callId, productId });
  const cartOf = async (client: ApiClient) => (await client.get<Cart>('/_api/cart/list')).body;

  it('takes a unit at once, puts it in the cart, and checkout consumes it without a second decrement', async () => {
    const { p, product, callId } = await shownIn(3);
    const res = await hold(p.asCustomer, callId, product.id);
    expect(res.status).toBe(201);
    expect(res.body.hold).toEqual({
      id: expect.any(Number),
      productId: product.id,
      productName: product.name,
      imageUrl: `/media/test-${product.id}-card.webp`,
      price: product.price,
      customerId: p.customer.id,
      customerName: p.customer.displayName,
      sellerId: p.seller.id,
      shopName: p.seller.shopName,
      callId,
      status: 'active',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    const hours =
      (new Date(res.body.hold.expiresAt).getTime() - new Date(res.body.hold.createdAt).getTime()) / 3.6e6;
    expect(hours).toBe(48);
    expect(await stock(product.id)).toBe(2);

    const cart = await cartOf(p.asCustomer);
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]).toMatchObject({
      productId: product.id,
      quantity: 1,
      available: true,
      hold: { holdId: res.body.hold.id, expiresAt: res.body.hold.expiresAt },
    });

    const seller = await p.asSeller.get<HoldsResponse>('/_api/holds/seller');
    expect(seller.body.holds).toEqual([res.body.hold]);

    const placed = await postCheckout(p.asCustomer);
    expect(placed.status).toBe(201);
    expect(await productState(api, product.id)).toEqual({ stock_quantity: 2, units_sold: 1 });
    const row = (await api.db.knex('product_holds').where({ id: res.body.hold.id }).first()) as {
      status: string;
      order_id: number;
    };
    expect(row).toMatchObject({ status: 'consumed', order_id: placed.body.orders[0].id });
    expect((await p.asSeller.get<HoldsResponse>('/_api/holds/seller')).body.holds).toEqual([]);
    // A consumed hold is over: it cannot be released.
    const again = await p.asCustomer.post('/_api/holds/release', { holdId: res.body.hold.id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: SELLING_MESSAGES.holdNotActive, code: 'hold_not_active' });
  });

  it('lets the customer buy the last unit they hold, and more only with stock for the rest', async () => {
    const { p, product, callId } = await shownIn(1);
    expect((await hold(p.asCustomer, callId, product.id)).status).toBe(201);
    expect(await stock(product.id)).toBe(0);
    const cart = await cartOf(p.asCustomer);
    expect(cart.items[0]).toMatchObject({ available: true, stockQuantity: 0 });
    expect(cart.totalAmount).toBe(product.price);

    // Stock 0 + one held: one unit is theirs, a second is not.
    const more = await p.asCustomer.post('/_api/cart/add', { productId: product.id, quantity: 1 });
    expect(more.status).toBe(400);
    expect(more.body.error).toBe('Only 1 item(s) available in stock');
    await api.db.knex('products').where({ id: product.id }).update({ stock_quantity: 1 });
    expect((await p.asCustomer.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(
      200,
    );
    const line = (await cartOf(p.asCustomer)).items[0];
    expect(line.quantity).toBe(2);
    expect(
      (await p.asCustomer.post('/_api/cart/update', { cartItemId: line.cartItemId, quantity: 3 })).status,
    ).toBe(400);

    // Someone else cannot buy the held unit.
    const other = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    await api.db.knex('products').where({ id: product.id }).update({ stock_quantity: 0 });
    expect((await other.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(400);
    await api.db.knex('products').where({ id: product.id }).update({ stock_quantity: 1 });

    const placed = await postCheckout(p.asCustomer);
    expect(placed.status).toBe(201);
    expect(placed.body.orders[0].items[0].quantity).toBe(2);
    expect(await stock(product.id)).toBe(0);
  });

  it('refuses checkout beyond stock plus the customer’s holds, naming what is available to them', async () => {
    const { p, product, callId } = await shownIn(1);
    await hold(p.asCustomer, callId, product.id);
    await api.db.knex('cart_items').where({ user_id: p.customer.id }).update({ quantity: 2 });
    const res = await postCheckout(p.asCustomer);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('Only 1 item(s) available in stock');
    expect(await stock(product.id)).toBe(0);
    expect(await api.db.knex('product_holds').where({ customer_id: p.customer.id }).pluck('status')).toEqual([
      'active',
    ]);
  });

  it('release by the customer or the jeweller returns the unit; anyone else gets 404', async () => {
    const { p, product, callId } = await shownIn(3);
    const first = await hold(p.asCustomer, callId, product.id);
    expect(await stock(product.id)).toBe(2);
    for (const client of [await stranger(), await strangerSeller()]) {
      const res = await client.post('/_api/holds/release', { holdId: first.body.hold.id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: SELLING_MESSAGES.holdNotFound, code: 'hold_not_found' });
    }
    const released = await p.asCustomer.post<HoldResponse>('/_api/holds/release', {
      holdId: first.body.hold.id,
    });
    expect(released.status).toBe(200);
    expect(released.body.hold.status).toBe('released');
    expect(await stock(product.id)).toBe(3);
    expect((await cartOf(p.asCustomer)).items[0].hold).toBeNull();

    // Another piece of the call (the same one is not held twice in a call), released by the jeweller.
    const piece = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 3 });
    await share(p, callId, [piece.id]);
    const second = await hold(p.asCustomer, callId, piece.id);
    expect(second.status).toBe(201);
    expect(await stock(piece.id)).toBe(2);
    const bySeller = await p.asSeller.post<HoldResponse>('/_api/holds/release', {
      holdId: second.body.hold.id,
    });
    expect(bySeller.body.hold.status).toBe('released');
    expect(await stock(piece.id)).toBe(3);
    expect((await p.asSeller.post('/_api/holds/release', { holdId: second.body.hold.id })).status).toBe(409);
  });

  it('refuses a piece not shown (403), a second hold (409), no stock (409), and strangers’ calls (404)', async () => {
    const { p, product, callId } = await shownIn(1);
    const unshown = await buildProduct(api.db.knex, p.seller.id);
    const res = await hold(p.asCustomer, callId, unshown.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: SELLING_MESSAGES.holdNotShown, code: 'hold_not_shown' });

    expect((await hold(p.asCustomer, callId, product.id)).status).toBe(201);
    const twice = await hold(p.asCustomer, callId, product.id);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ error: SELLING_MESSAGES.holdAlreadyHeld, code: 'hold_already_held' });
    expect(await stock(product.id)).toBe(0);

    // Another customer shown the same piece in their own call (after this one) finds none left.
    await p.asCustomer.post('/_api/call/end', { callId });
    const q = await callParties(api);
    const theirCall = await activeCall({ ...q, seller: p.seller, asSeller: p.asSeller });
    await share({ ...q, seller: p.seller, asSeller: p.asSeller }, theirCall, [product.id]);
    const none = await hold(q.asCustomer, theirCall, product.id);
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ error: SELLING_MESSAGES.holdOutOfStock, code: 'hold_out_of_stock' });
    expect(await count('product_holds', { customer_id: q.customer.id })).toBe(0);
    expect(await api.db.knex('cart_items').where({ user_id: q.customer.id }).pluck('id')).toEqual([]);

    // Someone else's call.
    expect((await hold(await stranger(), callId, product.id)).status).toBe(404);
  });

  it('cannot be renewed: one hold per piece per call, and a cap per customer per 30 days (#34)', async () => {
    const { p, product, callId } = await shownIn(3);
    const first = await hold(p.asCustomer, callId, product.id);
    expect(first.status).toBe(201);
    expect((await p.asCustomer.post('/_api/holds/release', { holdId: first.body.hold.id })).status).toBe(200);
    // hold → release → hold would keep the piece off sale with a fresh 48 hours each time.
    const again = await hold(p.asCustomer, callId, product.id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: SELLING_MESSAGES.holdUsedInCall, code: 'hold_used_in_call' });
    expect(await stock(product.id)).toBe(3);
    expect(await count('product_holds', { customer_id: p.customer.id })).toBe(1);

    // The cap (default 20 in 30 days): holds older than 30 days do not count.
    const past = (days: number) => new Date(api.clock.now().getTime() - days * 86_400_000);
    const other = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: null });
    await api.db.knex('product_holds').insert([
      ...Array.from({ length: 18 }, () => ({
        product_id: other.id,
        customer_id: p.customer.id,
        seller_id: p.seller.id,
        status: 'released',
        expires_at: past(1),
        created_at: past(3),
      })),
      {
        product_id: other.id,
        customer_id: p.customer.id,
        seller_id: p.seller.id,
        status: 'expired',
        expires_at: past(31),
        created_at: past(33),
      },
    ]);
    const shown = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 5 });
    const more = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 5 });
    await share(p, callId, [shown.id, more.id]);
    expect((await hold(p.asCustomer, callId, shown.id)).status).toBe(201); // the 20th in 30 days
    const capped = await hold(p.asCustomer, callId, more.id);
    expect(capped.status).toBe(429);
    expect(capped.body.code).toBe('hold_limit');
    expect(await stock(more.id)).toBe(5);
  });

  it("the summary lists the customer's holds of the call's pieces from any call, and what they bought (#40)", async () => {
    // Orders are stamped by the database's clock and calls by the app's: earlier tests moved the test clock
    // ahead, so it is put back on real time for this test (and moved on again after it).
    const ahead = api.clock.now().getTime() - Date.now();
    api.clock.advance(-ahead);
    onTestFinished(() => api.clock.advance(ahead));
    const p = await callParties(api);
    const about = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 5 });
    const other = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 5 });
    // A first call: the customer holds the piece it was about, straight from the call (nothing shown).
    const first = await callAbout(p, about.id);
    const held = await hold(p.asCustomer, first, about.id);
    expect(held.status).toBe(201);
    await p.asCustomer.post('/_api/call/end', { callId: first });

    // A second call about the same piece: its summary knows the piece is held already (made in the first call).
    const second = await callAbout(p, about.id);
    await share(p, second, [other.id]);
    await p.asCustomer.post('/_api/call/end', { callId: second });
    const detail = async (client: ApiClient, callId: number) =>
      (await client.get<CallDetailResponse>(`/_api/call/detail?callId=${callId}`)).body;
    const mine = await detail(p.asCustomer, second);
    expect(mine.holds.map((h) => [h.productId, h.status, h.callId])).toEqual([[about.id, 'active', first]]);
    expect(mine.purchases).toEqual([]);

    // The customer buys the held piece and one shown in the second call: the jeweller's summary says so.
    await p.asCustomer.post('/_api/cart/add', { productId: other.id, quantity: 2 });
    const placed = await postCheckout(p.asCustomer);
    expect(placed.status).toBe(201);
    const orderId = placed.body.orders[0].id as number;
    const theirs = await detail(p.asSeller, second);
    expect(
      theirs.purchases.map((x) => [x.orderId, x.productId, x.quantity]).sort((a, b) => a[1]! - b[1]!),
    ).toEqual(
      [
        [orderId, about.id, 1],
        [orderId, other.id, 2],
      ].sort((a, b) => a[1]! - b[1]!),
    );
    expect(theirs.purchases[0]).toMatchObject({ orderStatus: 'pending', orderedAt: expect.any(String) });
    // The hold was consumed by the order: no longer active, so not listed for the second call.
    expect(theirs.holds).toEqual([]);
    // The first call's summary keeps its own hold (consumed) and the purchase of its piece.
    const firstSummary = await detail(p.asSeller, first);
    expect(firstSummary.holds.map((h) => [h.productId, h.status])).toEqual([[about.id, 'consumed']]);
    expect(firstSummary.purchases.map((x) => [x.productId, x.quantity])).toEqual([[about.id, 1]]);
    // A purchase by someone else, or of another shop's piece, is not this call's.
    const q = await callParties(api);
    const elsewhere = await callAbout(q, (await buildProduct(api.db.knex, q.seller.id)).id);
    expect((await detail(q.asSeller, elsewhere)).purchases).toEqual([]);
  });

  it('holds the piece a call was placed about, right after hanging up, within the hold window only', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: null });
    const callId = await callAbout(p, product.id);
    await p.asCustomer.post('/_api/call/end', { callId });
    const res = await hold(p.asCustomer, callId, product.id);
    expect(res.status).toBe(201);
    // Unlimited stock: nothing is taken, nothing is given back.
    expect(await stock(product.id)).toBeNull();
    expect((await p.asCustomer.post('/_api/holds/release', { holdId: res.body.hold.id })).status).toBe(200);
    expect(await stock(product.id)).toBeNull();

    // A call declined: nothing was shown.
    const q = await callParties(api);
    const declinedAbout = await buildProduct(api.db.knex, q.seller.id);
    const declined = await callAbout(q, declinedAbout.id, false);
    await q.asSeller.post('/_api/call/respond', { callId: declined, response: 'decline' });
    expect((await hold(q.asCustomer, declined, declinedAbout.id)).status).toBe(403);

    // Too long after the call.
    await api.db
      .knex('calls')
      .where({ id: callId })
      .update({ ended_at: new Date(api.clock.now().getTime() - api.config.productHoldMs - 1000) });
    const late = await hold(p.asCustomer, callId, product.id);
    expect(late.status).toBe(409);
  });

  it('expires with the sweep (the unit goes back) and reads treat an expired hold as gone', async () => {
    const { p, product, callId } = await shownIn(2);
    const a = await hold(p.asCustomer, callId, product.id);
    await p.asCustomer.post('/_api/call/end', { callId });
    const q = await callParties(api);
    const qCall = await activeCall({ ...q, seller: p.seller, asSeller: p.asSeller });
    await share({ ...q, seller: p.seller, asSeller: p.asSeller }, qCall, [product.id]);
    const b = await hold(q.asCustomer, qCall, product.id);
    expect(await stock(product.id)).toBe(0);

    api.clock.advance(api.config.productHoldMs + 60_000);
    // Before the sweep runs: the cart already shows no hold, and checkout does not count it.
    expect((await cartOf(p.asCustomer)).items[0]).toMatchObject({ hold: null, available: false });
    await api.handle.background.runNow('selling:expire-holds');
    expect(await stock(product.id)).toBe(2);
    const rows = (await api.db
      .knex('product_holds')
      .whereIn('id', [a.body.hold.id, b.body.hold.id])
      .pluck('status')) as string[];
    expect(rows).toEqual(['expired', 'expired']);
    // Twice is harmless.
    await api.handle.background.runNow('selling:expire-holds');
    expect(await stock(product.id)).toBe(2);
    expect((await p.asCustomer.post('/_api/holds/release', { holdId: a.body.hold.id })).status).toBe(409);
    expect((await p.asSeller.get<HoldsResponse>('/_api/holds/seller')).body.holds).toEqual([]);
  });

  it('expires lazily when the shop lists its holds', async () => {
    const { p, product, callId } = await shownIn(2);
    await hold(p.asCustomer, callId, product.id);
    expect(await stock(product.id)).toBe(1);
    api.clock.advance(api.config.productHoldMs + 1000);
    expect((await p.asSeller.get<HoldsResponse>('/_api/holds/seller')).body.holds).toEqual([]);
    expect(await stock(product.id)).toBe(2);
  });
});
