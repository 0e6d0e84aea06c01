import type { Knex } from 'knex';

/**
 * Search in the customer's own words (issue #35): Tamil (and Devanagari) words are indexed whole and in one
 * Unicode form.
 *
 * - The vocabulary of product words (search_words, migration 0005), against which misspelt words are
 *   corrected by trigram, was split at every character that is not [:alnum:]. A Tamil vowel sign or virama is
 *   not, so "ஜிமிக்கி" went in as "ஜிமிக" and "கி" and a seller's Tamil word could never be a correction.
 *   Words are now split at white space and punctuation only (ASCII, Latin-1 and general punctuation, the
 *   Devanagari danda), spelled out: [:punct:] holds the Tamil virama in the C.UTF-8 locale.
 * - The same text typed on two keyboards may differ in its code points; searches are read in Unicode NFC
 *   (api/src/features/catalog/query-reading.ts), and the indexed text is now NFC too. Stored names and
 *   descriptions that were not are rewritten in NFC (the same text to a reader).
 */
const SPLIT = String.raw`[[:space:]!-/:-@\[-\x60{-~\u00a0-\u00bf\u2000-\u206f\u0964\u0965]+`;
const OLD_SPLIT = '[^[:alnum:]]+';

const words = (text: string, split: string, nfc: boolean) =>
  `regexp_split_to_table(lower(${nfc ? `normalize(${text}, NFC)` : text}), '${split}')`;
const productText = (row: string) =>
  `${row}.name || ' ' || replace(${row}.category, '_', ' ') || ' ' || replace(${row}.material, '_', ' ')`;

const vocabularyFunctions = (split: string, nfc: boolean) => [
  `create or replace function search_words_from_new_products() returns trigger language plpgsql as $$
    begin
      insert into search_words (word) select distinct w from (
        select w from new_rows, lateral ${words(productText('new_rows'), split, nfc)} w where length(w) >= 3) s
      on conflict do nothing;
      return null;
    end $$`,
  `create or replace function search_words_from_renamed_product() returns trigger language plpgsql as $$
    begin
      insert into search_words (word)
      select distinct w from ${words(productText('new'), split, nfc)} w
      where length(w) >= 3
      on conflict do nothing;
      return null;
    end $$`,
];

const searchVector = (nfc: boolean) => {
  const n = (x: string) => (nfc ? `normalize(${x}, NFC)` : x);
  return `create or replace function products_search_vector() returns trigger language plpgsql as $$
    begin
      new.search_vector :=
        setweight(to_tsvector('english', ${n("coalesce(new.name, '')")}), 'A') ||
        setweight(to_tsvector('english', replace(new.category, '_', ' ')), 'B') ||
        setweight(to_tsvector('english', replace(new.material, '_', ' ')), 'B') ||
        setweight(to_tsvector('english', ${n("coalesce(new.description, '')")}), 'C');
      return new;
    end $$`;
};

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of vocabularyFunctions(SPLIT, true)) await knex.raw(statement);
  await knex.raw(searchVector(true));
  await knex.raw(
    `update products set name = normalize(name, NFC), description = normalize(description, NFC)
      where name is not nfc normalized or description is not nfc normalized`,
  );
  await knex.raw(
    `insert into search_words (word) select distinct w from (
       select w from products, lateral ${words(productText('products'), SPLIT, true)} w where length(w) >= 3) s
     on conflict do nothing`,
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of vocabularyFunctions(OLD_SPLIT, false)) await knex.raw(statement);
  await knex.raw(searchVector(false));
}
