import type { Knex } from 'knex';

/** Indexes on rating_avg that the Bayesian score (rating_score) replaces, as 0001, 0002 and 0007 made them. */
const OLD_RATING_INDEXES = [
  'products_rating_idx on products (rating_avg desc, id desc) where deleted_at is null',
  'products_public_rating_idx on products (rating_avg desc, id desc) where deleted_at is null and seller_approved',
  'products_public_category_rating_idx on products (category, rating_avg desc, id desc) where deleted_at is null and seller_approved',
  'products_public_material_rating_idx on products (material, rating_avg desc, id desc) where deleted_at is null and seller_approved',
  'seller_profiles_approved_idx on seller_profiles (is_approved, rating_avg desc)',
];
const NEW_RATING_INDEXES = OLD_RATING_INDEXES.map((i) => i.replaceAll('rating_avg', 'rating_score'));

/**
 * The abuse protections of issue 18 (docs/security.md):
 * - users.failed_logins / failed_login_at: failed sign-ins since the owner last dismissed the notice.
 * - push_subscriptions.session_id: a subscription belongs to the session that made it and dies with it
 *   (logout, password change, expiry). Existing ones move to their user's newest live session, or go.
 * - orders.paid_at: when the payment was taken (payment_status 'paid'); open unpaid orders are looked up by
 *   customer (the cap) and by age (the release of their stock).
 * - rating_score: the Bayesian average that ranking sorts by, (avg × n + 3 × 10) / (n + 10), 0 unrated
 *   (RATING_PRIOR in api/contract/constants.ts), so one 5-star rating cannot outrank hundreds at 4.9.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users
      add column failed_logins integer not null default 0 check (failed_logins >= 0),
      add column failed_login_at timestamptz
  `);

  await knex.raw(
    `alter table push_subscriptions add column session_id text references sessions(id) on delete cascade`,
  );
  await knex.raw(`
    update push_subscriptions ps set session_id = (
      select s.id from sessions s where s.user_id = ps.user_id and s.expires_at > now()
       order by s.last_seen_at desc limit 1)
  `);
  await knex.raw('delete from push_subscriptions where session_id is null');
  await knex.raw('alter table push_subscriptions alter column session_id set not null');
  await knex.raw('create index push_subscriptions_session_idx on push_subscriptions (session_id)');

  await knex.raw('alter table orders add column paid_at timestamptz');
  await knex.raw(`update orders set paid_at = updated_at where payment_status = 'paid'`);
  await knex.raw(`
    create index orders_unpaid_customer_idx on orders (customer_id)
      where status = 'pending' and payment_status = 'pending'
  `);
  await knex.raw(`
    create index orders_unpaid_age_idx on orders (created_at)
      where status = 'pending' and payment_status = 'pending'
  `);

  for (const table of ['products', 'seller_profiles']) {
    await knex.raw(`
      alter table ${table} add column rating_score numeric(6,4) generated always as (
        case when rating_count = 0 then 0
             else round((rating_avg * rating_count + 3.0 * 10) / (rating_count + 10), 4) end) stored
    `);
  }
  for (const index of OLD_RATING_INDEXES) await knex.raw(`drop index if exists ${index.split(' ')[0]}`);
  for (const index of NEW_RATING_INDEXES) await knex.raw(`create index if not exists ${index}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const index of NEW_RATING_INDEXES) await knex.raw(`drop index if exists ${index.split(' ')[0]}`);
  for (const index of OLD_RATING_INDEXES) await knex.raw(`create index if not exists ${index}`);
  await knex.raw('alter table seller_profiles drop column if exists rating_score');
  await knex.raw('alter table products drop column if exists rating_score');
  await knex.raw('drop index if exists orders_unpaid_age_idx');
  await knex.raw('drop index if exists orders_unpaid_customer_idx');
  await knex.raw('alter table orders drop column if exists paid_at');
  await knex.raw('alter table push_subscriptions drop column if exists session_id');
  await knex.raw(
    'alter table users drop column if exists failed_login_at, drop column if exists failed_logins',
  );
}
