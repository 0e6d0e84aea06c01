import type { Knex } from 'knex';
import { HAS_PUSH_SQL } from '../schedule/service';

/** Approved shops with their seller's name, presence and public product count. */
export function sellerCards(db: Knex): Knex.QueryBuilder {
  return db
    .from('seller_profiles as sp')
    .join('users as u', 'u.id', 'sp.user_id')
    .leftJoin('seller_presence as pr', 'pr.user_id', 'sp.user_id')
    .where('sp.is_approved', true)
    .select(
      'sp.*',
      'u.display_name as seller_name',
      'pr.last_polled_at',
      db.raw(HAS_PUSH_SQL),
      db.raw(
        '(select count(*) from products p where p.seller_id = sp.user_id and p.deleted_at is null) as product_count',
      ),
    );
}
