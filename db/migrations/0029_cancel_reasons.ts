import type { Knex } from 'knex';

/**
 * A shop's cancellation carries its reason (issue #48, docs/product-rules.md "Issue #48"):
 *
 * - orders.cancel_reason: 'out_of_stock', 'customer_asked', 'cannot_deliver' or 'other', set when the shop
 *   cancels (null for an order the server cancelled unpaid, and for every order cancelled before this);
 * - orders.cancel_note: the shop's own words, required with 'other';
 * - notices.kind 'order_cancelled': the buyer of an unpaid order the shop cancelled is told why (a paid one
 *   hears it in 'order_refunded').
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table orders add column cancel_reason text
     check (cancel_reason in ('out_of_stock', 'customer_asked', 'cannot_deliver', 'other'))`,
  `alter table orders add column cancel_note text check (char_length(cancel_note) <= 200)`,
  `alter table notices drop constraint notices_kind_check`,
  `alter table notices add constraint notices_kind_check
     check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded', 'order_cancelled',
       'callback_soon', 'appointment_confirmed', 'appointment_reminder', 'missed_call', 'mobile_changed',
       'email_changed', 'password_changed'))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from notices where kind = 'order_cancelled'`,
    `alter table notices drop constraint notices_kind_check`,
    `alter table notices add constraint notices_kind_check
       check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded', 'callback_soon',
         'appointment_confirmed', 'appointment_reminder', 'missed_call', 'mobile_changed', 'email_changed',
         'password_changed'))`,
    'alter table orders drop column cancel_note',
    'alter table orders drop column cancel_reason',
  ])
    await knex.raw(statement);
}
