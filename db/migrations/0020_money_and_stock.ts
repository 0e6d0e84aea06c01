import type { Knex } from 'knex';

/**
 * Money and stock that cannot be gamed (issue #34, docs/security.md):
 * - orders.delivered_at: when the order was delivered. A paid order's sale is paid out to its shop only once it
 *   is delivered and past the return window (PAYOUT_RETURN_WINDOW_DAYS). Orders delivered before this migration
 *   take their last update as that moment.
 * - orders.lapsed_at: when an online order was cancelled because it was not paid by its deadline. A customer
 *   whose orders keep lapsing waits before the next checkout.
 */
const STATEMENTS = [
  `alter table orders add column delivered_at timestamptz`,
  `update orders set delivered_at = updated_at where status = 'delivered'`,
  `alter table orders add column lapsed_at timestamptz`,
  `create index orders_lapsed_idx on orders (customer_id, lapsed_at) where lapsed_at is not null`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `drop index if exists orders_lapsed_idx`,
    `alter table orders drop column if exists lapsed_at`,
    `alter table orders drop column if exists delivered_at`,
  ])
    await knex.raw(statement);
}
