import type { Knex } from 'knex';

/**
 * The live dashboard and the jeweller's paid-order notice (issue #48, docs/product-rules.md "Issue #48: the
 * jeweller's day on a phone"):
 *
 * - call_events may carry a shop event (kind 'shop', no call, no appointment) to the jeweller: a call-back
 *   request made, a piece held, an order paid. Written by triggers in the transaction of the change, like the
 *   call events of migration 0011, so no code path can forget to tell the open dashboard; the row's insert is
 *   announced by the same pg_notify trigger. (A missed call already reaches the jeweller as a 'call' event.)
 * - notices.kind 'shop_order_paid': the SMS or WhatsApp notice of a new paid order to a jeweller who opted in.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table call_events drop constraint call_events_kind_check`,
  `alter table call_events add constraint call_events_kind_check
     check (kind in ('incoming', 'call', 'signal', 'item', 'appointment', 'shop'))`,
  `alter table call_events drop constraint call_events_subject_check`,
  `alter table call_events add constraint call_events_subject_check
     check ((kind = 'appointment') = (appointment_id is not null)
            and (kind = 'appointment' or kind = 'shop') = (call_id is null))`,
  `
    create function nagai_shop_event(seller integer, body jsonb) returns void language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload) values (null, seller, 'shop', body);
    end $$
  `,
  `
    create function nagai_callback_requested() returns trigger language plpgsql as $$
    begin
      perform nagai_shop_event(NEW.seller_id, jsonb_build_object('what', 'callback', 'requestId', NEW.id));
      return NEW;
    end $$
  `,
  `
    create trigger callback_requests_shop_event after insert on callback_requests
      for each row execute function nagai_callback_requested()
  `,
  `
    create function nagai_hold_taken() returns trigger language plpgsql as $$
    begin
      perform nagai_shop_event(NEW.seller_id,
        jsonb_build_object('what', 'hold', 'holdId', NEW.id, 'productId', NEW.product_id));
      return NEW;
    end $$
  `,
  `
    create trigger product_holds_shop_event after insert on product_holds
      for each row execute function nagai_hold_taken()
  `,
  `
    create function nagai_order_paid() returns trigger language plpgsql as $$
    begin
      perform nagai_shop_event(NEW.seller_id,
        jsonb_build_object('what', 'order-paid', 'orderId', NEW.id,
                           'amountPaise', round(NEW.total_amount * 100)::bigint));
      return NEW;
    end $$
  `,
  `
    create trigger orders_paid_shop_event after update of payment_status on orders
      for each row when (NEW.payment_status = 'paid' and OLD.payment_status is distinct from 'paid')
      execute function nagai_order_paid()
  `,
  `alter table notices drop constraint notices_kind_check`,
  `alter table notices add constraint notices_kind_check
     check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded', 'order_cancelled',
       'callback_soon', 'appointment_confirmed', 'appointment_reminder', 'missed_call', 'mobile_changed',
       'email_changed', 'password_changed', 'shop_order_paid'))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from notices where kind = 'shop_order_paid'`,
    `alter table notices drop constraint notices_kind_check`,
    `alter table notices add constraint notices_kind_check
       check (kind in ('order_paid', 'order_shipped', 'order_delivered', 'order_refunded', 'order_cancelled',
         'callback_soon', 'appointment_confirmed', 'appointment_reminder', 'missed_call', 'mobile_changed',
         'email_changed', 'password_changed'))`,
    'drop trigger if exists orders_paid_shop_event on orders',
    'drop trigger if exists product_holds_shop_event on product_holds',
    'drop trigger if exists callback_requests_shop_event on callback_requests',
    'drop function if exists nagai_order_paid()',
    'drop function if exists nagai_hold_taken()',
    'drop function if exists nagai_callback_requested()',
    'drop function if exists nagai_shop_event(integer, jsonb)',
    `delete from call_events where kind = 'shop'`,
    'alter table call_events drop constraint call_events_subject_check',
    `alter table call_events add constraint call_events_subject_check
       check ((kind = 'appointment') = (call_id is null) and (kind = 'appointment') = (appointment_id is not null))`,
    'alter table call_events drop constraint call_events_kind_check',
    `alter table call_events add constraint call_events_kind_check
       check (kind in ('incoming', 'call', 'signal', 'item', 'appointment'))`,
  ])
    await knex.raw(statement);
}
