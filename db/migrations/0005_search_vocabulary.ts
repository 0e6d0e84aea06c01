import type { Knex } from 'knex';

// Words of at least this many characters are kept: trigram similarity says nothing useful about shorter ones.
const WORDS = `regexp_split_to_table(lower(%s), '[^[:alnum:]]+')`;

/**
 * The vocabulary of the catalogue: every distinct word of product names, categories and materials. Misspelled
 * search words ('jumka', 'gld', 'chian') are corrected by trigram similarity against these few hundred or
 * thousand words instead of against 100k product names, and the search itself then stays full-text only.
 *
 * Words are only ever added (a renamed or deleted product leaves its words behind, which at worst offers a
 * correction that finds little). Inserts add words per statement from the transition table, so the bulk
 * generator's multi-row inserts cost one extra statement each; renames add them per row, and only when the
 * name changes, so stock and rating updates never touch the vocabulary.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table search_words (word text collate "C" primary key)`);
  await knex.raw('create index search_words_trgm on search_words using gin (word gin_trgm_ops)');
  const source = (alias: string) => `
    select w from ${alias},
      lateral ${WORDS.replace('%s', `${alias}.name || ' ' || replace(${alias}.category, '_', ' ') || ' ' || replace(${alias}.material, '_', ' ')`)} w
    where length(w) >= 3`;
  await knex.raw(`
    create function search_words_from_new_products() returns trigger language plpgsql as $$
    begin
      insert into search_words (word) select distinct w from (${source('new_rows')}) s
      on conflict do nothing;
      return null;
    end $$`);
  await knex.raw(`
    create trigger products_search_words_insert after insert on products
    referencing new table as new_rows for each statement execute function search_words_from_new_products()`);
  await knex.raw(`
    create function search_words_from_renamed_product() returns trigger language plpgsql as $$
    begin
      insert into search_words (word)
      select distinct w from ${WORDS.replace('%s', "new.name || ' ' || replace(new.category, '_', ' ') || ' ' || replace(new.material, '_', ' ')")} w
      where length(w) >= 3
      on conflict do nothing;
      return null;
    end $$`);
  await knex.raw(`
    create trigger products_search_words_update after update of name, category, material on products
    for each row when (old.name is distinct from new.name or old.category is distinct from new.category
      or old.material is distinct from new.material)
    execute function search_words_from_renamed_product()`);
  await knex.raw(
    `insert into search_words (word) select distinct w from (${source('products')}) s on conflict do nothing`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists products_search_words_update on products');
  await knex.raw('drop trigger if exists products_search_words_insert on products');
  await knex.raw('drop function if exists search_words_from_renamed_product()');
  await knex.raw('drop function if exists search_words_from_new_products()');
  await knex.raw('drop table if exists search_words');
}
