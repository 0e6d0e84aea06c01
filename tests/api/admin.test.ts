import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminCustomersResponse,
  AdminSellersResponse,
  SellerApprovalResponse,
} from '../../api/contract/admin';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
let admin: ApiClient;
beforeAll(async () => {
  api = await startTestApi();
  admin = await signIn(await buildUser(api.db.knex, { role: 'admin', displayName: 'Chief Admin' }));
});
afterAll(async () => api?.close());

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

describe('GET /_api/admin/sellers and /_api/admin/customers', () => {
  it('lists seller accounts (with or without a shop) and admins who run a shop, with profiles', async () => {
    const approved = await buildSeller(api.db.knex, { isApproved: true, shopName: 'Approved Shop' });
    const pending = await buildSeller(api.db.knex, { isApproved: null });
    const bare = await buildUser(api.db.knex, { role: 'seller', displayName: 'No Shop Yet' });
    const shopAdmin = await buildUser(api.db.knex, { role: 'admin' });
    await api.db.knex('seller_profiles').insert({
      user_id: shopAdmin.id,
      shop_name: 'Admin Store',
      shop_address: '1 Anna Salai, Chennai',
      city: 'Chennai',
      state: 'Tamil Nadu',
      pincode: '600002',
      phone: '9000000000',
      url_slug: `admin-store-${shopAdmin.id}`,
    });
    const plainAdmin = await buildUser(api.db.knex, { role: 'admin' });
    const customer = await buildUser(api.db.knex, { role: 'customer', displayName: 'Kavya' });

    const res = await admin.get<AdminSellersResponse>('/_api/admin/sellers');
    expect(res.status).toBe(200);
    const byId = new Map(res.body.sellers.map((s) => [s.id, s]));
    expect(byId.get(approved.id)).toMatchObject({
      id: approved.id,
      displayName: approved.displayName,
      email: approved.email,
      role: 'seller',
      sellerProfile: { userId: approved.id, shopName: 'Approved Shop', isApproved: true },
    });
    expect(new Date(byId.get(approved.id)!.createdAt).toString()).not.toBe('Invalid Date');
    expect(byId.get(pending.id)?.sellerProfile?.isApproved).toBeNull();
    expect(byId.get(bare.id)).toMatchObject({ displayName: 'No Shop Yet', sellerProfile: null });
    expect(byId.get(shopAdmin.id)).toMatchObject({
      role: 'admin',
      sellerProfile: { shopName: 'Admin Store' },
    });
    expect(byId.has(plainAdmin.id)).toBe(false);
    expect(byId.has(customer.id)).toBe(false);

    const customers = await admin.get<AdminCustomersResponse>('/_api/admin/customers');
    expect(customers.status).toBe(200);
    const kavya = customers.body.customers.find((c) => c.id === customer.id);
    expect(kavya).toEqual({
      id: customer.id,
      displayName: 'Kavya',
      email: customer.email,
      createdAt: expect.any(String),
    });
    expect(customers.body.customers.every((c) => c.id !== approved.id && c.id !== shopAdmin.id)).toBe(true);
  });
});

describe('POST /_api/admin/seller/approve', () => {
  const approve = (sellerUserId: unknown, isApproved: unknown) =>
    admin.post<SellerApprovalResponse & { error?: string; code?: string }>('/_api/admin/seller/approve', {
      sellerUserId,
      isApproved,
    });

  it('approves a pending shop, then refuses to approve it again', async () => {
    const seller = await buildSeller(api.db.knex, { isApproved: null });
    const res = await approve(seller.id, true);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Seller approved successfully.');
    expect(res.body.profile).toMatchObject({ userId: seller.id, isApproved: true });
    const again = await approve(seller.id, true);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'Seller is already approved.',
      code: 'seller_already_approved',
    });
  });

  it('disapproves pending and approved shops, approves disapproved ones, refuses a repeat', async () => {
    const pending = await buildSeller(api.db.knex, { isApproved: null });
    const d1 = await approve(pending.id, false);
    expect(d1.status).toBe(200);
    expect(d1.body).toMatchObject({
      message: 'Seller disapproved successfully.',
      profile: { isApproved: false },
    });
    const again = await approve(pending.id, false);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'Seller is already disapproved.',
      code: 'seller_already_disapproved',
    });

    const back = await approve(pending.id, true);
    expect(back.body).toMatchObject({
      message: 'Seller approved successfully.',
      profile: { isApproved: true },
    });

    const approved = await buildSeller(api.db.knex, { isApproved: true });
    const d2 = await approve(approved.id, false);
    expect(d2.status).toBe(200);
    expect(d2.body.profile.isApproved).toBe(false);
    const row = await api.db.knex('seller_profiles').where({ user_id: approved.id }).first('is_approved');
    expect(row.is_approved).toBe(false);
  });

  it('approval shows and disapproval hides the shop and its products on the public site at once', async () => {
    const seller = await buildSeller(api.db.knex, { isApproved: null, shopName: 'Zebu Zircon Works' });
    const p = await buildProduct(api.db.knex, seller.id, { name: 'Zebu zircon anklet' });
    const visitor = api.client();
    const publicView = async () => {
      const list = await visitor.get<{ products: { id: number }[] }>(
        '/_api/products/list?query=zebu&limit=50',
      );
      const detail = await visitor.get(`/_api/products/get?id=${p.id}`);
      const store = await visitor.get(`/_api/seller/store?slug=${seller.urlSlug}`);
      return {
        listed: list.body.products.some((x) => x.id === p.id),
        detail: detail.status,
        store: store.status,
      };
    };
    expect(await publicView()).toEqual({ listed: false, detail: 404, store: 404 });
    await approve(seller.id, true);
    expect(await publicView()).toEqual({ listed: true, detail: 200, store: 200 });
    await approve(seller.id, false);
    expect(await publicView()).toEqual({ listed: false, detail: 404, store: 404 });
  });

  it('answers 404 when the user has no shop profile', async () => {
    const bare = await buildUser(api.db.knex, { role: 'seller' });
    for (const id of [bare.id, 2_000_000]) {
      const res = await approve(id, true);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: 'Seller profile not found.',
        code: 'seller_profile_not_found',
      });
    }
  });

  it.each([
    [{ sellerUserId: 0, isApproved: true }, 'Seller user ID must be a positive integer.'],
    [{ sellerUserId: 1.5, isApproved: true }, 'Seller user ID must be a positive integer.'],
    [{ sellerUserId: 'abc', isApproved: true }, 'Seller user ID must be a positive integer.'],
    [{ isApproved: true }, 'Seller user ID must be a positive integer.'],
    [{ sellerUserId: 1, isApproved: 'true' }, 'isApproved must be true or false.'],
    [{ sellerUserId: 1 }, 'isApproved must be true or false.'],
    [{ sellerUserId: 1, isApproved: true, note: 'x' }, 'Unknown fields are not allowed.'],
  ])('refuses %j', async (body, message) => {
    const res = await admin.post('/_api/admin/seller/approve', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message });
  });
});

describe('admin endpoints refuse everyone else', () => {
  const endpoints: [string, string][] = [
    ['GET', '/_api/admin/sellers'],
    ['GET', '/_api/admin/customers'],
    ['POST', '/_api/admin/seller/approve'],
  ];

  it.each(endpoints)('%s %s', async (method, path) => {
    const seller = await buildSeller(api.db.knex, { isApproved: null });
    for (const role of ['customer', 'seller'] as const) {
      const client =
        role === 'seller' ? await signIn(seller) : await signIn(await buildUser(api.db.knex, { role }));
      const res = await client.request(
        method,
        path,
        method === 'POST' ? { body: { sellerUserId: seller.id, isApproved: true } } : {},
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: ACCESS(role), code: 'forbidden' });
    }
    const visitor = await api
      .client()
      .request(
        method,
        path,
        method === 'POST' ? { body: { sellerUserId: seller.id, isApproved: true } } : {},
      );
    expect(visitor.status).toBe(401);
    const row = await api.db.knex('seller_profiles').where({ user_id: seller.id }).first('is_approved');
    expect(row.is_approved).toBeNull();
  });
});
