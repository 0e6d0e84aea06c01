import type { Knex } from 'knex';
import type { CatalogStats } from '../../../contract/catalog';
import { toNumber } from '../../../../db/connection';

/**
 * Real counts for the landing page (docs/product-rules.md §2): the hero's and the seller pitch's figures come
 * from here, so the page never claims more than is true. Monthly buyers: customers with an order placed in the
 * last 30 days that was not cancelled.
 */
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
      db.raw(
        `(select count(distinct o.customer_id) from orders o
           where o.status <> 'cancelled' and o.created_at > now() - interval '30 days') as monthly_buyers`,
      ),
    )
    .first()) as {
    happy_customers: unknown;
    verified_jewelers: unknown;
    jewelry_pieces: unknown;
    monthly_buyers: unknown;
  };
  return {
    happyCustomers: toNumber(row.happy_customers),
    verifiedJewelers: toNumber(row.verified_jewelers),
    jewelryPieces: toNumber(row.jewelry_pieces),
    monthlyBuyers: toNumber(row.monthly_buyers),
  };
}
