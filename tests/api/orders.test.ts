import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUSES, ORDER_TRANSITIONS } from '../../api/contract/constants';
import type { Order, OrdersPage } from '../../api/contract/orders';
import { buildProduct, buildSeller, buildUser, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { buy, newCustomer, productState, signIn } from './checkout-support';

let api: TestApi;
let shop: BuiltSeller;
let otherShop: BuiltSeller;
let asShop: ApiClient;
let asOtherShop: ApiClient;
let admin: ApiClient;
beforeAll(async () => {
  api = await startTestApi();
  shop = await buildSeller(api.db.knex);
  otherShop = await buildSeller(api.db.knex);
  asShop = await signIn(api, shop);
  asOtherShop = await signIn(api, otherShop);
  admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
});
afterAll(async () => api?.close());

/** A fresh customer with one pending order of `quantity` units from `shop`. */
async function pendingOrder(quantity = 1, stockQuantity: number | null = 10) {
  const c = await newCustomer(api);
  const p = await buildProduct(api.db.knex, shop.id, { stockQuantity });
  const [order] = await buy(c.client, [{ productId: p.id, quantity }]);
  return { ...c, product: p, order };
}

const move = (client: ApiClient, orderId: number, status: string) =>
  client.post<{ success: boolean; order: Order; error?: string; code?: string }>(
    '/_api/orders/update-status',
    { orderId, status, ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}) },
  );

describe('order lists', () => {
  it('pages the customer list newest first and filters in-progress and completed', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, shop.id, { stockQuantity: null });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await buy(client, [{ productId: p.id, quantity: 1 }]))[0].id);
    await api.db.knex('orders').where({ id: ids[0] }).update({ status: 'delivered' });
    await api.db.knex('orders').where({ id: ids[1] }).update({ status: 'cancelled' });

    const page1 = await client.get<OrdersPage>('/_api/orders/customer?page=1&pageSize=2');
    expect(page1.status).toBe(200);
    expect(page1.body.orders.map((o) => o.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pagination).toEqual({ currentPage: 1, pageSize: 2, totalOrders: 3, totalPages: 2 });
    const page2 = await client.get<OrdersPage>('/_api/orders/customer?page=2&pageSize=2');
    expect(page2.body.orders.map((o) => o.id)).toEqual([ids[0]]);

    const defaults = await client.get<OrdersPage>('/_api/orders/customer');
    expect(defaults.body.pagination).toEqual({ currentPage: 1, pageSize: 10, totalOrders: 3, totalPages: 1 });
    const list = async (status: string) =>
      (await client.get<OrdersPage>(`/_api/orders/customer?status=${status}`)).body.orders.map((o) => o.id);
    expect(await list('in-progress')).toEqual([ids[2]]);
    expect(await list('completed')).toEqual([ids[0]]);
    expect(await list('cancelled')).toEqual([ids[1]]);
    expect(await list('shipped')).toEqual([]);
    expect(await list('all')).toHaveLength(3);
  });

  it('validates page, pageSize and status', async () => {
    const { client } = await newCustomer(api);
    for (const q of ['page=0', 'page=-1', 'page=x', 'pageSize=0', 'pageSize=101', 'status=lost']) {
      const res = await client.get(`/_api/orders/customer?${q}`);
      expect(res.status, q).toBe(400);
    }
    expect((await client.get('/_api/orders/customer?page=0')).body.error).toBe(
      'Page must be a positive integer.',
    );
    expect((await asShop.get('/_api/orders/seller?status=in-progress')).status).toBe(400);
  });

  it("lists only the seller's own shop orders, with the status filter", async () => {
    const mine = await pendingOrder();
    const other = await newCustomer(api);
    const op = await buildProduct(api.db.knex, otherShop.id);
    const [theirs] = await buy(other.client, [{ productId: op.id, quantity: 1 }]);
    const res = await asShop.get<OrdersPage>('/_api/orders/seller?pageSize=100');
    const ids = res.body.orders.map((o) => o.id);
    expect(ids).toContain(mine.order.id);
    expect(ids).not.toContain(theirs.id);
    expect(res.body.orders.every((o) => o.seller.id === shop.id)).toBe(true);
    const pending = await asShop.get<OrdersPage>('/_api/orders/seller?status=pending&pageSize=100');
    expect(pending.body.orders.every((o) => o.status === 'pending')).toBe(true);
    const delivered = await asShop.get<OrdersPage>('/_api/orders/seller?status=delivered');
    expect(delivered.body.orders.map((o) => o.id)).not.toContain(mine.order.id);
  });

  it('keeps each list to its role', async () => {
    const { client } = await newCustomer(api);
    const onSeller = await client.get('/_api/orders/seller');
    expect(onSeller.status).toBe(403);
    expect(onSeller.body).toMatchObject({
      error: 'Access denied. Your role (customer) lacks required permissions.',
    });
    const onCustomer = await asShop.get('/_api/orders/customer');
    expect(onCustomer.status).toBe(403);
    expect(onCustomer.body).toMatchObject({
      error: 'Access denied. Your role (seller) lacks required permissions.',
    });
    expect((await api.client().get('/_api/orders/customer')).status).toBe(401);
    expect((await api.client().get('/_api/orders/seller')).status).toBe(401);
  });
});

describe('order details', () => {
  it('shows an order to its customer, its seller and any admin; anyone else gets Order Not Found', async () => {
    const { client, order } = await pendingOrder();
    const path = `/_api/order/details?orderId=${order.id}`;
    for (const viewer of [client, asShop, admin]) {
      const res = await viewer.get<{ order: Order }>(path);
      expect(res.status).toBe(200);
      expect(res.body.order.id).toBe(order.id);
      expect(res.body.order.items).toHaveLength(1);
    }
    const stranger = (await newCustomer(api)).client;
    for (const viewer of [stranger, asOtherShop]) {
      const res = await viewer.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Order Not Found', code: 'not_found' });
    }
    expect((await client.get('/_api/order/details?orderId=999999')).body.error).toBe('Order Not Found');
    expect((await api.client().get(path)).status).toBe(401);
  });

  it('requires a positive integer order id', async () => {
    for (const q of ['', '?orderId=0', '?orderId=abc', '?orderId=1.5', '?orderId=2147483648']) {
      const res = await asShop.get(`/_api/order/details${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toBe('Order ID must be a positive integer.');
    }
  });
});

describe('order status moves', () => {
  it('allows exactly the ORDER_TRANSITIONS edges and refuses every other with a clear message', async () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const { order } = await pendingOrder();
        await api.db.knex('orders').where({ id: order.id }).update({ status: from });
        const res = await move(asShop, order.id, to);
        if (ORDER_TRANSITIONS[from].includes(to)) {
          expect(res.status, `${from}→${to}`).toBe(200);
          expect(res.body.success).toBe(true);
          expect(res.body.order.status).toBe(to);
        } else {
          expect(res.status, `${from}→${to}`).toBe(400);
          expect(res.body).toEqual({
            error: `Cannot change an order from ${from} to ${to}.`,
            code: 'invalid_transition',
          });
        }
      }
    }
  });

  it('moves an order pending → confirmed → shipped → delivered through the API', async () => {
    const { order, client } = await pendingOrder();
    for (const status of ['confirmed', 'shipped', 'delivered']) {
      const res = await move(asShop, order.id, status);
      expect(res.status).toBe(200);
      expect(res.body.order.status).toBe(status);
    }
    const seen = await client.get<{ order: Order }>(`/_api/order/details?orderId=${order.id}`);
    expect(seen.body.order.status).toBe('delivered');
    expect(seen.body.order.canRate).toBe(true);
  });

  it('refuses an unknown status and a malformed request', async () => {
    const { order } = await pendingOrder();
    const res = await move(asShop, order.id, 'lost');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid order status.');
    expect((await move(asShop, order.id, '')).body.error).toBe('Status is required.');
    expect((await move(asShop, 0, 'confirmed')).body.error).toBe('Order ID must be a positive integer.');
  });

  it('lets only the seller of the order move it', async () => {
    const { order, client } = await pendingOrder();
    const asCustomer = await move(client, order.id, 'cancelled');
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error).toBe('Access denied. Your role (customer) lacks required permissions.');
    expect((await move(admin, order.id, 'confirmed')).status).toBe(403);
    const other = await move(asOtherShop, order.id, 'confirmed');
    expect(other.status).toBe(404);
    expect(other.body.error).toBe('Order Not Found');
    expect((await move(asShop, 999_999, 'confirmed')).status).toBe(404);
    expect(
      (await api.client().post('/_api/orders/update-status', { orderId: order.id, status: 'confirmed' }))
        .status,
    ).toBe(401);
    const row = (await api.db.knex('orders').where({ id: order.id }).first('status')) as { status: string };
    expect(row.status).toBe('pending');
  });

  it('cancelling restores stock and units sold exactly once', async () => {
    const { order, product } = await pendingOrder(3, 10);
    expect(await productState(api, product.id)).toEqual({ stock_quantity: 7, units_sold: 3 });
    expect((await move(asShop, order.id, 'confirmed')).status).toBe(200);
    expect(await productState(api, product.id)).toEqual({ stock_quantity: 7, units_sold: 3 });
    const res = await move(asShop, order.id, 'cancelled');
    expect(res.status).toBe(200);
    expect(res.body.order.status).toBe('cancelled');
    expect(await productState(api, product.id)).toEqual({ stock_quantity: 10, units_sold: 0 });
    const again = await move(asShop, order.id, 'cancelled');
    expect(again.status).toBe(400);
    expect(await productState(api, product.id)).toEqual({ stock_quantity: 10, units_sold: 0 });
    const row = (await api.db.knex('orders').where({ id: order.id }).first('stock_restored')) as {
      stock_restored: boolean;
    };
    expect(row.stock_restored).toBe(true);
  });

  it('refuses a cancellation without a reason (422), and "other" without words; nothing changes', async () => {
    const { order, product } = await pendingOrder(2, 10);
    const bare = (body: Record<string, unknown>) =>
      asShop.post<{ error?: string; code?: string }>('/_api/orders/update-status', {
        orderId: order.id,
        status: 'cancelled',
        ...body,
      });
    const none = await bare({});
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({
      code: 'cancel_reason_required',
      error: 'Choose why the order is cancelled: the customer is told the reason.',
    });
    const other = await bare({ cancelReason: 'other', cancelNote: '   ' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('cancel_note_required');
    const unknown = await bare({ cancelReason: 'changed_my_mind' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Choose one of the reasons offered.');
    expect((await bare({ cancelReason: 'other', cancelNote: 'x'.repeat(201) })).status).toBe(400);
    const row = (await api.db.knex('orders').where({ id: order.id }).first('status', 'cancel_reason')) as {
      status: string;
      cancel_reason: string | null;
    };
    expect(row).toEqual({ status: 'pending', cancel_reason: null });
    expect(await productState(api, product.id)).toEqual({ stock_quantity: 8, units_sold: 2 });
  });

  it("stores the shop's reason and shows it on the customer's order (details and list)", async () => {
    const { order, client } = await pendingOrder();
    const res = await asShop.post<{ order: Order }>('/_api/orders/update-status', {
      orderId: order.id,
      status: 'cancelled',
      cancelReason: 'other',
      cancelNote: '  The clasp failed our check  ',
    });
    expect(res.status).toBe(200);
    const reason = { reason: 'other', note: 'The clasp failed our check' };
    expect(res.body.order.cancellation).toEqual(reason);
    const seen = await client.get<{ order: Order }>(`/_api/order/details?orderId=${order.id}`);
    expect(seen.body.order).toMatchObject({ status: 'cancelled', cancellation: reason });
    const listed = await client.get<OrdersPage>('/_api/orders/customer?status=cancelled');
    expect(listed.body.orders.find((o) => o.id === order.id)?.cancellation).toEqual(reason);

    // A listed reason keeps no words; an order not cancelled has no cancellation.
    const second = await pendingOrder();
    const listedReason = await move(asShop, second.order.id, 'cancelled');
    expect(listedReason.body.order.cancellation).toEqual({ reason: 'out_of_stock', note: null });
    const live = await pendingOrder();
    expect((await move(asShop, live.order.id, 'confirmed')).body.order.cancellation).toBeNull();
  });

  it('cancelling an order of an unlimited product keeps its stock unlimited', async () => {
    const { order, product } = await pendingOrder(2, null);
    expect((await move(asShop, order.id, 'cancelled')).status).toBe(200);
    expect(await productState(api, product.id)).toEqual({ stock_quantity: null, units_sold: 0 });
  });
});
