import type { Knex } from 'knex';

/**
 * A guest who signed in (issue #52, docs/product-rules.md §21.2): call_guests.user_id keeps the account a guest
 * joined as (by a mobile code on the join page, or the session the browser already had); null for a guest who
 * only gave a name. One account is at most one waiting or admitted guest of a call (the partial unique index:
 * of two asks at once with two links, exactly one wins). The call's customer and jeweller are refused by the
 * server before any row changes.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table call_guests add column user_id integer references users(id) on delete set null`,
  `create unique index call_guests_account_idx on call_guests (call_id, user_id)
     where user_id is not null and state in ('asked', 'admitted')`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop index if exists call_guests_account_idx',
    'alter table call_guests drop column if exists user_id',
  ])
    await knex.raw(statement);
}
