import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerProfile } from '../../api/contract/sellers';
import { slugBase } from '../../api/src/features/sellers/slug';
import { buildSeller, buildUser, type BuiltUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
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

const shop = (overrides: Record<string, unknown> = {}) => ({
  shopName: 'Lakshmi Jewellers',
  shopAddress: '12 Big Bazaar Street, Town Hall',
  city: 'Coimbatore',
  state: 'Tamil Nadu',
  pincode: '641001',
  phone: '9876543210',
  ...overrides,
});

const ACCESS = (role: string) => `Access denied. Your role (${role}) lacks required permissions.`;

async function newSeller(): Promise<{ user: BuiltUser; client: ApiClient }> {
  const user = await buildUser(api.db.knex, { role: 'seller' });
  return { user, client: await signIn(user) };
}

type ProfileBody = { success?: boolean; profile: SellerProfile; error?: string; code?: string };

describe('POST /_api/seller/profile/setup', () => {
  it('creates a pending shop for a seller with a slug derived from the shop name', async () => {
    const { user, client } = await newSeller();
    const res = await client.post<ProfileBody>(
      '/_api/seller/profile/setup',
      shop({
        shopName: 'Sri Ganesh Gold House',
        whatsappNumber: '9123456780',
        gstNumber: '33aaacr5055k1z5',
        businessLicense: 'TN-LIC-2020-0042',
        description: 'Temple jewellery since 1998.',
        establishedDate: '1998-04-14',
        certifications: ['BIS Hallmark', 'IGI', 'BIS Hallmark'],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.profile).toMatchObject({
      userId: user.id,
      sellerId: user.id,
      shopName: 'Sri Ganesh Gold House',
      shopAddress: '12 Big Bazaar Street, Town Hall',
      city: 'Coimbatore',
      state: 'Tamil Nadu',
      pincode: '641001',
      phone: '9876543210',
      whatsappNumber: '9123456780',
      gstNumber: '33AAACR5055K1Z5',
      businessLicense: 'TN-LIC-2020-0042',
      description: 'Temple jewellery since 1998.',
      establishedDate: '1998-04-14',
      certifications: ['BIS Hallmark', 'IGI'],
      videoCallEnabled: false,
      urlSlug: 'sri-ganesh-gold-house',
      isApproved: null,
    });
    const got = await client.get<ProfileBody>('/_api/seller/profile');
    expect(got.status).toBe(200);
    expect(got.body.profile).toEqual(res.body.profile);
  });

  it('allows one profile per user', async () => {
    const { client } = await newSeller();
    expect((await client.post('/_api/seller/profile/setup', shop({ shopName: 'Once Only' }))).status).toBe(
      201,
    );
    const again = await client.post('/_api/seller/profile/setup', shop({ shopName: 'Twice' }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: 'A seller profile already exists for this account.',
      code: 'seller_profile_exists',
    });
  });

  it('makes derived slugs unique with -2, -3 (case-insensitively)', async () => {
    await buildSeller(api.db.knex, { urlSlug: 'Meena-Gems' });
    const slugs: (string | null)[] = [];
    for (let i = 0; i < 2; i++) {
      const { client } = await newSeller();
      const res = await client.post<ProfileBody>(
        '/_api/seller/profile/setup',
        shop({ shopName: 'Meena Gems' }),
      );
      expect(res.status).toBe(201);
      slugs.push(res.body.profile.urlSlug);
    }
    expect(slugs).toEqual(['meena-gems-2', 'meena-gems-3']);
  });

  it('derives safe slugs from accented, non-Latin, short, long and reserved names', async () => {
    expect(slugBase('Café Ölçü & Söns', 7)).toBe('cafe-olcu-and-sons');
    expect(slugBase('நகை மாளிகை', 42)).toBe('shop-42');
    expect(slugBase('AB', 1)).toBe('ab-shop');
    expect(slugBase("Raja's  Gold -- Palace!", 1)).toBe('rajas-gold-palace');
    const long = slugBase('Very Long Name '.repeat(10), 1);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long).toMatch(/^[a-z0-9-]{3,50}$/);
    expect(long.endsWith('-')).toBe(false);

    const { client } = await newSeller();
    const res = await client.post<ProfileBody>(
      '/_api/seller/profile/setup',
      shop({ shopName: 'Marketplace' }),
    );
    expect(res.body.profile.urlSlug).toBe('marketplace-2');
    const tamil = await newSeller();
    const t = await tamil.client.post<ProfileBody>(
      '/_api/seller/profile/setup',
      shop({ shopName: 'நகை மாளிகை' }),
    );
    expect(t.status).toBe(201);
    expect(t.body.profile.urlSlug).toBe(`shop-${tamil.user.id}`);
    expect(t.body.profile.shopName).toBe('நகை மாளிகை');

    const longShop = await newSeller();
    const name = 'Abcdefghij '.repeat(6).trim();
    await buildSeller(api.db.knex, { urlSlug: slugBase(name, 0) });
    const l = await longShop.client.post<ProfileBody>('/_api/seller/profile/setup', shop({ shopName: name }));
    expect(l.body.profile.urlSlug).toMatch(/^[a-z0-9-]{3,48}-2$/);
    expect(l.body.profile.urlSlug!.length).toBeLessThanOrEqual(50);
  });

  it.each([
    [{ shopName: 'A' }, 'Shop name must be at least 2 characters long.'],
    [{ shopName: undefined }, 'Shop name must be at least 2 characters long.'],
    [{ shopAddress: 'Short st' }, 'Shop address must be at least 10 characters long.'],
    [{ city: 'C' }, 'City name is required.'],
    [{ city: undefined }, 'City name is required.'],
    [{ state: '' }, 'State name is required.'],
    [{ pincode: '64100' }, 'Invalid Indian pincode.'],
    [{ pincode: '64100a' }, 'Invalid Indian pincode.'],
    [{ phone: '98765' }, 'Invalid 10-digit phone number.'],
    [{ phone: '98765432101' }, 'Invalid 10-digit phone number.'],
    [{ whatsappNumber: '12345' }, 'Invalid 10-digit WhatsApp number.'],
    [{ gstNumber: '33AAACR5055K1X5' }, 'Invalid GST number.'],
    [{ gstNumber: '1234' }, 'Invalid GST number.'],
    [{ description: 'x'.repeat(501) }, 'Description cannot exceed 500 characters.'],
    [{ establishedDate: '2020-02-30' }, 'Established date must be a valid date (YYYY-MM-DD).'],
    [{ establishedDate: '14/04/1998' }, 'Established date must be a valid date (YYYY-MM-DD).'],
    [{ establishedDate: '2999-01-01' }, 'Established date cannot be in the future.'],
    [{ certifications: 'BIS' }, 'Each certification must be 1 to 100 characters.'],
  ])('refuses %j with the product rules message', async (override, message) => {
    const { user, client } = await newSeller();
    const res = await client.post('/_api/seller/profile/setup', shop(override));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, code: 'validation_failed' });
    expect(await api.db.knex('seller_profiles').where({ user_id: user.id }).first()).toBeUndefined();
  });

  it('accepts empty optional fields as not given and a 500-character description', async () => {
    const { client } = await newSeller();
    const res = await client.post<ProfileBody>(
      '/_api/seller/profile/setup',
      shop({ whatsappNumber: '', gstNumber: null, businessLicense: '  ', description: 'd'.repeat(500) }),
    );
    expect(res.status).toBe(201);
    expect(res.body.profile).toMatchObject({ whatsappNumber: null, gstNumber: null, businessLicense: null });
    expect(res.body.profile.description).toHaveLength(500);
  });

  it('is for sellers only', async () => {
    const customer = await signIn(await buildUser(api.db.knex, { role: 'customer' }));
    const admin = await signIn(await buildUser(api.db.knex, { role: 'admin' }));
    const c = await customer.post('/_api/seller/profile/setup', shop());
    expect(c.status).toBe(403);
    expect(c.body).toMatchObject({ error: ACCESS('customer'), code: 'forbidden' });
    const a = await admin.post('/_api/seller/profile/setup', shop());
    expect(a.status).toBe(403);
    expect(a.body).toMatchObject({ error: ACCESS('admin') });
    const v = await api.client().post('/_api/seller/profile/setup', shop());
    expect(v.status).toBe(401);
  });
});

describe('POST /_api/seller/register', () => {
  it('registers a pending shop for the admin’s own account, once', async () => {
    const adminUser = await buildUser(api.db.knex, { role: 'admin' });
    const admin = await signIn(adminUser);
    const res = await admin.post<ProfileBody>('/_api/seller/register', shop({ shopName: 'Admin Showroom' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      profile: {
        userId: adminUser.id,
        shopName: 'Admin Showroom',
        urlSlug: 'admin-showroom',
        isApproved: null,
      },
    });
    const got = await admin.get<ProfileBody>('/_api/seller/profile');
    expect(got.body.profile.shopName).toBe('Admin Showroom');
    const again = await admin.post('/_api/seller/register', shop());
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'A seller profile already exists for this account.' });
  });

  it('validates like setup', async () => {
    const admin = await signIn(await buildUser(api.db.knex, { role: 'admin' }));
    const res = await admin.post('/_api/seller/register', shop({ pincode: '12' }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Invalid Indian pincode.' });
  });

  it('refuses everyone but admins with the product rules text', async () => {
    for (const role of ['customer', 'seller'] as const) {
      const client = await signIn(await buildUser(api.db.knex, { role }));
      const res = await client.post('/_api/seller/register', shop());
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'Seller registration is only available for administrators.' });
    }
    expect((await api.client().post('/_api/seller/register', shop())).status).toBe(401);
  });
});

describe('GET /_api/seller/profile', () => {
  it('answers 404 seller_profile_not_found without a profile, for sellers and admins', async () => {
    for (const role of ['seller', 'admin'] as const) {
      const client = await signIn(await buildUser(api.db.knex, { role }));
      const res = await client.get('/_api/seller/profile');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Seller profile not found.', code: 'seller_profile_not_found' });
    }
  });

  it('refuses customers and visitors', async () => {
    const customer = await signIn(await buildUser(api.db.knex, { role: 'customer' }));
    const res = await customer.get('/_api/seller/profile');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: ACCESS('customer') });
    expect((await api.client().get('/_api/seller/profile')).status).toBe(401);
  });
});

describe('POST /_api/seller/profile/update', () => {
  async function sellerWithShop() {
    const seller = await buildSeller(api.db.knex, { videoCallEnabled: false });
    return { seller, client: await signIn(seller) };
  }

  it('writes the given fields and answers the profile', async () => {
    const { seller, client } = await sellerWithShop();
    const res = await client.post<ProfileBody>('/_api/seller/profile/update', {
      shopName: '  Kanchi Silks & Gold ',
      description: 'Bridal sets and temple jewellery.',
      shopAddress: '4 Gandhi Road, Kanchipuram',
      city: 'Kanchipuram',
      state: 'Tamil Nadu',
      pincode: '631501',
      phone: '9000000001',
      whatsappNumber: '9000000002',
      gstNumber: '33AAACR5055K1Z5',
      businessLicense: 'LIC-1',
      certifications: ['BIS Hallmark'],
      establishedDate: '1985-01-26',
      urlSlug: 'Kanchi_Gold',
      videoCallEnabled: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({
      userId: seller.id,
      shopName: 'Kanchi Silks & Gold',
      description: 'Bridal sets and temple jewellery.',
      shopAddress: '4 Gandhi Road, Kanchipuram',
      city: 'Kanchipuram',
      pincode: '631501',
      phone: '9000000001',
      whatsappNumber: '9000000002',
      gstNumber: '33AAACR5055K1Z5',
      businessLicense: 'LIC-1',
      certifications: ['BIS Hallmark'],
      establishedDate: '1985-01-26',
      urlSlug: 'Kanchi_Gold',
      videoCallEnabled: true,
    });
    expect((await client.get<ProfileBody>('/_api/seller/profile')).body.profile).toEqual(res.body.profile);
  });

  it('turns video calls on and off', async () => {
    const { client } = await sellerWithShop();
    const on = await client.post<ProfileBody>('/_api/seller/profile/update', { videoCallEnabled: true });
    expect(on.body.profile.videoCallEnabled).toBe(true);
    const off = await client.post<ProfileBody>('/_api/seller/profile/update', { videoCallEnabled: false });
    expect(off.status).toBe(200);
    expect(off.body.profile.videoCallEnabled).toBe(false);
    const bad = await client.post('/_api/seller/profile/update', { videoCallEnabled: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('omits null and empty values instead of writing them', async () => {
    const { client } = await sellerWithShop();
    const before = (
      await client.post<ProfileBody>('/_api/seller/profile/update', {
        whatsappNumber: '9111111111',
        gstNumber: '33AAACR5055K1Z5',
        businessLicense: 'LIC-9',
        establishedDate: '2001-06-01',
      })
    ).body.profile;
    const res = await client.post<ProfileBody>('/_api/seller/profile/update', {
      description: '',
      whatsappNumber: null,
      gstNumber: '   ',
      businessLicense: null,
      establishedDate: '',
      urlSlug: '',
      shopName: null,
      certifications: null,
      videoCallEnabled: null,
      city: 'Madurai',
    });
    expect(res.status).toBe(200);
    expect(res.body.profile).toEqual({ ...before, city: 'Madurai' });
    const nothing = await client.post<ProfileBody>('/_api/seller/profile/update', {});
    expect(nothing.status).toBe(200);
    expect(nothing.body.profile).toEqual(res.body.profile);
  });

  it('is strict about unknown fields', async () => {
    const { client } = await sellerWithShop();
    for (const body of [{ isApproved: true }, { shopName: 'Fine Name', userId: 1 }, { rating: 5 }]) {
      const res = await client.post('/_api/seller/profile/update', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'Unknown fields are not allowed.' });
    }
    const row = await api.db
      .knex('seller_profiles')
      .where({ user_id: (await sellerWithShop()).seller.id })
      .first();
    expect(row.is_approved).toBe(true);
  });

  it.each([
    [{ shopName: '' }, 'Shop name is required.'],
    [{ shopName: '   ' }, 'Shop name is required.'],
    [{ shopAddress: '' }, 'Shop address is required.'],
    [{ city: '' }, 'City name is required.'],
    [{ state: '' }, 'State name is required.'],
    [{ pincode: '' }, 'Pincode is required.'],
    [{ phone: '' }, 'Phone number is required.'],
    [{ shopName: 'A' }, 'Shop name must be at least 2 characters long.'],
    [{ shopAddress: 'tiny' }, 'Shop address must be at least 10 characters long.'],
    [{ pincode: '1234567' }, 'Invalid Indian pincode.'],
    [{ phone: '+919876543210' }, 'Invalid 10-digit phone number.'],
    [{ whatsappNumber: '99' }, 'Invalid 10-digit WhatsApp number.'],
    [{ gstNumber: 'NOTAGST' }, 'Invalid GST number.'],
    [{ description: 'y'.repeat(501) }, 'Description cannot exceed 500 characters.'],
    [{ urlSlug: 'ab' }, 'Store URL must be at least 3 characters long.'],
    [{ urlSlug: 'a'.repeat(51) }, 'Store URL cannot exceed 50 characters.'],
    [{ urlSlug: 'my shop' }, 'Store URL may only contain letters, numbers, hyphens and underscores.'],
    [{ urlSlug: 'café-gold' }, 'Store URL may only contain letters, numbers, hyphens and underscores.'],
    [{ establishedDate: '2999-12-31' }, 'Established date cannot be in the future.'],
    [{ certifications: [''] }, 'Each certification must be 1 to 100 characters.'],
  ])('refuses %j', async (body, message) => {
    const { client } = await sellerWithShop();
    const res = await client.post('/_api/seller/profile/update', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message, code: 'validation_failed' });
  });

  it('refuses a store URL another shop has, whatever its case, and keeps its own', async () => {
    const other = await buildSeller(api.db.knex, { urlSlug: 'Ratna-Palace' });
    const { client } = await sellerWithShop();
    for (const urlSlug of ['ratna-palace', 'RATNA-PALACE', other.urlSlug]) {
      const res = await client.post('/_api/seller/profile/update', { urlSlug });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        error: 'This store URL is already taken. Please choose another.',
        code: 'url_slug_taken',
      });
    }
    const mine = await client.post<ProfileBody>('/_api/seller/profile/update', { urlSlug: 'ratna-2' });
    expect(mine.body.profile.urlSlug).toBe('ratna-2');
    const sameAgain = await client.post<ProfileBody>('/_api/seller/profile/update', { urlSlug: 'Ratna-2' });
    expect(sameAgain.status).toBe(200);
    expect(sameAgain.body.profile.urlSlug).toBe('Ratna-2');
    const reserved = await client.post('/_api/seller/profile/update', { urlSlug: 'Checkout' });
    expect(reserved.status).toBe(409);
    expect(reserved.body).toMatchObject({ code: 'url_slug_reserved' });
  });

  it('answers 404 without a profile and refuses customers and visitors', async () => {
    const { client } = await newSeller();
    const res = await client.post('/_api/seller/profile/update', { city: 'Salem' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'Seller profile not found.', code: 'seller_profile_not_found' });
    const customer = await signIn(await buildUser(api.db.knex, { role: 'customer' }));
    const c = await customer.post('/_api/seller/profile/update', { city: 'Salem' });
    expect(c.status).toBe(403);
    expect(c.body).toMatchObject({ error: ACCESS('customer') });
    expect((await api.client().post('/_api/seller/profile/update', { city: 'Salem' })).status).toBe(401);
  });

  it('lets an admin edit the shop they registered', async () => {
    const admin = await signIn(await buildUser(api.db.knex, { role: 'admin' }));
    await admin.post('/_api/seller/register', shop({ shopName: 'Admin Two' }));
    const res = await admin.post<ProfileBody>('/_api/seller/profile/update', { videoCallEnabled: true });
    expect(res.status).toBe(200);
    expect(res.body.profile.videoCallEnabled).toBe(true);
  });
});
