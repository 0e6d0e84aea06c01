import type { Knex } from 'knex';
import {
  RESERVED_SLUGS,
  SELLER_MESSAGES,
  type SellerProfileUpdateInput,
  type SellerRegistrationInput,
} from '../../../contract/sellers';
import { conflict, notFound } from '../../http/errors';
import type { SellerProfileRow } from './presenter';
import { nextFreeSlug, slugBase } from './slug';

/** True when err is a unique violation of the named constraint or index (pg and PGlite word it alike). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null;
  if (!e || e.code !== '23505') return false;
  return e.constraint === constraint || (e.message ?? '').includes(constraint);
}

const profileNotFound = () => notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
const profileExists = () => conflict(SELLER_MESSAGES.profileExists, 'seller_profile_exists');

/** The user's shop profile row, if any. */
export async function findProfileByUser(db: Knex, userId: number): Promise<SellerProfileRow | undefined> {
  return (await db('seller_profiles').where({ user_id: userId }).first()) as SellerProfileRow | undefined;
}

/** The user's shop profile row; 404 'Seller profile not found.' when there is none. */
export async function getProfileByUser(db: Knex, userId: number): Promise<SellerProfileRow> {
  const row = await findProfileByUser(db, userId);
  if (!row) throw profileNotFound();
  return row;
}

/**
 * Creates the shop profile of a user (one per user), pending approval, with a unique slug derived from the
 * shop name. Races are settled by the unique indexes: a second profile is a 409, a slug taken meanwhile is
 * recomputed.
 */
export async function createProfile(
  db: Knex,
  userId: number,
  input: SellerRegistrationInput,
  now: Date,
): Promise<SellerProfileRow> {
  if (await findProfileByUser(db, userId)) throw profileExists();
  const base = slugBase(input.shopName, userId);
  for (let attempt = 0; ; attempt++) {
    const urlSlug = await nextFreeSlug(db, base);
    try {
      // One statement, no transaction: a unique violation here must not poison a surrounding transaction.
      const [row] = (await db('seller_profiles')
        .insert({
          user_id: userId,
          shop_name: input.shopName,
          description: input.description ?? null,
          shop_address: input.shopAddress,
          city: input.city,
          state: input.state,
          pincode: input.pincode,
          phone: input.phone,
          whatsapp_number: input.whatsappNumber ?? null,
          gst_number: input.gstNumber ?? null,
          business_license: input.businessLicense ?? null,
          certifications: JSON.stringify(input.certifications ?? []),
          established_date: input.establishedDate ?? null,
          url_slug: urlSlug,
          is_approved: null,
          created_at: now,
          updated_at: now,
        })
        .returning('*')) as SellerProfileRow[];
      return row;
    } catch (err) {
      if (isUniqueViolation(err, 'seller_profiles_user_id_key')) throw profileExists();
      if (isUniqueViolation(err, 'seller_profiles_url_slug_key') && attempt < 5) continue;
      throw err;
    }
  }
}

const COLUMNS: Record<Exclude<keyof SellerProfileUpdateInput, 'certifications'>, string> = {
  shopName: 'shop_name',
  shopAddress: 'shop_address',
  city: 'city',
  state: 'state',
  pincode: 'pincode',
  phone: 'phone',
  description: 'description',
  whatsappNumber: 'whatsapp_number',
  gstNumber: 'gst_number',
  businessLicense: 'business_license',
  establishedDate: 'established_date',
  urlSlug: 'url_slug',
  videoCallEnabled: 'video_call_enabled',
};

/** Writes the given profile fields (the schema has already dropped empty ones); the slug must stay unique. */
export async function updateProfile(
  db: Knex,
  userId: number,
  input: SellerProfileUpdateInput,
  now: Date,
): Promise<SellerProfileRow> {
  const current = await getProfileByUser(db, userId);
  const patch: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = input[key as keyof typeof COLUMNS];
    if (value !== undefined) patch[column] = value;
  }
  if (input.certifications !== undefined) patch.certifications = JSON.stringify(input.certifications);
  if (Object.keys(patch).length === 0) return current;

  const slug = input.urlSlug;
  if (slug !== undefined) {
    if (RESERVED_SLUGS.has(slug.toLowerCase()))
      throw conflict(SELLER_MESSAGES.urlSlugReserved, 'url_slug_reserved');
    const other = (await db('seller_profiles')
      .whereRaw('lower(url_slug) = lower(?)', [slug])
      .whereNot({ user_id: userId })
      .first('id')) as { id: number } | undefined;
    if (other) throw conflict(SELLER_MESSAGES.urlSlugTaken, 'url_slug_taken');
  }
  patch.updated_at = now;
  try {
    const [row] = (await db('seller_profiles')
      .where({ user_id: userId })
      .update(patch)
      .returning('*')) as SellerProfileRow[];
    if (!row) throw profileNotFound();
    return row;
  } catch (err) {
    if (isUniqueViolation(err, 'seller_profiles_url_slug_key'))
      throw conflict(SELLER_MESSAGES.urlSlugTaken, 'url_slug_taken');
    throw err;
  }
}
