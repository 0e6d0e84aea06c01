import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart } from '../../api/contract/cart';
import { buildProduct, buildSeller, buildUser, type BuiltSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { newCustomer, signIn } from './checkout-support';

let api: TestApi;
let seller: BuiltSeller;
beforeAll(async () => {
  api = await startTestApi();
  seller = await buildSeller(api.db.knex, { shopName: 'Lakshmi Jewellers' });
});
afterAll(async () => api?.close());

const listCart = async (client: Awaited<ReturnType<typeof newCustomer>>['client']) => {
  const res = await client.get<Cart>('/_api/cart/list');
  expect(res.status).toBe(200);
  return res.body;
};

describe('cart access', () => {
  it('refuses visitors with 401 and sellers and admins with the access text', async () => {
    expect((await api.client().get('/_api/cart/list')).status).toBe(401);
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    const asSeller = await signIn(api, seller);
    for (const [client, role] of [
      [asSeller, 'seller'],
      [admin, 'admin'],
    ] as const) {
      for (const res of [
        await client.get('/_api/cart/list'),
        await client.post('/_api/cart/add', { productId: 1, quantity: 1 }),
        await client.post('/_api/cart/update', { cartItemId: 1, quantity: 1 }),
        await client.post('/_api/cart/remove', { cartItemId: 1 }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({
          error: `Access denied. Your role (${role}) lacks required permissions.`,
        });
      }
    }
  });
});

describe('cart add', () => {
  it('adds a line, lists it with every field and adds again to the same line', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id, {
      name: 'Temple necklace',
      price: '1234.50',
      stockQuantity: 5,
    });
    const first = await client.post('/_api/cart/add', { productId: p.id, quantity: 2 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, quantity: 2 });
    const again = await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    expect(again.body).toMatchObject({ success: true, cartItemId: first.body.cartItemId, quantity: 3 });

    const cart = await listCart(client);
    expect(cart.items).toEqual([
      {
        cartItemId: first.body.cartItemId,
        productId: p.id,
        productName: 'Temple necklace',
        imageUrl: `/media/test-${p.id}-card.webp`,
        price: '1234.50',
        quantity: 3,
        stockQuantity: 5,
        sellerId: seller.id,
        shopName: 'Lakshmi Jewellers',
        available: true,
        lineTotal: '3703.50',
        hold: null,
        // The price when added, and whether it moved since (issue #25).
        priceAtAdd: '1234.50',
        priceChanged: false,
        // What one unit's price is made of (issue #49): a fixed price read as the invoice reads it.
        figures: {
          kind: 'fixed',
          metal: 119_854,
          making: 0,
          stones: 0,
          beforeGst: 119_854,
          gst: 3596,
          total: 123_450,
        },
      },
    ]);
    expect(cart.totalAmount).toBe('3703.50');
    expect(cart.totalQuantity).toBe(3);
  });

  it('refuses more than the stock with the product-rule message, counting what is already in the cart', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id, { stockQuantity: 3 });
    const tooMany = await client.post('/_api/cart/add', { productId: p.id, quantity: 4 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: 'Only 3 item(s) available in stock', code: 'insufficient_stock' });
    expect((await client.post('/_api/cart/add', { productId: p.id, quantity: 2 })).status).toBe(200);
    const over = await client.post('/_api/cart/add', { productId: p.id, quantity: 2 });
    expect(over.status).toBe(400);
    expect(over.body.error).toBe('Only 3 item(s) available in stock');
    expect((await listCart(client)).items[0].quantity).toBe(2);

    const none = await buildProduct(api.db.knex, seller.id, { stockQuantity: 0 });
    const out = await client.post('/_api/cart/add', { productId: none.id, quantity: 1 });
    expect(out.body.error).toBe('Only 0 item(s) available in stock');
  });

  it('treats null stock as unlimited', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id, { stockQuantity: null });
    expect((await client.post('/_api/cart/add', { productId: p.id, quantity: 50 })).status).toBe(200);
    const cart = await listCart(client);
    expect(cart.items[0]).toMatchObject({ quantity: 50, stockQuantity: null, available: true });
  });

  it('refuses unknown, deleted and unapproved-shop products with 404', async () => {
    const { client } = await newCustomer(api);
    const deleted = await buildProduct(api.db.knex, seller.id, { deletedAt: new Date() });
    const pending = await buildSeller(api.db.knex, { isApproved: null });
    const hidden = await buildProduct(api.db.knex, pending.id);
    for (const productId of [999_999, deleted.id, hidden.id]) {
      const res = await client.post('/_api/cart/add', { productId, quantity: 1 });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Product not found.', code: 'not_found' });
    }
  });

  it('validates productId and quantity as positive integers', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id);
    for (const body of [
      { productId: p.id, quantity: 0 },
      { productId: p.id, quantity: -1 },
      { productId: p.id, quantity: 1.5 },
      { productId: p.id },
      { productId: 0, quantity: 1 },
      { productId: 'abc', quantity: 1 },
      { quantity: 1 },
    ]) {
      const res = await client.post('/_api/cart/add', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const res = await client.post('/_api/cart/add', { productId: p.id, quantity: 0 });
    expect(res.body.error).toBe('Quantity must be a positive integer.');
  });
});

describe('cart update and remove', () => {
  it('updates a quantity within stock and refuses an increase beyond it', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id, { stockQuantity: 4, price: '100.00' });
    const added = await client.post<{ cartItemId: number }>('/_api/cart/add', {
      productId: p.id,
      quantity: 1,
    });
    const id = added.body.cartItemId;
    const up = await client.post('/_api/cart/update', { cartItemId: id, quantity: 4 });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ success: true, cartItemId: id, quantity: 4 });
    const over = await client.post('/_api/cart/update', { cartItemId: id, quantity: 5 });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'Only 4 item(s) available in stock', code: 'insufficient_stock' });

    // Stock fell below the line: decreasing is still allowed, increasing is not.
    await api.db.knex('products').where({ id: p.id }).update({ stock_quantity: 2 });
    expect((await client.post('/_api/cart/update', { cartItemId: id, quantity: 3 })).status).toBe(200);
    expect((await client.post('/_api/cart/update', { cartItemId: id, quantity: 3 })).status).toBe(200);
    expect((await listCart(client)).totalAmount).toBe('300.00');
  });

  it('requires a quantity of at least 1 with the product-rule message', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id);
    const added = await client.post<{ cartItemId: number }>('/_api/cart/add', {
      productId: p.id,
      quantity: 1,
    });
    for (const quantity of [0, -3, 'x', undefined]) {
      const res = await client.post('/_api/cart/update', { cartItemId: added.body.cartItemId, quantity });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Quantity must be at least 1');
    }
    const bad = await client.post('/_api/cart/update', { cartItemId: 0, quantity: 1 });
    expect(bad.body.error).toBe('Cart item ID must be a positive integer.');
  });

  it('removes a line; a missing line is 404', async () => {
    const { client } = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id);
    const added = await client.post<{ cartItemId: number }>('/_api/cart/add', {
      productId: p.id,
      quantity: 1,
    });
    const res = await client.post('/_api/cart/remove', { cartItemId: added.body.cartItemId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await listCart(client)).items).toEqual([]);
    const again = await client.post('/_api/cart/remove', { cartItemId: added.body.cartItemId });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe('Cart item not found.');
    expect((await client.post('/_api/cart/remove', { cartItemId: -1 })).status).toBe(400);
  });

  it("never lets a customer touch another customer's line", async () => {
    const a = await newCustomer(api);
    const b = await newCustomer(api);
    const p = await buildProduct(api.db.knex, seller.id);
    const added = await a.client.post<{ cartItemId: number }>('/_api/cart/add', {
      productId: p.id,
      quantity: 1,
    });
    const id = added.body.cartItemId;
    const upd = await b.client.post('/_api/cart/update', { cartItemId: id, quantity: 2 });
    expect(upd.status).toBe(404);
    expect(upd.body.error).toBe('Cart item not found.');
    expect((await b.client.post('/_api/cart/remove', { cartItemId: id })).status).toBe(404);
    expect((await listCart(b.client)).items).toEqual([]);
    expect((await listCart(a.client)).items[0]).toMatchObject({ cartItemId: id, quantity: 1 });
  });
});

describe('cart list availability', () => {
  it('marks deleted, unapproved-shop and out-of-stock lines unavailable and leaves them out of the total', async () => {
    const { client } = await newCustomer(api);
    const other = await buildSeller(api.db.knex);
    const ok = await buildProduct(api.db.knex, seller.id, { price: '500.00' });
    const gone = await buildProduct(api.db.knex, seller.id, { price: '700.00' });
    const sold = await buildProduct(api.db.knex, seller.id, { price: '900.00' });
    const shopLater = await buildProduct(api.db.knex, other.id, { price: '1100.00' });
    for (const p of [ok, gone, sold, shopLater]) {
      expect((await client.post('/_api/cart/add', { productId: p.id, quantity: 2 })).status).toBe(200);
    }
    await api.db.knex('products').where({ id: gone.id }).update({ deleted_at: new Date() });
    await api.db.knex('products').where({ id: sold.id }).update({ stock_quantity: 0 });
    await api.db.knex('seller_profiles').where({ user_id: other.id }).update({ is_approved: false });

    const cart = await listCart(client);
    const byId = new Map(cart.items.map((i) => [i.productId, i]));
    expect(byId.get(ok.id)?.available).toBe(true);
    expect(byId.get(gone.id)?.available).toBe(false);
    expect(byId.get(sold.id)?.available).toBe(false);
    expect(byId.get(shopLater.id)?.available).toBe(false);
    expect(byId.get(shopLater.id)?.lineTotal).toBe('2200.00');
    expect(cart.totalAmount).toBe('1000.00');
    expect(cart.totalQuantity).toBe(8);
  });

  it('an empty cart lists no items and a zero total', async () => {
    const { client } = await newCustomer(api);
    expect(await listCart(client)).toEqual({ items: [], totalAmount: '0.00', totalQuantity: 0 });
  });
});
