import type { Knex } from 'knex';

/**
 * How often the queued sales are added into products.units_sold (the popularity sort). A product sold many
 * times in the window gets one update, not one per sale; the sort lags real sales by at most this much.
 */
export const SALES_FLUSH_MS = 15_000;

/** Products per flush statement: each statement holds its products' row locks only while it runs. */
const CHUNK = 200;

/**
 * Adds the queued sales (checkouts: +quantity, cancellations: −quantity) of up to CHUNK products into
 * products.units_sold and deletes exactly the queue rows it added, in one statement, so two processes
 * flushing at once never count a sale twice. A product that a checkout has locked right now is skipped
 * (SKIP LOCKED) and flushed next time: the flush never waits behind a checkout, and since it holds only
 * rows it locked without waiting, it cannot deadlock with one. Queue rows committed after the statement's
 * snapshot are invisible to its DELETE and stay for the next flush.
 */
const FLUSH_SQL = `with candidates as (
       select product_id from product_sales_pending group by product_id limit ${CHUNK}
     ), locked as materialized (
       select p.id from products p where p.id in (select product_id from candidates)
        order by p.id for update skip locked
     ), taken as (
       delete from product_sales_pending s where s.product_id in (select id from locked)
       returning s.product_id, s.quantity
     ), sums as (
       select product_id, sum(quantity)::int as quantity from taken group by product_id
     ), updated as (
       update products p set units_sold = greatest(p.units_sold + s.quantity, 0)
         from sums s where p.id = s.product_id and s.quantity <> 0
       returning 1
     )
     select (select count(*) from candidates)::int as candidates, (select count(*) from locked)::int as locked,
            (select count(*) from updated)::int as updated`;

/** Flushes the whole queue, a chunk at a time, stopping when a chunk finds every candidate locked. */
export async function applyPendingSales(db: Knex): Promise<void> {
  for (;;) {
    const { rows } = (await db.raw(FLUSH_SQL)) as { rows: { candidates: number; locked: number }[] };
    const { candidates, locked } = rows[0];
    if (candidates < CHUNK || locked === 0) return;
  }
}
