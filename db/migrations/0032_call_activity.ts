import type { Knex } from 'knex';

/**
 * The jeweller in the call (issue #48, docs/product-rules.md "The jeweller in the call"):
 *
 * - call_items.kind 'hold' and 'cart': the customer held a piece, or put one in the cart, during the call. The
 *   server writes the row itself from the real hold or cart change (never from text a client sends), and the
 *   insert's trigger carries it to both participants as any item, so the jeweller reads a line in the call.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table call_items drop constraint call_items_kind_check`,
  `alter table call_items add constraint call_items_kind_check
     check (kind in ('product', 'photo', 'message', 'hold', 'cart'))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from call_items where kind in ('hold', 'cart')`,
    `alter table call_items drop constraint call_items_kind_check`,
    `alter table call_items add constraint call_items_kind_check check (kind in ('product', 'photo', 'message'))`,
  ])
    await knex.raw(statement);
}
