import type { Knex } from 'knex';

/**
 * Images for slow links (issue #23, docs/product-rules.md "Images"): product_images.placeholder holds the tiny
 * blurred preview of the image (a data: URI of a 16 px WebP, about 200 bytes), shown while the image loads.
 * Images stored before this get one when their product's images are next saved; until then they show the
 * plain image box.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `alter table product_images add column placeholder text check (char_length(placeholder) <= 2000)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table product_images drop column if exists placeholder`);
}
