import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProduct, buildSeller, buildUser, type BuiltSeller, type BuiltUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { createTestDatabase } from '../support/db';
import { checkoutBody, postCheckout, productState, signIn } from './checkout-support';

// Row-lock concurrency can only be proven on a real PostgreSQL server: this file runs on api-pg only.

const CUSTOMERS = 50;
const STOCK = 10;
const ROUNDS = 20;

let api: TestApi;
let shop: BuiltSeller;
let asShop: ApiClient;
let customers: { user: BuiltUser; client: ApiClient }[] = [];
beforeAll(async () => {
  const db = await createTestDatabase('pg', { poolMax: 20, connectionTimeoutMs: 20_000 });
  // The same customers check out round after round at one shop: the caps on unpaid orders and on a shop's units
  // in them are other tests' subjects.
  api = await startTestApi({
    db,
    env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000', UNPAID_UNITS_MAX_PER_SHOP: '100000' },
  });
  shop = await buildSeller(api.db.knex);
  asShop = await signIn(api, shop);
  customers = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const user = await buildUser(api.db.knex, { role: 'customer' });
    customers.push({ user, client: await signIn(api, user) });
  }
});
afterAll(async () => api?.close());

const ordersOfProduct = async (productId: number) =>
  Number(
    (
      (await api.db.knex('order_items').where({ product_id: productId }).count({ n: '*' })) as {
        n: unknown;
      }[]
    )[0].n,
  );

describe('checkout under concurrency', () => {
  it(`${CUSTOMERS} customers racing for ${STOCK} units: exactly ${STOCK} orders, stock 0, no 500 — ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const p = await buildProduct(api.db.knex, shop.id, { stockQuantity: STOCK });
      await api.db.knex('cart_items').delete();
      await api.db
        .knex('cart_items')
        .insert(customers.map((c) => ({ user_id: c.user.id, product_id: p.id, quantity: 1 })));

      const results = await Promise.all(customers.map((c) => postCheckout(c.client)));
      const statuses = results.map((r) => r.status);
      const label = `round ${round}: ${JSON.stringify(statuses)}`;
      expect(statuses.filter((s) => s === 201).length, label).toBe(STOCK);
      for (const r of results.filter((x) => x.status !== 201)) {
        expect([400, 409], label).toContain(r.status);
        expect(r.body.error, label).toMatch(/item\(s\) available in stock|no longer available|cart is empty/);
      }
      expect(await productState(api, p.id)).toEqual({ stock_quantity: 0, units_sold: STOCK });
      expect(await ordersOfProduct(p.id)).toBe(STOCK);
      // Winners' carts are empty, losers' carts are intact.
      const left = (await api.db.knex('cart_items').where({ product_id: p.id }).select('user_id')) as {
        user_id: number;
      }[];
      expect(left).toHaveLength(CUSTOMERS - STOCK);
    }
  }, 600_000);

  it('two tabs checking out the same cart at once make one order', async () => {
    const p = await buildProduct(api.db.knex, shop.id, { stockQuantity: null });
    for (let round = 0; round < 10; round++) {
      const c = customers[round];
      await api.db.knex('cart_items').where({ user_id: c.user.id }).delete();
      await api.db.knex('cart_items').insert({ user_id: c.user.id, product_id: p.id, quantity: 2 });
      const before = await ordersOfProduct(p.id);
      const [a, b] = await Promise.all([postCheckout(c.client), postCheckout(c.client)]);
      expect([a.status, b.status].sort()).toEqual([201, 400]);
      expect([a, b].find((r) => r.status === 400)!.body.error).toBe('Your cart is empty.');
      expect(await ordersOfProduct(p.id)).toBe(before + 1);
    }
  });

  it('the same key sent twice at once never makes two orders', async () => {
    const p = await buildProduct(api.db.knex, shop.id, { stockQuantity: null });
    for (let round = 0; round < 10; round++) {
      const c = customers[round];
      await api.db.knex('cart_items').where({ user_id: c.user.id }).delete();
      await api.db.knex('cart_items').insert({ user_id: c.user.id, product_id: p.id, quantity: 1 });
      const before = await ordersOfProduct(p.id);
      const key = crypto.randomUUID();
      const [a, b] = await Promise.all([
        postCheckout(c.client, checkoutBody(), key),
        postCheckout(c.client, checkoutBody(), key),
      ]);
      const ok = [a, b].filter((r) => r.status === 201);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of [a, b].filter((x) => x.status !== 201)) {
        expect(r.status).toBe(409);
        expect(r.body.error).toBe('This checkout is already being processed.');
      }
      // Any second 201 is the replay of the first: the same order.
      expect(new Set(ok.map((r) => r.body.orders[0].id)).size).toBe(1);
      expect(await ordersOfProduct(p.id)).toBe(before + 1);
      const replay = await postCheckout(c.client, checkoutBody(), key);
      expect(replay.status).toBe(201);
      expect(replay.body.orders[0].id).toBe(ok[0].body.orders[0].id);
    }
  });

  it('a database error after the stock update leaves no order, no stock change and the cart intact', async () => {
    const c = customers[0];
    const plain = await buildProduct(api.db.knex, shop.id, { stockQuantity: 5 });
    const marker = await buildProduct(api.db.knex, shop.id, { name: 'BOOM marker ring', stockQuantity: 5 });
    const schema = api.db.schema!;
    await api.db.knex.raw(`
      create function ${schema}.test_fail_marker() returns trigger language plpgsql as $$
      begin
        if new.product_name = 'BOOM marker ring' then raise exception 'injected failure'; end if;
        return new;
      end $$`);
    await api.db.knex.raw(
      `create trigger test_fail_marker before insert on ${schema}.order_items
       for each row execute function ${schema}.test_fail_marker()`,
    );
    try {
      await api.db.knex('cart_items').where({ user_id: c.user.id }).delete();
      await api.db.knex('cart_items').insert([
        { user_id: c.user.id, product_id: plain.id, quantity: 2 },
        { user_id: c.user.id, product_id: marker.id, quantity: 1 },
      ]);
      const ordersBefore = Number(
        (
          (await api.db.knex('orders').where({ customer_id: c.user.id }).count({ n: '*' })) as {
            n: unknown;
          }[]
        )[0].n,
      );
      const key = crypto.randomUUID();
      const res = await postCheckout(c.client, checkoutBody(), key);
      expect(res.status).toBe(500);
      expect(res.body.error).toBe('Something went wrong on our side. Please try again.');
      expect(JSON.stringify(res.body)).not.toContain('injected');

      expect(await productState(api, plain.id)).toEqual({ stock_quantity: 5, units_sold: 0 });
      expect(await productState(api, marker.id)).toEqual({ stock_quantity: 5, units_sold: 0 });
      const ordersAfter = Number(
        (
          (await api.db.knex('orders').where({ customer_id: c.user.id }).count({ n: '*' })) as {
            n: unknown;
          }[]
        )[0].n,
      );
      expect(ordersAfter).toBe(ordersBefore);
      const cart = (await api.db.knex('cart_items').where({ user_id: c.user.id }).orderBy('product_id')) as {
        product_id: number;
        quantity: number;
      }[];
      expect(cart.map((l) => [l.product_id, l.quantity])).toEqual([
        [plain.id, 2],
        [marker.id, 1],
      ]);
      expect(await api.db.knex('idempotency_keys').where({ user_id: c.user.id, key })).toEqual([]);

      // Once the fault is gone, the same key goes through.
      await api.db.knex.raw(`drop trigger test_fail_marker on ${schema}.order_items`);
      const retry = await postCheckout(c.client, checkoutBody(), key);
      expect(retry.status).toBe(201);
      expect(await productState(api, plain.id)).toEqual({ stock_quantity: 3, units_sold: 2 });
    } finally {
      await api.db.knex.raw(`drop trigger if exists test_fail_marker on ${schema}.order_items`);
      await api.db.knex.raw(`drop function if exists ${schema}.test_fail_marker()`);
    }
  });
});

describe('status updates under concurrency', () => {
  const move = (orderId: number, status: string) =>
    asShop.post<{ error?: string; code?: string }>('/_api/orders/update-status', {
      orderId,
      status,
      ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}),
    });

  async function pendingOrder(quantity: number) {
    const c = customers[0];
    const p = await buildProduct(api.db.knex, shop.id, { stockQuantity: 10 });
    await api.db.knex('cart_items').where({ user_id: c.user.id }).delete();
    await api.db.knex('cart_items').insert({ user_id: c.user.id, product_id: p.id, quantity });
    const res = await postCheckout(c.client);
    expect(res.status).toBe(201);
    return { orderId: res.body.orders[0].id, productId: p.id };
  }

  /** Waits until `n` backends are blocked on a lock inside an update of orders. */
  async function waitForBlocked(n: number) {
    for (let i = 0; i < 200; i++) {
      const rows = (
        (await api.db.knex.raw(
          `select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query ilike '%update orders%'`,
        )) as { rows: { n: number }[] }
      ).rows;
      if (rows[0].n >= n) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`never saw ${n} blocked status updates`);
  }

  it('confirm and cancel that both read "pending": exactly one wins, the other gets 409; stock restored at most once', async () => {
    for (let round = 0; round < 10; round++) {
      const { orderId, productId } = await pendingOrder(3);
      // Hold the order row so both requests read "pending" and then queue on the guarded update.
      const holder = await api.db.knex.transaction();
      try {
        await holder.raw('select id from orders where id = ? for update', [orderId]);
        const pending = Promise.all([move(orderId, 'confirmed'), move(orderId, 'cancelled')]);
        await waitForBlocked(2);
        await holder.commit();
        const [confirm, cancel] = await pending;
        const statuses = [confirm.status, cancel.status].sort();
        expect(statuses, `round ${round}`).toEqual([200, 409]);
        const loser = confirm.status === 409 ? confirm : cancel;
        expect(loser.body).toEqual({
          error: 'This order was updated by someone else. Please refresh.',
          code: 'stale_order',
        });
        const row = (await api.db
          .knex('orders')
          .where({ id: orderId })
          .first('status', 'stock_restored')) as {
          status: string;
          stock_restored: boolean;
        };
        const state = await productState(api, productId);
        if (cancel.status === 200) {
          expect(row).toEqual({ status: 'cancelled', stock_restored: true });
          expect(state).toEqual({ stock_quantity: 10, units_sold: 0 });
        } else {
          expect(row).toEqual({ status: 'confirmed', stock_restored: false });
          expect(state).toEqual({ stock_quantity: 7, units_sold: 3 });
        }
      } finally {
        if (!holder.isCompleted()) await holder.rollback();
      }
    }
  });

  it('two cancels sent together restore stock exactly once', async () => {
    for (let round = 0; round < 10; round++) {
      const { orderId, productId } = await pendingOrder(4);
      const results = await Promise.all([move(orderId, 'cancelled'), move(orderId, 'cancelled')]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([400, 409]).toContain(statuses[1]);
      expect(await productState(api, productId)).toEqual({ stock_quantity: 10, units_sold: 0 });
    }
  });

  it('unsynchronised confirm and cancel never restore stock twice or leave it inconsistent', async () => {
    for (let round = 0; round < 10; round++) {
      const { orderId, productId } = await pendingOrder(2);
      const results = await Promise.all([move(orderId, 'confirmed'), move(orderId, 'cancelled')]);
      for (const r of results) expect([200, 400, 409]).toContain(r.status);
      const row = (await api.db.knex('orders').where({ id: orderId }).first('status')) as { status: string };
      const state = await productState(api, productId);
      expect(state).toEqual(
        row.status === 'cancelled'
          ? { stock_quantity: 10, units_sold: 0 }
          : { stock_quantity: 8, units_sold: 2 },
      );
    }
  });
});

describe('the units-sold flush beside checkouts', () => {
  it('skips a product a checkout holds locked, flushes the rest, and adds the skipped sale next time', async () => {
    const held = await buildProduct(api.db.knex, shop.id, { stockQuantity: 50 });
    const free = await buildProduct(api.db.knex, shop.id, { stockQuantity: 50 });
    await api.db.knex('product_sales_pending').insert([
      { product_id: held.id, quantity: 3 },
      { product_id: free.id, quantity: 2 },
      { product_id: free.id, quantity: -1 },
    ]);
    const sold = async (id: number) =>
      ((await api.db.knex('products').where({ id }).first('units_sold')) as { units_sold: number })
        .units_sold;

    // A transaction holding the product's row lock, as a checkout does while it runs.
    const trx = await api.db.knex.transaction();
    try {
      await trx.raw('select id from products where id = ? for update', [held.id]);
      const flushed = await Promise.race([
        api.handle.background.runNow('orders:units-sold').then(() => 'flushed'),
        new Promise((r) => setTimeout(() => r('waited'), 5_000)),
      ]);
      expect(flushed).toBe('flushed');
      expect(await sold(free.id)).toBe(1);
      expect(await sold(held.id)).toBe(0);
      expect(
        await api.db.knex('product_sales_pending').where({ product_id: held.id }).select('quantity'),
      ).toEqual([{ quantity: 3 }]);
    } finally {
      await trx.rollback();
    }
    await api.handle.background.runNow('orders:units-sold');
    expect(await sold(held.id)).toBe(3);
    expect(await sold(free.id)).toBe(1);
  });
});
