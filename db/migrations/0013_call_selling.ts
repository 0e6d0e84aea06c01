import type { Knex } from 'knex';

/**
 * Selling inside the call (issue #20, docs/product-rules.md "Selling in the call"):
 *
 * - calls.product_id: the piece the customer called about (null for a call placed from the shop page).
 * - call_items: what was shown, sent and said in a call: a product card, a photo from the jeweller's camera, a
 *   chat message (whose product links are read from its text when it is shown). Each insert writes an 'item'
 *   event for both participants (the same transaction, notified through call_events' own trigger), so the
 *   event stream carries it the moment it is stored, whichever API process stored it.
 * - call_photos: the photo bytes, kept in the database and served only to the call's two participants (never
 *   under the public /media URLs).
 * - product_holds: a unit of stock set aside for a customer after a call. Taking a hold takes the unit out of
 *   products.stock_quantity at once; releasing or expiring it puts the unit back, and checkout consumes it (the
 *   unit then belongs to the order). One active hold per customer and product.
 *
 * The value lists of the CHECK constraints are literals frozen here (db/ never imports api/): tests/api/
 * schema-constants.test.ts compares them with the contract's lists.
 */
const STATEMENTS = [
  `alter table calls add column product_id integer references products(id) on delete set null`,
  `
    create table call_items (
      id bigserial primary key,
      call_id integer not null references calls(id) on delete cascade,
      from_user_id integer not null references users(id) on delete cascade,
      kind text not null check (kind in ('product', 'photo', 'message')),
      product_id integer references products(id) on delete set null,
      body text,
      created_at timestamptz not null default now()
    )
  `,
  `create index call_items_call_idx on call_items (call_id, id)`,
  `
    create table call_photos (
      item_id bigint primary key references call_items(id) on delete cascade,
      bytes bytea not null,
      mime text not null default 'image/jpeg',
      width integer not null check (width > 0),
      height integer not null check (height > 0)
    )
  `,
  `
    create table product_holds (
      id serial primary key,
      product_id integer not null references products(id) on delete cascade,
      customer_id integer not null references users(id) on delete cascade,
      seller_id integer not null references users(id) on delete cascade,
      call_id integer references calls(id) on delete set null,
      status text not null default 'active' check (status in ('active', 'consumed', 'released', 'expired')),
      expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      ended_at timestamptz,
      order_id integer references orders(id) on delete set null
    )
  `,
  `create unique index product_holds_one_active on product_holds (customer_id, product_id) where status = 'active'`,
  `create index product_holds_expiry_idx on product_holds (status, expires_at) where status = 'active'`,
  `create index product_holds_seller_idx on product_holds (seller_id, expires_at) where status = 'active'`,
  `create index product_holds_call_idx on product_holds (call_id)`,
  `alter table call_events drop constraint call_events_kind_check`,
  `alter table call_events add constraint call_events_kind_check check (kind in ('incoming', 'call', 'signal', 'item'))`,
  `
    create function nagai_call_item_inserted() returns trigger language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload, created_at)
      select c.id, u.id, 'item', jsonb_build_object('itemId', NEW.id), NEW.created_at
        from calls c cross join lateral (values (c.caller_id), (c.seller_id)) as u(id)
       where c.id = NEW.call_id;
      return NEW;
    end $$
  `,
  `
    create trigger call_items_event after insert on call_items
      for each row execute function nagai_call_item_inserted()
  `,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop trigger if exists call_items_event on call_items',
    'drop function if exists nagai_call_item_inserted()',
    `delete from call_events where kind = 'item'`,
    'alter table call_events drop constraint call_events_kind_check',
    `alter table call_events add constraint call_events_kind_check check (kind in ('incoming', 'call', 'signal'))`,
    'drop table if exists product_holds',
    'drop table if exists call_photos',
    'drop table if exists call_items',
    'alter table calls drop column if exists product_id',
  ])
    await knex.raw(statement);
}
