import type { Knex } from 'knex';

/**
 * The tax invoice is issued when it is due (issue #40 item 6, docs/product-rules.md §10): an online order's
 * when its payment is captured, a cash-on-delivery order's when the shop ships it; never for an order that
 * still awaits payment. The order therefore keeps what checkout knew of the buyer's tax identity until then:
 *
 * - orders.buyer_gstin: the buyer's GSTIN given at checkout (optional, for a business purchase);
 * - orders.buyer_state_code: the buyer's GST state code (their GSTIN's, else the shipping state's).
 *
 * Orders invoiced before this change take both from their invoice.
 */
const STATEMENTS = [
  `alter table orders add column buyer_gstin text`,
  `alter table orders add column buyer_state_code text`,
  `update orders o set buyer_gstin = i.buyer_gstin, buyer_state_code = i.buyer_state_code
     from invoices i where i.order_id = o.id and i.kind = 'invoice'`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'alter table orders drop column if exists buyer_state_code',
    'alter table orders drop column if exists buyer_gstin',
  ])
    await knex.raw(statement);
}
