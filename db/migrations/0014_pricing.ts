import type { Knex } from 'knex';

/**
 * Gold-rate pricing, hallmark details and the GST tax invoice (issue #25, docs/product-rules.md §10):
 *
 * - metal_rates: a shop's rate per gram for each metal and purity, with the time it was set.
 * - products: fixed-price (as before) or rate-linked ('rate': metal, purity, net weight, making charge as a
 *   percentage or per gram, stone value in stone_charges); weight_g is the gross weight. metal_rate is the rate
 *   the stored price was computed from: `price` itself stays the column listings, search and sorting read, and a
 *   rate change rewrites it (one UPDATE, api/src/features/pricing/service.ts). huid and the certificate's lab and
 *   number are the hallmark details.
 * - cart_items.price_at_add: the unit price when the line was added, so the cart can say the price moved.
 * - seller_profiles: the invoice's legal name, GST state code and invoice number prefix.
 * - order_items: what the invoice line needs, frozen at checkout (HSN, purity, weights, HUID).
 * - document_counters: one row per shop, kind and financial year; the checkout statement increments it in the
 *   same statement that inserts the order, so numbers are consecutive without gaps.
 * - invoices: the tax invoice of an order and, after a cancellation, its credit note; the seller's and buyer's
 *   details are copied in when it is issued and never rewritten.
 *
 * The value lists are literals frozen here (db/ never imports api/); tests/api/schema-constants.test.ts holds
 * them equal to api/contract/pricing.ts.
 */
const STATEMENTS = [
  `
    create table metal_rates (
      seller_id integer not null references users(id) on delete cascade,
      metal text not null check (metal in ('gold', 'silver', 'platinum')),
      purity text not null check (purity in ('24K', '22K', '18K', '999', '925', '950')),
      rate_per_gram numeric(12,2) not null check (rate_per_gram > 0),
      set_at timestamptz not null default now(),
      primary key (seller_id, metal, purity),
      check (metal || ':' || purity in ('gold:24K', 'gold:22K', 'gold:18K', 'silver:999', 'silver:925', 'platinum:950'))
    )
  `,
  `alter table products add column pricing_mode text not null default 'fixed' check (pricing_mode in ('fixed', 'rate'))`,
  `alter table products add column metal text check (metal in ('gold', 'silver', 'platinum'))`,
  `alter table products add column metal_purity text check (metal_purity in ('24K', '22K', '18K', '999', '925', '950'))`,
  `alter table products add column net_weight_g numeric(10,3) check (net_weight_g is null or net_weight_g > 0)`,
  `alter table products add column making_type text check (making_type in ('percent', 'per_gram'))`,
  `alter table products add column making_value numeric(12,2) check (making_value is null or making_value >= 0)`,
  `alter table products add column metal_rate numeric(12,2) check (metal_rate is null or metal_rate > 0)`,
  `alter table products add column huid text check (huid is null or huid ~ '^[A-Z0-9]{6}$')`,
  `alter table products add column certificate_lab text check (certificate_lab is null or length(certificate_lab) <= 100)`,
  `alter table products add column certificate_number text check (certificate_number is null or length(certificate_number) <= 100)`,
  `
    alter table products add constraint products_rate_linked_check check (
      pricing_mode = 'fixed'
      or (metal is not null and metal_purity is not null and net_weight_g is not null
          and making_type is not null and making_value is not null)
    )
  `,
  `create index products_rate_linked_idx on products (seller_id, metal, metal_purity) where pricing_mode = 'rate' and deleted_at is null`,
  `create index products_gold_huid_idx on products (seller_id) where material = 'gold' and huid is null and deleted_at is null`,
  `alter table cart_items add column price_at_add numeric(12,2)`,
  `alter table seller_profiles add column legal_name text check (legal_name is null or length(legal_name) between 2 and 200)`,
  `alter table seller_profiles add column gst_state_code text check (gst_state_code is null or gst_state_code ~ '^[0-9]{2}$')`,
  `alter table seller_profiles add column invoice_prefix text check (invoice_prefix is null or invoice_prefix ~ '^[A-Z]{2,6}$')`,
  `alter table order_items add column hsn text`,
  `alter table order_items add column purity text`,
  `alter table order_items add column net_weight_g numeric(10,3)`,
  `alter table order_items add column gross_weight_g numeric(10,3)`,
  `alter table order_items add column huid text`,
  `
    create table document_counters (
      seller_id integer not null references users(id) on delete cascade,
      kind text not null check (kind in ('invoice', 'credit_note')),
      fy text not null check (fy ~ '^[0-9]{4}-[0-9]{2}$'),
      last_seq integer not null check (last_seq > 0),
      primary key (seller_id, kind, fy)
    )
  `,
  `
    create table invoices (
      id serial primary key,
      order_id integer not null references orders(id) on delete cascade,
      seller_id integer not null references users(id) on delete cascade,
      kind text not null check (kind in ('invoice', 'credit_note')),
      fy text not null,
      seq integer not null check (seq > 0),
      number text not null,
      issued_at timestamptz not null,
      seller_legal_name text not null,
      seller_address text not null,
      seller_gstin text,
      seller_state_code text,
      buyer_name text not null,
      buyer_address text not null,
      buyer_gstin text,
      buyer_state text not null,
      buyer_state_code text,
      unique (seller_id, kind, fy, seq),
      unique (order_id, kind)
    )
  `,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop table if exists invoices',
    'drop table if exists document_counters',
    'alter table order_items drop column if exists huid',
    'alter table order_items drop column if exists gross_weight_g',
    'alter table order_items drop column if exists net_weight_g',
    'alter table order_items drop column if exists purity',
    'alter table order_items drop column if exists hsn',
    'alter table seller_profiles drop column if exists invoice_prefix',
    'alter table seller_profiles drop column if exists gst_state_code',
    'alter table seller_profiles drop column if exists legal_name',
    'alter table cart_items drop column if exists price_at_add',
    'drop index if exists products_gold_huid_idx',
    'drop index if exists products_rate_linked_idx',
    'alter table products drop constraint if exists products_rate_linked_check',
    'alter table products drop column if exists certificate_number',
    'alter table products drop column if exists certificate_lab',
    'alter table products drop column if exists huid',
    'alter table products drop column if exists metal_rate',
    'alter table products drop column if exists making_value',
    'alter table products drop column if exists making_type',
    'alter table products drop column if exists net_weight_g',
    'alter table products drop column if exists metal_purity',
    'alter table products drop column if exists metal',
    'alter table products drop column if exists pricing_mode',
    'drop table if exists metal_rates',
  ])
    await knex.raw(statement);
}
