import type { Knex } from 'knex';

/**
 * Certificate files (issue #25 §3, docs/product-rules.md §10): products.certificate_url is the stored PDF or
 * image of a diamond or gemstone certificate (a /media/ path). A PDF is stored in media as it came, so media's
 * width and height are now only for images.
 */
const STATEMENTS = [
  `alter table products add column certificate_url text check (certificate_url like '/media/%')`,
  `alter table media alter column width drop not null`,
  `alter table media alter column height drop not null`,
  `alter table media add constraint media_image_size check ((content_type like 'image/%') = (width is not null and height is not null))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from media where content_type not like 'image/%'`,
    `alter table media drop constraint if exists media_image_size`,
    `alter table media alter column width set not null`,
    `alter table media alter column height set not null`,
    `alter table products drop column if exists certificate_url`,
  ])
    await knex.raw(statement);
}
