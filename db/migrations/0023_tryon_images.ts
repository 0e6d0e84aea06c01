import type { Knex } from 'knex';

/**
 * Try-on images (issue #36, docs/product-rules.md §16): a product may carry a front view of the piece on a
 * transparent background (a /media/ WebP made from the seller's PNG or WebP), its size in pixels and its anchor
 * point, where the piece is held (fractions of its width and height). All five are given together or none.
 */
const STATEMENTS = [
  `alter table products add column tryon_image_url text check (tryon_image_url like '/media/%')`,
  `alter table products add column tryon_width integer check (tryon_width > 0)`,
  `alter table products add column tryon_height integer check (tryon_height > 0)`,
  `alter table products add column tryon_anchor_x real check (tryon_anchor_x between 0 and 1)`,
  `alter table products add column tryon_anchor_y real check (tryon_anchor_y between 0 and 1)`,
  `alter table products add constraint products_tryon_complete check (
     (tryon_image_url is null and tryon_width is null and tryon_height is null
       and tryon_anchor_x is null and tryon_anchor_y is null)
     or (tryon_image_url is not null and tryon_width is not null and tryon_height is not null
       and tryon_anchor_x is not null and tryon_anchor_y is not null))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `alter table products drop constraint if exists products_tryon_complete`,
    `alter table products drop column if exists tryon_anchor_y`,
    `alter table products drop column if exists tryon_anchor_x`,
    `alter table products drop column if exists tryon_height`,
    `alter table products drop column if exists tryon_width`,
    `alter table products drop column if exists tryon_image_url`,
    `delete from media where key like '%-tryon.webp'`,
  ])
    await knex.raw(statement);
}
