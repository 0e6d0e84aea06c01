import type { Knex } from 'knex';
import { ADMIN_MESSAGES } from '../../../contract/admin';
import { conflict, notFound } from '../../http/errors';
import type { SellerProfileRow } from '../sellers/presenter';

/** A users row as the admin lists select it. */
export interface AdminUserRow {
  id: number;
  display_name: string;
  email: string;
  role: 'customer' | 'seller' | 'admin';
  created_at: Date | string;
}

/** Every seller account, plus admins who run a shop of their own, newest first, with their profiles. */
export async function listSellers(
  db: Knex,
): Promise<{ user: AdminUserRow; profile: SellerProfileRow | null }[]> {
  const users = (await db('users as u')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'u.id')
    .where('u.role', 'seller')
    .orWhere((q) => q.where('u.role', 'admin').whereNotNull('sp.id'))
    .orderBy([
      { column: 'u.created_at', order: 'desc' },
      { column: 'u.id', order: 'desc' },
    ])
    .select('u.id', 'u.display_name', 'u.email', 'u.role', 'u.created_at')) as AdminUserRow[];
  if (users.length === 0) return [];
  const profiles = (await db('seller_profiles').whereIn(
    'user_id',
    users.map((u) => u.id),
  )) as SellerProfileRow[];
  const byUser = new Map(profiles.map((p) => [p.user_id, p]));
  return users.map((user) => ({ user, profile: byUser.get(user.id) ?? null }));
}

/** Every customer account, newest first. */
export async function listCustomers(db: Knex): Promise<AdminUserRow[]> {
  return (await db('users')
    .where({ role: 'customer' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select('id', 'display_name', 'email', 'role', 'created_at')) as AdminUserRow[];
}

/**
 * Approves anything not approved, disapproves anything not disapproved (docs/product-rules.md §4). One conditional update,
 * so two admins acting at once cannot both succeed on the same transition.
 */
export async function setApproval(
  db: Knex,
  sellerUserId: number,
  isApproved: boolean,
  now: Date,
): Promise<SellerProfileRow> {
  const [row] = (await db('seller_profiles')
    .where({ user_id: sellerUserId })
    .whereRaw('is_approved is distinct from ?', [isApproved])
    .update({ is_approved: isApproved, updated_at: now })
    .returning('*')) as SellerProfileRow[];
  if (row) return row;
  const exists = await db('seller_profiles').where({ user_id: sellerUserId }).first('id');
  if (!exists) throw notFound(ADMIN_MESSAGES.profileNotFound, 'seller_profile_not_found');
  throw isApproved
    ? conflict(ADMIN_MESSAGES.alreadyApproved, 'seller_already_approved')
    : conflict(ADMIN_MESSAGES.alreadyDisapproved, 'seller_already_disapproved');
}
