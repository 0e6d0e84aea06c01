import type { Knex } from 'knex';

/**
 * Shop hours, away, call-back requests (issue #22, docs/product-rules.md "Shop hours"):
 *
 * - seller_profiles.video_hours: the weekly video hours, a jsonb array of { day: 1-7 (ISO, Monday = 1),
 *   from: 'HH:MM', to: 'HH:MM' } in the shop's time zone; several ranges a day, a `to` at or before `from` runs
 *   past midnight. The default is every day 00:00-24:00, so a shop that never set hours keeps taking calls.
 * - seller_profiles.time_zone (IANA, default Asia/Kolkata), away and away_message.
 * - callback_requests: a customer's request that the shop call back (optionally about a product, from a
 *   declined or missed call, with a note and a preferred window); open → answered, expired or withdrawn. One
 *   open request per customer and shop.
 * - calls.direction: 'to_seller' (the customer rings the shop, as before) or 'to_customer' (the jeweller's
 *   call-back rings the customer). The 'incoming' event goes to whoever is rung.
 *
 * The shape of the hours is checked by the API's schema (api/contract/shop-hours.ts); the database keeps it an
 * array. The literals are frozen here (db/ never imports api/).
 */
const ALWAYS_OPEN = JSON.stringify([1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })));

const STATEMENTS = [
  `alter table seller_profiles add column video_hours jsonb not null default '${ALWAYS_OPEN}'::jsonb`,
  `alter table seller_profiles add constraint seller_profiles_video_hours_array
     check (jsonb_typeof(video_hours) = 'array')`,
  `alter table seller_profiles add column time_zone text not null default 'Asia/Kolkata'`,
  `alter table seller_profiles add column away boolean not null default false`,
  `alter table seller_profiles add column away_message text check (char_length(away_message) <= 120)`,
  `
    create table callback_requests (
      id serial primary key,
      customer_id integer not null references users(id) on delete cascade,
      seller_id integer not null references users(id) on delete cascade,
      product_id integer references products(id) on delete set null,
      from_call_id integer references calls(id) on delete set null,
      note text check (char_length(note) <= 500),
      preferred_window text not null check (preferred_window in ('now', 'today', 'at')),
      preferred_at timestamptz,
      status text not null default 'open' check (status in ('open', 'answered', 'expired', 'withdrawn')),
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      closed_at timestamptz,
      answered_call_id integer references calls(id) on delete set null
    )
  `,
  `create unique index callback_requests_one_open on callback_requests (customer_id, seller_id) where status = 'open'`,
  `create index callback_requests_queue_idx on callback_requests (seller_id, created_at) where status = 'open'`,
  `create index callback_requests_customer_idx on callback_requests (customer_id, created_at desc)`,
  `create index callback_requests_expiry_idx on callback_requests (expires_at) where status = 'open'`,
  // Who rings whom: caller_id stays the customer and seller_id the shop in every call, so each participant
  // check keeps working; 'to_customer' is the jeweller's call-back, which rings the customer.
  `alter table calls add column direction text not null default 'to_seller'
     check (direction in ('to_seller', 'to_customer'))`,
  `alter table calls add column callback_request_id integer references callback_requests(id) on delete set null`,
  `
    create or replace function nagai_call_inserted() returns trigger language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload, created_at)
      values (NEW.id, case when NEW.direction = 'to_customer' then NEW.caller_id else NEW.seller_id end,
              'incoming', '{}'::jsonb, NEW.created_at);
      return NEW;
    end $$
  `,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `
    create or replace function nagai_call_inserted() returns trigger language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload, created_at)
      values (NEW.id, NEW.seller_id, 'incoming', '{}'::jsonb, NEW.created_at);
      return NEW;
    end $$
    `,
    'alter table calls drop column if exists callback_request_id',
    'alter table calls drop column if exists direction',
    'drop table if exists callback_requests',
    'alter table seller_profiles drop column if exists away_message',
    'alter table seller_profiles drop column if exists away',
    'alter table seller_profiles drop column if exists time_zone',
    'alter table seller_profiles drop column if exists video_hours',
  ])
    await knex.raw(statement);
}
