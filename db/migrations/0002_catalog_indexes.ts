import type { Knex } from 'knex';

/** Runs a script one statement at a time (PGlite's driver takes a single statement per query). */
async function exec(knex: Knex, script: string): Promise<void> {
  const statements = script
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
  for (const statement of statements) await knex.raw(statement);
}

/**
 * Public catalogue: a product is public when it is not deleted and its shop is approved. Approval lives on
 * seller_profiles, and a partial index cannot look at another table, so every listing would have to probe the
 * shop for each row it skips — deep OFFSET pages then cost a join per skipped row. A trigger-kept copy of the
 * shop's approval on each product lets the public sort indexes hold only public rows, so OFFSET walks an
 * index-only scan and the count is an index-only count.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table products add column seller_approved boolean not null default false');
  // One statement each: dollar-quoted bodies contain semicolons, which exec() would split.
  await knex.raw(`
    create function products_copy_seller_approval() returns trigger language plpgsql as $$
    begin
      new.seller_approved := coalesce(
        (select sp.is_approved from seller_profiles sp where sp.user_id = new.seller_id), false);
      return new;
    end $$`);
  await knex.raw(`
    create trigger products_seller_approval before insert or update of seller_id on products
    for each row execute function products_copy_seller_approval()`);
  await knex.raw(`
    create function seller_profiles_push_approval() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        update products set seller_approved = false
          where seller_id = old.user_id and seller_approved
            and (tg_op = 'DELETE' or old.user_id <> new.user_id or new.is_approved is not true);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        update products set seller_approved = coalesce(new.is_approved, false)
          where seller_id = new.user_id and seller_approved <> coalesce(new.is_approved, false);
      end if;
      return null;
    end $$`);
  await knex.raw(`
    create trigger seller_profiles_approval after insert or delete or update of is_approved, user_id
    on seller_profiles for each row execute function seller_profiles_push_approval()`);
  await knex.raw(`
    update products p set seller_approved = true
    from seller_profiles sp where sp.user_id = p.seller_id and sp.is_approved`);

  await exec(
    knex,
    `
    create index products_public_newest_idx on products (created_at desc, id desc)
      where deleted_at is null and seller_approved;
    create index products_public_price_idx on products (price, id)
      where deleted_at is null and seller_approved;
    create index products_public_rating_idx on products (rating_avg desc, id desc)
      where deleted_at is null and seller_approved;
    create index products_public_popularity_idx on products (units_sold desc, id desc)
      where deleted_at is null and seller_approved;
    create index products_public_category_idx on products (category, material, price)
      where deleted_at is null and seller_approved;
    `,
  );
}

export async function down(knex: Knex): Promise<void> {
  await exec(
    knex,
    `
    drop trigger if exists seller_profiles_approval on seller_profiles;
    drop trigger if exists products_seller_approval on products;
    drop function if exists seller_profiles_push_approval();
    drop function if exists products_copy_seller_approval();
    alter table products drop column if exists seller_approved;
    `,
  );
}
