import type { Knex } from 'knex';
import type { CatalogStats } from '../../../contract/catalog';
import { toNumber } from '../../../../db/connection';

/** Real counts for the landing hero. */
export async function catalogStats(db: Knex): Promise<CatalogStats> {
  const row = (await db
    .select(
      db.raw(
        "(select count(distinct o.customer_id) from orders o where o.status <> 'cancelled') as happy_customers",
      ),
      db.raw('(select count(*) from seller_profiles sp where sp.is_approved) as verified_jewelers'),
      db.raw(
        '(select count(*) from products p where p.deleted_at is null and p.seller_approved) as jewelry_pieces',
      ),
    )
    .first()) as { happy_customers: unknown; verified_jewelers: unknown; jewelry_pieces: unknown };
  return {
    happyCustomers: toNumber(row.happy_customers),
    verifiedJewelers: toNumber(row.verified_jewelers),
    jewelryPieces: toNumber(row.jewelry_pieces),
  };
}
