import type { Knex } from 'knex';

/**
 * Paying for it (issue #24, docs/product-rules.md "Payments"):
 *
 * - orders.payment_method: upi, card, netbanking (online, through the gateway) or cash_on_delivery. The old
 *   credit_card becomes card and google_pay becomes upi (Google Pay is a UPI app).
 * - orders.payment_status: pending, paid, failed, refunded (online) and cash_due, cash_collected (cash on
 *   delivery). Existing cash orders move to cash_due (not yet delivered) or cash_collected (delivered, paid).
 * - orders.pay_before: an online order not paid by then is cancelled by the server (PAYMENT_WINDOW_MINUTES after
 *   checkout; unpaid online orders already open get 15 minutes from the migration).
 * - orders.gateway_order_id: the gateway order (one per checkout, or per "Pay now") the order is paid through.
 * - orders.buyer_pan_enc / buyer_pan_masked: the buyer's PAN for an order of ₹2,00,000 or more, encrypted
 *   (AES-256-GCM, the key is the server's) and masked (ABCDE****F) for the seller and the invoice.
 * - seller_profiles.cash_on_delivery: the shop offers cash on delivery (on for every shop, as before).
 * - gateway_orders: one row per gateway order, with the server's amount (the client's never counts).
 * - gateway_payments: each payment the gateway reported (verified by signature), once per payment id; applied
 *   when it paid its orders, else (its orders were cancelled or relinked meanwhile) refunded whole (refund_state).
 * - payment_events: each webhook event id handled, so a replay has no effect.
 * - refunds: at most one per order (a paid order cancelled), with the gateway's refund id and status.
 * - ledger_entries: the shops' money in paise: a sale (amount and commission) and a refund per order at most
 *   once, and payouts the admin recorded with a reference.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const OLD_METHODS = ['credit_card', 'google_pay', 'cash_on_delivery'];
const NEW_METHODS = ['upi', 'card', 'netbanking', 'cash_on_delivery'];
const OLD_STATUSES = ['pending', 'paid', 'failed', 'refunded'];
const NEW_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'cash_due', 'cash_collected'];
const list = (values: string[]) => values.map((v) => `'${v}'`).join(', ');

/** 0001's inline CHECK constraints are named `<table>_<column>_check` by PostgreSQL. */
const UP = [
  'alter table orders drop constraint if exists orders_payment_method_check',
  'alter table orders drop constraint if exists orders_payment_status_check',
  `update orders set payment_method = case payment_method when 'credit_card' then 'card'
                                                          when 'google_pay' then 'upi'
                                                          else payment_method end`,
  `update orders set payment_status = case when payment_status = 'paid' then 'cash_collected' else 'cash_due' end
    where payment_method = 'cash_on_delivery' and payment_status in ('pending', 'paid')`,
  `alter table orders add constraint orders_payment_method_check check (payment_method in (${list(NEW_METHODS)}))`,
  `alter table orders add constraint orders_payment_status_check check (payment_status in (${list(NEW_STATUSES)}))`,
  `
    create table gateway_orders (
      id serial primary key,
      gateway_order_id text not null unique,
      customer_id integer not null references users(id) on delete cascade,
      checkout_ref text not null,
      amount_paise bigint not null check (amount_paise > 0),
      currency text not null default 'INR',
      status text not null default 'created' check (status in ('created', 'paid')),
      created_at timestamptz not null default now()
    )
  `,
  'create index gateway_orders_checkout_idx on gateway_orders (checkout_ref)',
  'alter table orders add column gateway_order_id text references gateway_orders(gateway_order_id)',
  'create index orders_gateway_order_idx on orders (gateway_order_id) where gateway_order_id is not null',
  'alter table orders add column pay_before timestamptz',
  `update orders set pay_before = now() + interval '15 minutes'
    where payment_method <> 'cash_on_delivery' and status in ('pending', 'confirmed') and payment_status = 'pending'`,
  'alter table orders add column buyer_pan_enc text',
  'alter table orders add column buyer_pan_masked text',
  `
    create table gateway_payments (
      id serial primary key,
      gateway_payment_id text not null unique,
      gateway_order_id text not null references gateway_orders(gateway_order_id),
      status text not null check (status in ('captured', 'failed')),
      amount_paise bigint not null,
      method text,
      applied boolean not null default false,
      refund_state text not null default 'none' check (refund_state in ('none', 'due', 'sent')),
      gateway_refund_id text,
      created_at timestamptz not null default now()
    )
  `,
  `
    create table payment_events (
      event_id text primary key,
      event text not null,
      received_at timestamptz not null default now()
    )
  `,
  `
    create table refunds (
      id serial primary key,
      order_id integer not null unique references orders(id) on delete cascade,
      gateway_payment_id text not null,
      gateway_refund_id text unique,
      amount_paise bigint not null check (amount_paise > 0),
      status text not null default 'pending' check (status in ('pending', 'processed', 'failed')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `,
  `create index refunds_unsent_idx on refunds (created_at) where gateway_refund_id is null and status = 'pending'`,
  `
    create table ledger_entries (
      id serial primary key,
      seller_id integer not null references users(id) on delete cascade,
      order_id integer references orders(id) on delete set null,
      kind text not null check (kind in ('sale', 'refund', 'payout')),
      amount_paise bigint not null,
      commission_paise bigint not null default 0,
      reference text check (char_length(reference) <= 100),
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now()
    )
  `,
  `create unique index ledger_entries_once on ledger_entries (order_id, kind) where kind in ('sale', 'refund')`,
  'create index ledger_entries_seller_idx on ledger_entries (seller_id, created_at)',
  'alter table seller_profiles add column cash_on_delivery boolean not null default true',
  // Orders awaiting payment (online, not yet paid) or the shop (cash due): the cap per customer and the release.
  `create index orders_awaiting_payment_idx on orders (customer_id)
     where status in ('pending', 'confirmed') and payment_status in ('pending', 'failed', 'cash_due')`,
  `create index orders_payment_window_idx on orders (pay_before)
     where status in ('pending', 'confirmed') and payment_status in ('pending', 'failed')`,
  `create index orders_cash_due_age_idx on orders (created_at) where status = 'pending' and payment_status = 'cash_due'`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of UP) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop index if exists orders_cash_due_age_idx',
    'drop index if exists orders_payment_window_idx',
    'drop index if exists orders_awaiting_payment_idx',
    'alter table seller_profiles drop column if exists cash_on_delivery',
    'drop table if exists ledger_entries',
    'drop table if exists refunds',
    'drop table if exists payment_events',
    'drop table if exists gateway_payments',
    'alter table orders drop column if exists buyer_pan_masked',
    'alter table orders drop column if exists buyer_pan_enc',
    'alter table orders drop column if exists pay_before',
    'alter table orders drop column if exists gateway_order_id',
    'drop table if exists gateway_orders',
    'alter table orders drop constraint if exists orders_payment_method_check',
    'alter table orders drop constraint if exists orders_payment_status_check',
    `update orders set payment_status = case payment_status when 'cash_collected' then 'paid'
                                                            when 'cash_due' then 'pending'
                                                            else payment_status end`,
    `update orders set payment_method = case payment_method when 'card' then 'credit_card'
                                                            when 'upi' then 'google_pay'
                                                            when 'netbanking' then 'credit_card'
                                                            else payment_method end`,
    `alter table orders add constraint orders_payment_method_check check (payment_method in (${list(OLD_METHODS)}))`,
    `alter table orders add constraint orders_payment_status_check check (payment_status in (${list(OLD_STATUSES)}))`,
  ])
    await knex.raw(statement);
}
