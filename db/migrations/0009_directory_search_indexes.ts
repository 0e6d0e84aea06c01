import type { Knex } from 'knex';

/**
 * Trigram indexes for the jeweller directory's search, beside the shop-name one of migration 0001: the city,
 * and the names of sellers (only sellers: customers are never searched for). Without them a search read every
 * shop and seller and scored three columns of each: 42-65 ms at 2,000 sellers.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'create index if not exists seller_profiles_city_trgm on seller_profiles using gin (city gin_trgm_ops)',
  );
  await knex.raw(
    `create index if not exists users_seller_name_trgm on users using gin (display_name gin_trgm_ops)
       where role = 'seller'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_seller_name_trgm');
  await knex.raw('drop index if exists seller_profiles_city_trgm');
}
