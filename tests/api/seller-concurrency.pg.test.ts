import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerProfile } from '../../api/contract/sellers';
import { buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

// Real PostgreSQL only: these races need concurrent connections, which PGlite (one connection) cannot give.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

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

const shop = (shopName: string) => ({
  shopName,
  shopAddress: '12 Big Bazaar Street, Town Hall',
  city: 'Coimbatore',
  state: 'Tamil Nadu',
  pincode: '641001',
  phone: '9876543210',
});

describe('seller races on PostgreSQL', () => {
  it('a burst of setups by one seller makes exactly one profile', async () => {
    const seller = await buildUser(api.db.knex, { role: 'seller' });
    const client = await signIn(seller);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => client.post('/_api/seller/profile/setup', shop('Burst Gold'))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await api.db.knex('seller_profiles').where({ user_id: seller.id })).toHaveLength(1);
  });

  it('shops of the same name set up at once all get distinct slugs', async () => {
    const clients = await Promise.all(
      Array.from({ length: 6 }, async () => signIn(await buildUser(api.db.knex, { role: 'seller' }))),
    );
    const results = await Promise.all(
      clients.map((c) =>
        c.post<{ profile: SellerProfile }>('/_api/seller/profile/setup', shop('Twin Pearls')),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const slugs = results.map((r) => r.body.profile.urlSlug).sort();
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toContain('twin-pearls');
  });

  it('two admins approving at once: one succeeds, the other is told it is already approved', async () => {
    const seller = await buildSeller(api.db.knex, { isApproved: null });
    const admins = await Promise.all(
      [1, 2].map(async () => signIn(await buildUser(api.db.knex, { role: 'admin' }))),
    );
    const results = await Promise.all(
      admins.map((a) => a.post('/_api/admin/seller/approve', { sellerUserId: seller.id, isApproved: true })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
