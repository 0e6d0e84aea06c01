import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutSchema } from '../../api/contract/checkout';
import type { Order, OrdersPage } from '../../api/contract/orders';
import { checkoutRequestHash } from '../../api/src/features/checkout/service';
import { buildProduct, buildSeller, buildUser, type BuiltSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, postCheckout, productState, signIn } from './checkout-support';

let api: TestApi;
let shopA: BuiltSeller;
let shopB: BuiltSeller;
beforeAll(async () => {
  api = await startTestApi();
  shopA = await buildSeller(api.db.knex, { shopName: 'Kanchi Gold House' });
  shopB = await buildSeller(api.db.knex, { shopName: 'Madurai Silver Works' });
  await api.db.knex('seller_profiles').where({ user_id: shopA.id }).update({ gst_number: '33ABCDE1234F1Z5' });
});
afterAll(async () => api?.close());

const orderCount = async (customerId: number) =>
  Number(
    (
      (await api.db.knex('orders').where({ customer_id: customerId }).count({ n: '*' })) as { n: unknown }[]
    )[0].n,
  );

describe('checkout access and validation', () => {
  it('refuses visitors, sellers and admins', async () => {
    expect((await postCheckout(api.client())).status).toBe(401);
    const asSeller = await signIn(api, shopA);
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    expect((await postCheckout(asSeller)).body).toMatchObject({
      error: 'Access denied. Your role (seller) lacks required permissions.',
    });
    expect((await postCheckout(admin)).status).toBe(403);
  });

  it('requires an Idempotency-Key header', async () => {
    const { client } = await newCustomer(api);
    const res = await postCheckout(client, checkoutBody(), null);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Idempotency-Key header is required.',
      code: 'idempotency_key_required',
    });
    const long = await postCheckout(client, checkoutBody(), 'k'.repeat(201));
    expect(long.status).toBe(400);
  });

  it('requires every text field with the product-rule messages', async () => {
    const { client } = await newCustomer(api);
    const cases: [string, string][] = [
      ['customerName', 'Customer name is required'],
      ['customerPhone', 'Customer phone is required'],
      ['shippingAddress', 'Shipping address is required'],
      ['city', 'City is required'],
      ['state', 'State is required'],
      ['pinCode', 'Pin code is required'],
    ];
    for (const [field, message] of cases) {
      for (const value of [undefined, '', '   ']) {
        const res = await postCheckout(client, checkoutBody({ [field]: value }));
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(message);
      }
    }
    const bad = await postCheckout(client, checkoutBody({ paymentMethod: 'bitcoin' }));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
  });

  it('refuses a PIN code that is not six digits or starts with 0, with a clear message on the field', async () => {
    const { client } = await newCustomer(api);
    const message = 'Enter a 6-digit PIN code that does not start with 0 (for example 600001).';
    for (const pinCode of ['012345', '60001', '6000011', '6000O1', 'PIN 600001', '600-001']) {
      const res = await postCheckout(client, checkoutBody({ pinCode }));
      expect(res.status, pinCode).toBe(400);
      expect(res.body.error, pinCode).toBe(message);
      expect((res.body as { issues?: { path: string }[] }).issues?.[0]?.path, pinCode).toBe('pinCode');
    }
  });

  it('refuses a mobile number that is not ten digits starting 6 to 9, with a clear message on the field', async () => {
    const { client } = await newCustomer(api);
    const message = 'Enter a 10-digit mobile number starting with 6, 7, 8 or 9 (for example 98765 43210).';
    for (const customerPhone of [
      '5876501234', // starts with 5
      '987650123', // nine digits
      '98765012345', // eleven digits
      '+92 98765 01234', // not India
      '+91 5876501234',
      '00 98765 01234',
      '98765-O1234',
      '12345',
    ]) {
      const res = await postCheckout(client, checkoutBody({ customerPhone }));
      expect(res.status, customerPhone).toBe(400);
      expect(res.body.error, customerPhone).toBe(message);
      expect((res.body as { issues?: { path: string }[] }).issues?.[0]?.path, customerPhone).toBe(
        'customerPhone',
      );
    }
  });

  it('accepts a mobile number with +91, 91 or 0 in front and spaces or hyphens, and keeps its ten digits', () => {
    for (const typed of [
      '9876501234',
      '+91 98765 01234',
      '+919876501234',
      '91 98765-01234',
      '098765 01234',
      ' 98765 01234 ',
    ]) {
      expect(CheckoutSchema.parse(checkoutBody({ customerPhone: typed })).customerPhone, typed).toBe(
        '9876501234',
      );
    }
    // A PIN code must also belong to the state chosen (issue #40): each is given with its own.
    for (const [pin, state] of [
      ['600001', 'Tamil Nadu'],
      ['110001', '07'],
      ['799001', '16'],
      [' 641 002 ', '33'],
    ])
      expect(CheckoutSchema.safeParse(checkoutBody({ pinCode: pin, state })).success, pin).toBe(true);
    expect(CheckoutSchema.parse(checkoutBody({ pinCode: ' 641 002 ' })).pinCode).toBe('641002');
  });

  it('stores the normalised mobile number on the order', async () => {
    const { client } = await newCustomer(api);
    const bangle = await buildProduct(api.db.knex, shopB.id, { name: 'Glass bangle', price: '250.00' });
    expect((await client.post('/_api/cart/add', { productId: bangle.id, quantity: 1 })).status).toBe(200);
    const res = await postCheckout(
      client,
      checkoutBody({ customerPhone: '+91 70123-45678', pinCode: '625 001' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.orders[0].customer.phone).toBe('7012345678');
    expect(res.body.orders[0].pinCode).toBe('625001');
  });

  it('defaults the payment method to UPI', () => {
    const { paymentMethod: _omit, ...rest } = checkoutBody();
    expect(CheckoutSchema.parse(rest).paymentMethod).toBe('upi');
  });

  it("refuses an empty cart with 'Your cart is empty.'", async () => {
    const { client } = await newCustomer(api);
    const res = await postCheckout(client);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Your cart is empty.', code: 'cart_empty' });
  });
});

describe('placing orders', () => {
  it('turns a two-shop cart into two orders with server prices, GST and shared checkoutRef', async () => {
    const { user, client } = await newCustomer(api);
    const ring = await buildProduct(api.db.knex, shopA.id, {
      name: 'Ruby ring',
      price: '10499.99',
      gstAmount: '305.83',
      stockQuantity: 5,
    });
    const chain = await buildProduct(api.db.knex, shopA.id, {
      name: 'Gold chain',
      price: '45000.00',
      gstAmount: '1310.68',
      stockQuantity: null,
    });
    const anklet = await buildProduct(api.db.knex, shopB.id, {
      name: 'Silver anklet',
      price: '1850.50',
      gstAmount: '0',
      stockQuantity: 2,
    });
    await client.post('/_api/cart/add', { productId: ring.id, quantity: 3 });
    await client.post('/_api/cart/add', { productId: chain.id, quantity: 1 });
    await client.post('/_api/cart/add', { productId: anklet.id, quantity: 2 });

    // Prices the client might send are ignored: the server prices from the product rows.
    const res = await postCheckout(client, {
      ...checkoutBody({ paymentMethod: 'upi' }),
      totalAmount: '1.00',
      price: '0.01',
    });
    expect(res.status).toBe(201);
    const { orders, checkoutRef } = res.body;
    expect(orders).toHaveLength(2);
    expect(typeof checkoutRef).toBe('string');
    const a = orders.find((o) => o.seller.id === shopA.id)!;
    const b = orders.find((o) => o.seller.id === shopB.id)!;

    // 3 × 10499.99 + 45000.00 = 76499.97. GST is the GST inside each price, as the tax invoice reads it
    // (price − round(price × 100 / 103)), not the products' stored figures: 3 × 305.82 + 1310.68 = 2228.14.
    expect(a).toMatchObject({
      checkoutRef,
      status: 'pending',
      subtotal: '76499.97',
      gstTotal: '2228.14',
      shippingCharges: '0.00',
      totalAmount: '76499.97',
      paymentMethod: 'upi',
      paymentStatus: 'pending',
      shippingAddress: '4 Gandhi Road, R.S. Puram',
      city: 'Coimbatore',
      state: 'Tamil Nadu',
      pinCode: '641002',
      customer: {
        id: user.id,
        displayName: user.displayName,
        email: user.email,
        name: 'Meena Sundaram',
        phone: '9876501234',
      },
      seller: {
        id: shopA.id,
        shopName: 'Kanchi Gold House',
        gstNumber: '33ABCDE1234F1Z5',
        shopAddress: '12 Big Bazaar Street, Town Hall',
        city: 'Coimbatore',
        state: 'Tamil Nadu',
        pincode: '641001',
        phone: '9876543210',
      },
      canRate: false,
    });
    const ringItem = a.items.find((i) => i.product.id === ring.id)!;
    expect(ringItem).toMatchObject({
      quantity: 3,
      price: '10499.99',
      gstAmount: '305.82',
      lineTotal: '31499.97',
      product: {
        id: ring.id,
        name: 'Ruby ring',
        images: [`/media/test-${ring.id}-card.webp`],
        gstAmount: '305.82',
      },
      rating: null,
      canRate: false,
    });
    expect(a.items).toHaveLength(2);
    // 2 × (1850.50 − 1796.60); the anklet's stored GST of 0 is not what the invoice charges.
    expect(b).toMatchObject({ subtotal: '3701.00', gstTotal: '107.80', totalAmount: '3701.00', checkoutRef });
    expect(b.items.map((i) => i.product.name)).toEqual(['Silver anklet']);

    // Stock and units sold moved; null stock stays unlimited; the cart is empty.
    expect(await productState(api, ring.id)).toEqual({ stock_quantity: 2, units_sold: 3 });
    expect(await productState(api, chain.id)).toEqual({ stock_quantity: null, units_sold: 1 });
    expect(await productState(api, anklet.id)).toEqual({ stock_quantity: 0, units_sold: 2 });
    expect((await client.get<{ items: unknown[] }>('/_api/cart/list')).body.items).toEqual([]);

    // Each shop sees only its own order.
    const asA = await signIn(api, shopA);
    const asB = await signIn(api, shopB);
    const listA = (await asA.get<OrdersPage>('/_api/orders/seller')).body.orders.map((o) => o.id);
    const listB = (await asB.get<OrdersPage>('/_api/orders/seller')).body.orders.map((o) => o.id);
    expect(listA).toContain(a.id);
    expect(listA).not.toContain(b.id);
    expect(listB).toContain(b.id);
    expect(listB).not.toContain(a.id);
    expect((await asA.get(`/_api/order/details?orderId=${b.id}`)).status).toBe(404);
    expect((await asB.get<{ order: Order }>(`/_api/order/details?orderId=${b.id}`)).body.order).toEqual(b);
    const mine = (await client.get<OrdersPage>('/_api/orders/customer')).body.orders.map((o) => o.id);
    expect(mine.sort()).toEqual([a.id, b.id].sort());
  });

  it('queues units sold and adds them into the popularity sort with the next background flush', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shopA.id, { stockQuantity: 9 });
    await client.post('/_api/cart/add', { productId: p.id, quantity: 4 });
    expect((await postCheckout(client)).status).toBe(201);
    const raw = async () =>
      (await api.db.knex('products').where({ id: p.id }).first('stock_quantity', 'units_sold')) as {
        stock_quantity: number;
        units_sold: number;
      };
    // Stock moves in the checkout's transaction; the sale waits in the queue.
    expect(await raw()).toEqual({ stock_quantity: 5, units_sold: 0 });
    expect(await api.db.knex('product_sales_pending').where({ product_id: p.id }).select('quantity')).toEqual(
      [{ quantity: 4 }],
    );
    await api.handle.background.runNow('orders:units-sold');
    expect(await raw()).toEqual({ stock_quantity: 5, units_sold: 4 });
    expect(await api.db.knex('product_sales_pending').where({ product_id: p.id })).toEqual([]);
    // A second flush finds nothing to add.
    await api.handle.background.runNow('orders:units-sold');
    expect(await raw()).toEqual({ stock_quantity: 5, units_sold: 4 });
    const top = await client.get<{ products: { id: number }[] }>(
      `/_api/products/list?sellerId=${shopA.id}&sortBy=popularity&limit=1`,
    );
    expect(top.body.products[0].id).toBe(p.id);
  });

  it('refuses a cart with an unavailable line, naming the product, and changes nothing', async () => {
    const { user, client } = await newCustomer(api);
    const keep = await buildProduct(api.db.knex, shopA.id, { stockQuantity: 4 });
    const gone = await buildProduct(api.db.knex, shopA.id, { name: 'Kundan earrings', stockQuantity: 4 });
    await client.post('/_api/cart/add', { productId: keep.id, quantity: 1 });
    await client.post('/_api/cart/add', { productId: gone.id, quantity: 1 });
    await api.db.knex('products').where({ id: gone.id }).update({ deleted_at: new Date() });
    const res = await postCheckout(client);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: '"Kundan earrings" is no longer available. Please remove it from your cart.',
      code: 'product_unavailable',
    });
    expect(await productState(api, keep.id)).toEqual({ stock_quantity: 4, units_sold: 0 });
    expect(await orderCount(user.id)).toBe(0);
  });

  it('refuses more than the stock with 409, rolls everything back, and the same key works once fixed', async () => {
    const { user, client } = await newCustomer(api);
    const first = await buildProduct(api.db.knex, shopA.id, { stockQuantity: 5 });
    const short = await buildProduct(api.db.knex, shopB.id, { stockQuantity: 5 });
    await client.post('/_api/cart/add', { productId: first.id, quantity: 2 });
    const line = await client.post<{ cartItemId: number }>('/_api/cart/add', {
      productId: short.id,
      quantity: 3,
    });
    await api.db.knex('products').where({ id: short.id }).update({ stock_quantity: 1 });

    const key = crypto.randomUUID();
    const res = await postCheckout(client, checkoutBody(), key);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'Only 1 item(s) available in stock',
      code: 'insufficient_stock',
    });
    expect(await productState(api, first.id)).toEqual({ stock_quantity: 5, units_sold: 0 });
    expect(await productState(api, short.id)).toEqual({ stock_quantity: 1, units_sold: 0 });
    expect(await orderCount(user.id)).toBe(0);
    expect((await client.get<{ items: unknown[] }>('/_api/cart/list')).body.items).toHaveLength(2);

    await client.post('/_api/cart/update', { cartItemId: line.body.cartItemId, quantity: 1 });
    const retry = await postCheckout(client, checkoutBody(), key);
    expect(retry.status).toBe(201);
    expect(await productState(api, short.id)).toEqual({ stock_quantity: 0, units_sold: 1 });
  });

  it('maps a database constraint violation to a clear 409, leaving nothing behind', async () => {
    await api.db.knex.raw(
      `alter table orders add constraint test_no_blockville check (city <> 'Blockville')`,
    );
    try {
      const { user, client } = await newCustomer(api);
      const p = await buildProduct(api.db.knex, shopA.id, { stockQuantity: 3 });
      await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
      const res = await postCheckout(client, checkoutBody({ city: 'Blockville' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: 'Your cart changed while the order was being placed. Please review your cart and try again.',
        code: 'checkout_conflict',
      });
      expect(await productState(api, p.id)).toEqual({ stock_quantity: 3, units_sold: 0 });
      expect(await orderCount(user.id)).toBe(0);
    } finally {
      await api.db.knex.raw('alter table orders drop constraint test_no_blockville');
    }
  });
});

describe('idempotency', () => {
  it('replays the same answer for the same key and body, without a second order', async () => {
    const { user, client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shopA.id, { stockQuantity: 5 });
    await client.post('/_api/cart/add', { productId: p.id, quantity: 2 });
    const key = crypto.randomUUID();
    const first = await postCheckout(client, checkoutBody(), key);
    expect(first.status).toBe(201);
    // Same fields in another order: still the same request.
    const reordered = Object.fromEntries(Object.entries(checkoutBody()).reverse());
    const again = await postCheckout(client, reordered, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.body.orders[0].id).toBe(first.body.orders[0].id);
    expect(await orderCount(user.id)).toBe(1);
    expect(await productState(api, p.id)).toEqual({ stock_quantity: 3, units_sold: 2 });
  });

  it('replays an answer stored whole (before keys kept order ids) as it was stored', async () => {
    const { user, client } = await newCustomer(api);
    const key = crypto.randomUUID();
    const hash = checkoutRequestHash(CheckoutSchema.parse(checkoutBody()));
    const stored = { orders: [], checkoutRef: 'ref-stored-whole' };
    await api.db.knex('idempotency_keys').insert({
      user_id: user.id,
      scope: 'checkout',
      key,
      request_hash: hash,
      state: 'completed',
      response_status: 201,
      response_body: JSON.stringify(stored),
    });
    const res = await postCheckout(client, checkoutBody(), key);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(stored);
  });

  it('refuses the same key with a different body', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shopA.id);
    await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    const key = crypto.randomUUID();
    expect((await postCheckout(client, checkoutBody(), key)).status).toBe(201);
    const res = await postCheckout(client, checkoutBody({ city: 'Chennai' }), key);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: 'This Idempotency-Key was already used with a different request.',
      code: 'idempotency_key_reused',
    });
  });

  it('keys belong to one customer: another customer may use the same key', async () => {
    const a = await newCustomer(api);
    const b = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shopA.id);
    await a.client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    await b.client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    const key = crypto.randomUUID();
    const ra = await postCheckout(a.client, checkoutBody(), key);
    const rb = await postCheckout(b.client, checkoutBody(), key);
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.body.orders[0].id).not.toBe(ra.body.orders[0].id);
  });

  it('a second tab with a new key finds the cart empty and never makes a second order', async () => {
    const { user, client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shopA.id, { stockQuantity: 5 });
    await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    expect((await postCheckout(client)).status).toBe(201);
    const second = await postCheckout(client);
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('Your cart is empty.');
    expect(await orderCount(user.id)).toBe(1);
    expect(await productState(api, p.id)).toEqual({ stock_quantity: 4, units_sold: 1 });
  });

  it('answers 409 while the same key is still being processed, and takes over a stale claim', async () => {
    const { user, client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shopA.id);
    await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    const key = crypto.randomUUID();
    const hash = checkoutRequestHash(CheckoutSchema.parse(checkoutBody()));
    await api.db
      .knex('idempotency_keys')
      .insert({ user_id: user.id, scope: 'checkout', key, request_hash: hash });
    const busy = await postCheckout(client, checkoutBody(), key);
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual({
      error: 'This checkout is already being processed.',
      code: 'checkout_in_progress',
    });
    expect(await orderCount(user.id)).toBe(0);

    // A claim left by a request that died long ago does not block the customer forever.
    await api.db
      .knex('idempotency_keys')
      .where({ user_id: user.id, key })
      .update({ created_at: new Date(Date.now() - 5 * 60_000) });
    const res = await postCheckout(client, checkoutBody(), key);
    expect(res.status).toBe(201);
    expect(await orderCount(user.id)).toBe(1);
  });
});
