import type { Knex } from 'knex';
import type { ProductCategory, ProductMaterial, UserRole } from '../../api/contract/constants';
import { hashPassword } from '../../api/src/features/accounts/password';
import type { ApiClient } from '../support/api';

export const DEFAULT_PASSWORD = 'Secret#2026';
let defaultHash: Promise<string> | undefined;
const passwordHash = (password: string) =>
  password === DEFAULT_PASSWORD ? (defaultHash ??= hashPassword(DEFAULT_PASSWORD)) : hashPassword(password);

let seq = 0;
const unique = () =>
  `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface BuiltUser {
  id: number;
  email: string;
  password: string;
  displayName: string;
  role: UserRole;
}

/** Inserts a user straight into the database. */
export async function buildUser(
  db: Knex,
  overrides: Partial<{
    email: string;
    password: string;
    displayName: string;
    role: UserRole;
    phone: string;
    address: string;
  }> = {},
): Promise<BuiltUser> {
  const role = overrides.role ?? 'customer';
  const email = (overrides.email ?? `${role}-${unique()}@example.test`).toLowerCase();
  const password = overrides.password ?? DEFAULT_PASSWORD;
  const displayName = overrides.displayName ?? `Test ${role} ${seq}`;
  const [row] = (await db('users')
    .insert({
      email,
      password_hash: await passwordHash(password),
      display_name: displayName,
      role,
      phone: overrides.phone ?? null,
      address: overrides.address ?? null,
    })
    .returning('id')) as { id: number }[];
  return { id: row.id, email, password, displayName, role };
}

export interface BuiltSeller extends BuiltUser {
  profileId: number;
  shopName: string;
  urlSlug: string | null;
}

/** Inserts a seller user with a shop profile (approved with video calls on unless overridden). */
/**
 * Records that the seller's app is open at `at`, as the presence batch of its poll or event stream would
 * (seller_presence). A shop with no app open and no push subscription is unreachable and is not rung (#40).
 */
export async function markSellerAppOpen(db: Knex, sellerId: number, at: Date = new Date()): Promise<void> {
  await db('seller_presence').insert({ user_id: sellerId, last_polled_at: at }).onConflict('user_id').merge();
}

export async function buildSeller(
  db: Knex,
  overrides: Partial<{
    email: string;
    displayName: string;
    shopName: string;
    urlSlug: string | null;
    city: string;
    state: string;
    isApproved: boolean | null;
    videoCallEnabled: boolean;
    establishedDate: string | null;
    description: string;
  }> = {},
): Promise<BuiltSeller> {
  const user = await buildUser(db, {
    role: 'seller',
    email: overrides.email,
    displayName: overrides.displayName,
  });
  const shopName = overrides.shopName ?? `Shop ${unique()}`;
  const urlSlug = overrides.urlSlug === undefined ? `shop-${unique()}` : overrides.urlSlug;
  const [row] = (await db('seller_profiles')
    .insert({
      user_id: user.id,
      shop_name: shopName,
      description: overrides.description ?? 'Handmade gold and silver jewellery.',
      shop_address: '12 Big Bazaar Street, Town Hall',
      city: overrides.city ?? 'Coimbatore',
      state: overrides.state ?? 'Tamil Nadu',
      pincode: '641001',
      phone: '9876543210',
      certifications: JSON.stringify([]),
      video_call_enabled: overrides.videoCallEnabled ?? true,
      url_slug: urlSlug,
      established_date: overrides.establishedDate === undefined ? '2001-06-01' : overrides.establishedDate,
      is_approved: overrides.isApproved === undefined ? true : overrides.isApproved,
    })
    .returning('id')) as { id: number }[];
  return { ...user, profileId: row.id, shopName, urlSlug };
}

export interface BuiltProduct {
  id: number;
  sellerId: number;
  name: string;
  price: string;
}

/** Inserts a product for a seller, with one image row. */
export async function buildProduct(
  db: Knex,
  sellerId: number,
  overrides: Partial<{
    name: string;
    description: string;
    price: string | number;
    category: ProductCategory;
    material: ProductMaterial;
    stockQuantity: number | null;
    gstAmount: string | number;
    createdAt: Date;
    ratingAvg: number;
    ratingCount: number;
    unitsSold: number;
    deletedAt: Date | null;
  }> = {},
): Promise<BuiltProduct> {
  const name = overrides.name ?? `Gold chain ${unique()}`;
  const price = String(overrides.price ?? '15000.00');
  const [row] = (await db('products')
    .insert({
      seller_id: sellerId,
      name,
      description: overrides.description ?? 'A finely made piece for everyday wear.',
      price,
      category: overrides.category ?? 'chains',
      material: overrides.material ?? 'gold',
      stock_quantity: overrides.stockQuantity === undefined ? 10 : overrides.stockQuantity,
      gst_amount: overrides.gstAmount ?? '450.00',
      purity: '22K',
      weight_g: '8.5',
      rating_avg: overrides.ratingAvg ?? 0,
      rating_count: overrides.ratingCount ?? 0,
      units_sold: overrides.unitsSold ?? 0,
      created_at: overrides.createdAt ?? new Date(),
      deleted_at: overrides.deletedAt ?? null,
    })
    .returning('id')) as { id: number }[];
  await db('product_images').insert({
    product_id: row.id,
    position: 0,
    card_url: `/media/test-${row.id}-card.webp`,
    detail_url: `/media/test-${row.id}-detail.webp`,
    width: 480,
    height: 480,
  });
  return { id: row.id, sellerId, name, price };
}

/** Logs a client in through the real login endpoint; throws if it fails. */
export async function login(client: ApiClient, user: { email: string; password: string }): Promise<void> {
  const res = await client.post('/_api/auth/login_with_password', {
    email: user.email,
    password: user.password,
  });
  if (res.status !== 200)
    throw new Error(`login failed for ${user.email}: ${res.status} ${JSON.stringify(res.body)}`);
}
