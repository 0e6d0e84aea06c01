import type { Knex } from 'knex';

/**
 * A plain index on products(seller_id): the partial one (live products only) cannot serve the approval
 * trigger's `update products … where seller_id = ?` or the foreign key's checks, which then scanned the
 * whole table for every seller row written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index if not exists products_seller_all_idx on products (seller_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists products_seller_all_idx');
}
