import { ALWAYS_OPEN } from '../../api/contract/shop-hours';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProduct, buildSeller, buildUser, type BuiltSeller, type BuiltUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

/**
 * Every /_api/seller*, /_api/products/*, /_api/admin/* and /_api/order(s)/* endpoint, driven as each kind of
 * user, with the status each must answer. The endpoint list is read from the running router, so a new
 * endpoint in these areas fails this test until someone decides who may use it.
 */

type Actor = 'visitor' | 'customer' | 'sellerA' | 'sellerB' | 'admin';
const ACTORS: Actor[] = ['visitor', 'customer', 'sellerB', 'sellerA', 'admin'];
const GUARDED_PATH = /^\/_api\/(seller|sellers|products|admin|orders?)\//;

interface Entry {
  method: 'GET' | 'POST';
  path: string;
  /** Query string and/or body for one actor's request (may build fresh fixtures). */
  request: (actor: Actor) => Promise<{ query?: string; body?: unknown }> | { query?: string; body?: unknown };
  expect: Record<Actor, number>;
}

let api: TestApi;
let clients: Record<Actor, ApiClient>;
let customer: BuiltUser;
let sellerA: BuiltSeller;
let sellerB: BuiltSeller;
let productA: number;
let orderA: number;
let png: string;

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

async function insertOrder(sellerId: number, productId: number, status: string): Promise<number> {
  const [order] = (await api.db
    .knex('orders')
    .insert({
      customer_id: customer.id,
      seller_id: sellerId,
      checkout_ref: crypto.randomUUID(),
      status,
      subtotal: '15000.00',
      total_amount: '15000.00',
      customer_name: 'Kavya',
      customer_phone: '9876543210',
      shipping_address: '5 Lake View Road',
      city: 'Chennai',
      state: 'Tamil Nadu',
      pin_code: '600001',
      payment_method: 'cash_on_delivery',
      // A delivered cash-on-delivery order has had its cash collected (it can be rated).
      payment_status: status === 'delivered' ? 'cash_collected' : 'cash_due',
    })
    .returning('id')) as { id: number }[];
  await api.db.knex('order_items').insert({
    order_id: order.id,
    product_id: productId,
    product_name: 'Gold chain',
    price: '15000.00',
    quantity: 1,
  });
  return order.id;
}

const shop = {
  shopName: 'Matrix Jewellers',
  shopAddress: '12 Big Bazaar Street, Town Hall',
  city: 'Coimbatore',
  state: 'Tamil Nadu',
  pincode: '641001',
  phone: '9876543210',
};

const all = (status: number): Record<Actor, number> => ({
  visitor: status,
  customer: status,
  sellerA: status,
  sellerB: status,
  admin: status,
});

beforeAll(async () => {
  api = await startTestApi();
  const sharp = (await import('sharp')).default;
  const buf = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#d4af37' } })
    .png()
    .toBuffer();
  png = `data:image/png;base64,${buf.toString('base64')}`;
  customer = await buildUser(api.db.knex, { role: 'customer' });
  sellerA = await buildSeller(api.db.knex);
  sellerB = await buildSeller(api.db.knex);
  const admin = await buildUser(api.db.knex, { role: 'admin' });
  productA = (await buildProduct(api.db.knex, sellerA.id)).id;
  orderA = await insertOrder(sellerA.id, productA, 'pending');
  clients = {
    visitor: api.client(),
    customer: await signIn(customer),
    sellerA: await signIn(sellerA),
    sellerB: await signIn(sellerB),
    admin: await signIn(admin),
  };
});
afterAll(async () => api?.close());

/** orderA with a tax invoice (an order inserted here has none; checkout issues it). */
async function invoicedOrder(): Promise<number> {
  await api.db.knex.raw(
    `insert into invoices (order_id, seller_id, kind, fy, seq, number, issued_at, seller_legal_name, seller_address,
                           buyer_name, buyer_address, buyer_state)
     values (?, ?, 'invoice', '2026-27', 1, 'MTX/2026-27/000001', now(), 'Matrix Jewellers', '12 Big Bazaar Street',
             'Kavya', '5 Lake View Road', 'Tamil Nadu')
     on conflict do nothing`,
    [orderA, sellerA.id],
  );
  return orderA;
}

// In order: the admin registers a shop only in the last entry, so before it the admin has no profile.
const MATRIX: Entry[] = [
  {
    method: 'GET',
    path: '/_api/seller/profile',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 404 },
  },
  {
    method: 'POST',
    path: '/_api/seller/profile/setup',
    request: () => ({ body: shop }),
    expect: { visitor: 401, customer: 403, sellerA: 409, sellerB: 409, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/seller/profile/update',
    request: () => ({ body: { videoCallEnabled: true } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 404 },
  },
  // Shop hours and away (issue #22): the shop's own; an admin without a shop has none.
  {
    method: 'GET',
    path: '/_api/seller/hours',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 404 },
  },
  {
    method: 'POST',
    path: '/_api/seller/hours',
    request: () => ({
      body: { timeZone: 'Asia/Kolkata', hours: ALWAYS_OPEN, away: false, awayMessage: null },
    }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 404 },
  },
  // Video appointments (issue #22): the shop's own list, reschedule and settings; sellers only.
  {
    method: 'GET',
    path: '/_api/seller/appointments',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/seller/appointments/reschedule',
    request: () => ({
      body: {
        appointmentId: 999_999,
        startsAt: new Date(Date.now() + 86_400_000).toISOString(),
        reason: 'x',
      },
    }),
    expect: { visitor: 401, customer: 403, sellerA: 404, sellerB: 404, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/seller/appointment-settings',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/seller/appointment-settings',
    request: () => ({ body: { slotMinutes: 30, bufferMinutes: 0, breaks: [] } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/seller/store',
    request: () => ({ query: `slug=${sellerA.urlSlug}` }),
    expect: all(200),
  },
  {
    method: 'GET',
    path: '/_api/seller/store/by-id',
    request: () => ({ query: `sellerId=${sellerA.id}` }),
    expect: all(200),
  },
  { method: 'GET', path: '/_api/sellers/list', request: () => ({}), expect: all(200) },
  { method: 'GET', path: '/_api/sellers/top', request: () => ({}), expect: all(200) },
  { method: 'GET', path: '/_api/products/list', request: () => ({}), expect: all(200) },
  {
    method: 'GET',
    path: '/_api/products/get',
    request: () => ({ query: `id=${productA}` }),
    expect: all(200),
  },
  {
    method: 'POST',
    path: '/_api/products/create',
    request: () => ({
      body: {
        name: 'Matrix Ring',
        description: 'A ring made for the permission matrix.',
        price: '1000',
        category: 'rings',
        material: 'silver',
        images: [png],
      },
    }),
    expect: { visitor: 401, customer: 403, sellerA: 201, sellerB: 201, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/products/update',
    request: () => ({ body: { id: productA, name: 'Matrix Chain' } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 404, admin: 200 },
  },
  {
    method: 'POST',
    path: '/_api/products/delete',
    request: async () => ({ body: { id: (await buildProduct(api.db.knex, sellerA.id)).id } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 404, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/products/open-orders',
    request: () => ({ query: `id=${productA}` }),
    // The shop's own product only (an admin may look at any, as they may delete any).
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 404, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/seller/products/export.csv',
    request: () => ({}),
    // Each shop's own products (an admin's shop, when they have one): nobody reads another shop's file.
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 200 },
  },
  {
    method: 'POST',
    path: '/_api/seller/products/import',
    // Another shop's id is a row error in the answer (tests/api/products-csv.test.ts), never a change.
    request: () => ({ body: { csv: `id,stockQuantity\n${productA},5\n` } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/admin/sellers',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/admin/customers',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/admin/call-quality',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 200 },
  },
  {
    method: 'POST',
    path: '/_api/admin/seller/approve',
    request: async () => ({
      body: { sellerUserId: (await buildSeller(api.db.knex, { isApproved: null })).id, isApproved: true },
    }),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/orders/customer',
    request: () => ({}),
    expect: { visitor: 401, customer: 200, sellerA: 403, sellerB: 403, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/orders/seller',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/order/details',
    request: () => ({ query: `orderId=${orderA}` }),
    expect: { visitor: 401, customer: 200, sellerA: 200, sellerB: 404, admin: 200 },
  },
  {
    method: 'POST',
    path: '/_api/orders/update-status',
    request: async () => ({
      body: { orderId: await insertOrder(sellerA.id, productA, 'pending'), status: 'confirmed' },
    }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 404, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/orders/rate',
    request: async () => ({
      body: { orderId: await insertOrder(sellerA.id, productA, 'delivered'), productId: productA, stars: 5 },
    }),
    expect: { visitor: 401, customer: 200, sellerA: 403, sellerB: 403, admin: 403 },
  },
  // Pricing and the GST invoice (issue #25).
  {
    method: 'GET',
    path: '/_api/seller/rates',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/seller/rates',
    request: () => ({ body: { rates: [{ metal: 'gold', purity: '22K', ratePerGram: '6750' }] } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/seller/tax-settings',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/seller/tax-settings',
    request: () => ({
      body: {
        legalName: 'Matrix Jewellers',
        gstin: '33ABCDE1234F1Z5',
        stateCode: '33',
        invoicePrefix: 'MTX',
      },
    }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/admin/huid-missing',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 200 },
  },
  {
    method: 'GET',
    path: '/_api/order/invoice',
    request: async () => ({ query: `orderId=${await invoicedOrder()}` }),
    expect: { visitor: 401, customer: 200, sellerA: 200, sellerB: 404, admin: 404 },
  },
  {
    method: 'GET',
    path: '/_api/order/invoice.pdf',
    request: async () => ({ query: `orderId=${await invoicedOrder()}` }),
    expect: { visitor: 401, customer: 200, sellerA: 200, sellerB: 404, admin: 404 },
  },
  // Payments (issue #24): the shop's cash-on-delivery setting and ledger are its own; payouts are the admin's.
  {
    method: 'GET',
    path: '/_api/seller/payment-settings',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'POST',
    path: '/_api/seller/payment-settings',
    request: () => ({ body: { cashOnDelivery: true } }),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/seller/ledger',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 200, sellerB: 200, admin: 403 },
  },
  {
    method: 'GET',
    path: '/_api/admin/ledger',
    request: () => ({}),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 200 },
  },
  {
    method: 'POST',
    path: '/_api/admin/payouts',
    request: async () => {
      // Money the platform owes shop A, so the admin's payout has something to pay: the sale of an order
      // delivered and past its return window (docs/security.md "Payouts").
      const delivered = await insertOrder(sellerA.id, productA, 'delivered');
      await api.db
        .knex('orders')
        .where({ id: delivered })
        .update({ delivered_at: new Date(Date.now() - 30 * 86_400_000) });
      await api.db
        .knex('ledger_entries')
        .insert({ seller_id: sellerA.id, order_id: delivered, kind: 'sale', amount_paise: 10_000 });
      return { body: { sellerId: sellerA.id, amountPaise: 10_000, reference: 'UTR0001' } };
    },
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 201 },
  },
  {
    method: 'POST',
    path: '/_api/seller/register',
    request: () => ({ body: { ...shop, shopName: 'Admin Matrix Shop' } }),
    expect: { visitor: 401, customer: 403, sellerA: 403, sellerB: 403, admin: 201 },
  },
];

const key = (method: string, path: string) => `${method} ${path}`;

/** The method+path pairs the app's router serves in the guarded areas. */
function servedEndpoints(): string[] {
  const found = new Set<string>();
  for (const mw of api.handle.app.middleware) {
    const router = (mw as { router?: { stack: { path: string; methods: string[] }[] } }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (!GUARDED_PATH.test(layer.path)) continue;
      for (const method of layer.methods) if (method !== 'HEAD') found.add(key(method, layer.path));
    }
  }
  return [...found].sort();
}

describe('permission matrix: seller, product, admin and order endpoints', () => {
  it('covers every endpoint the router serves in these areas', () => {
    const served = servedEndpoints();
    expect(served.length).toBeGreaterThan(10);
    expect(MATRIX.map((e) => key(e.method, e.path)).sort()).toEqual(served);
  });

  it('answers each actor with the expected status', async () => {
    const got: Record<string, Record<Actor, number>> = {};
    const want: Record<string, Record<Actor, number>> = {};
    for (const entry of MATRIX) {
      const k = key(entry.method, entry.path);
      got[k] = {} as Record<Actor, number>;
      want[k] = entry.expect;
      for (const actor of ACTORS) {
        const { query, body } = await entry.request(actor);
        const url = query ? `${entry.path}?${query}` : entry.path;
        const res = await clients[actor].request(
          entry.method,
          url,
          entry.method === 'POST' ? { body: body ?? {} } : {},
        );
        got[k][actor] = res.status;
      }
    }
    expect(got).toEqual(want);
  });

  it('leaves seller A’s product as its owner and the admin changed it, whatever seller B tried', async () => {
    const row = await api.db
      .knex('products')
      .where({ id: productA })
      .first('name', 'seller_id', 'deleted_at');
    expect(row).toEqual({ name: 'Matrix Chain', seller_id: sellerA.id, deleted_at: null });
  });
});
