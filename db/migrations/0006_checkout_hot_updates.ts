import type { Knex } from 'knex';

const SEARCH_VECTOR = (row: string) => `
  setweight(to_tsvector('english', coalesce(${row}.name, '')), 'A') ||
  setweight(to_tsvector('english', replace(${row}.category, '_', ' ')), 'B') ||
  setweight(to_tsvector('english', replace(${row}.material, '_', ' ')), 'B') ||
  setweight(to_tsvector('english', coalesce(${row}.description, '')), 'C')`;

/**
 * A checkout's stock decrement is the hottest write on products. Three things made every one of them rewrite
 * the row into another page and insert into all sixteen product indexes (two of them GIN):
 *
 * - Pages were filled to the brim, so the new row version never fitted beside the old one. At fillfactor 80 a
 *   page keeps room for it, and an update that changes no indexed column is a HOT update: no index is touched.
 * - `search_vector` was a stored generated column, which PostgreSQL recomputes on every UPDATE of the row,
 *   whatever the columns changed: a stock change ran to_tsvector over the description. A trigger now computes
 *   it only when the name, description, category or material is written.
 * - `units_sold` is indexed (the popularity sort). Checkout and cancellation now queue their changes in
 *   `product_sales_pending`, and a background task adds them up into `units_sold` every few seconds, in one
 *   batched update off the request path.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table products set (fillfactor = 80)');
  await knex.raw('alter table products alter column search_vector drop expression');
  await knex.raw(`
    create function products_search_vector() returns trigger language plpgsql as $$
    begin
      new.search_vector := ${SEARCH_VECTOR('new')};
      return new;
    end $$`);
  await knex.raw(`
    create trigger products_search_vector before insert or update of name, description, category, material
    on products for each row execute function products_search_vector()`);
  // Lets a single-statement write refuse to commit a state its own checks say is impossible: a statement with
  // no transaction around it cannot be rolled back by the application afterwards.
  await knex.raw(`
    create function assert_true(ok boolean, message text) returns boolean language plpgsql as $$
    begin
      if ok is not true then
        raise exception '%', message using errcode = 'P0001';
      end if;
      return true;
    end $$`);
  // A queue, not a ledger: rows live until the next flush. No index and no foreign key, so a checkout's
  // insert is a plain heap append.
  await knex.raw(`
    create table product_sales_pending (
      product_id integer not null,
      quantity integer not null
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    update products p set units_sold = greatest(p.units_sold + s.q, 0)
      from (select product_id, sum(quantity)::int as q from product_sales_pending group by product_id) s
     where p.id = s.product_id`);
  await knex.raw('drop table if exists product_sales_pending');
  await knex.raw('drop function if exists assert_true(boolean, text)');
  await knex.raw('drop trigger if exists products_search_vector on products');
  await knex.raw('drop function if exists products_search_vector()');
  await knex.raw('drop index if exists products_search_idx');
  await knex.raw('alter table products drop column search_vector');
  await knex.raw(
    `alter table products add column search_vector tsvector generated always as (${SEARCH_VECTOR('products').replace(/products\./g, '')}) stored`,
  );
  await knex.raw('create index products_search_idx on products using gin (search_vector)');
  await knex.raw('alter table products reset (fillfactor)');
}
