import type { Knex } from 'knex';

/**
 * A guest's event stream (issue #52, docs/product-rules.md §21.2): a guest has no session and no row in
 * call_events (which is per user), so the database announces what concerns a guest on the events channel with
 * the guest's id ({"g": <guestId>}); every API process LISTENs there already and wakes that guest's open
 * stream, which reads its own state and the mesh signals addressed to it (the rows are the truth, as for
 * users: a lost notification only delays).
 *
 * - call_guests.stream_ticket_hash / stream_ticket_until: the SHA-256 of a short-lived ticket the guest's page
 *   gets with its token (in the header) and opens the stream with (EventSource sends no headers), so the guest's
 *   own token never travels in a URL.
 * - a mesh signal to the customer or the jeweller: its 'family' event carries the signal itself (from, kind,
 *   payload), so their page answers a guest's offer from the event, with no read after it.
 * - announced to a guest: a mesh signal addressed to them; a change of any guest's state in their call (their
 *   own admission, decline, removal; who else is in); a piece shown or a chat message, a like; the call's end.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const GUESTS_OF_CALL = `select g.id from call_guests g where g.call_id = call and g.state in ('asked', 'admitted')`;

const STATEMENTS = [
  `alter table call_guests add column stream_ticket_hash text unique, add column stream_ticket_until timestamptz`,
  `
    create function nagai_guest_notify(guest integer) returns void language plpgsql as $$
    begin
      perform pg_notify('nagai_events_' || current_schema(), json_build_object('g', guest)::text);
    end $$
  `,
  `
    create function nagai_guests_notify(call integer) returns void language plpgsql as $$
    declare
      guest integer;
    begin
      for guest in ${GUESTS_OF_CALL} loop
        perform nagai_guest_notify(guest);
      end loop;
    end $$
  `,
  // A guest's state changed: the guest hears it (even a decline or a removal), and so do the others of the call.
  `
    create or replace function nagai_guest_changed() returns trigger language plpgsql as $$
    begin
      perform nagai_family_event(NEW.call_id,
        jsonb_build_object('what', 'guest', 'guestId', NEW.id, 'state', NEW.state));
      perform nagai_guest_notify(NEW.id);
      perform nagai_guests_notify(NEW.call_id);
      return NEW;
    end $$
  `,
  `
    create or replace function nagai_family_liked() returns trigger language plpgsql as $$
    begin
      perform nagai_family_event(NEW.call_id, jsonb_build_object('what', 'like', 'likeId', NEW.id));
      perform nagai_guests_notify(NEW.call_id);
      return NEW;
    end $$
  `,
  `
    create or replace function nagai_family_signal() returns trigger language plpgsql as $$
    begin
      if left(NEW.to_party, 1) = 'u' then
        insert into call_events (call_id, user_id, kind, payload)
        values (NEW.call_id, substr(NEW.to_party, 2)::integer, 'family',
                jsonb_build_object('what', 'signal', 'signalId', NEW.id, 'from', NEW.from_party,
                                   'kind', NEW.kind, 'payload', NEW.payload));
      else
        perform nagai_guest_notify(substr(NEW.to_party, 2)::integer);
      end if;
      return NEW;
    end $$
  `,
  // What was shown and said (guests see pieces and chat), and a call's end.
  `
    create function nagai_call_item_guests_notify() returns trigger language plpgsql as $$
    begin
      perform nagai_guests_notify(NEW.call_id);
      return NEW;
    end $$
  `,
  `
    create trigger call_items_guest_notify after insert on call_items
      for each row when (NEW.kind in ('product', 'message'))
      execute function nagai_call_item_guests_notify()
  `,
  `
    create function nagai_call_over_guests_notify() returns trigger language plpgsql as $$
    begin
      perform nagai_guests_notify(NEW.id);
      return NEW;
    end $$
  `,
  `
    create trigger calls_guest_notify after update of status on calls
      for each row when (OLD.status is distinct from NEW.status and NEW.status <> 'active')
      execute function nagai_call_over_guests_notify()
  `,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop trigger if exists calls_guest_notify on calls',
    'drop trigger if exists call_items_guest_notify on call_items',
    'drop function if exists nagai_call_over_guests_notify()',
    'drop function if exists nagai_call_item_guests_notify()',
    `create or replace function nagai_family_signal() returns trigger language plpgsql as $$
     begin
       if left(NEW.to_party, 1) = 'u' then
         insert into call_events (call_id, user_id, kind, payload)
         values (NEW.call_id, substr(NEW.to_party, 2)::integer, 'family',
                 jsonb_build_object('what', 'signal', 'signalId', NEW.id));
       end if;
       return NEW;
     end $$`,
    `create or replace function nagai_family_liked() returns trigger language plpgsql as $$
     begin
       perform nagai_family_event(NEW.call_id, jsonb_build_object('what', 'like', 'likeId', NEW.id));
       return NEW;
     end $$`,
    `create or replace function nagai_guest_changed() returns trigger language plpgsql as $$
     begin
       perform nagai_family_event(NEW.call_id,
         jsonb_build_object('what', 'guest', 'guestId', NEW.id, 'state', NEW.state));
       return NEW;
     end $$`,
    'drop function if exists nagai_guests_notify(integer)',
    'drop function if exists nagai_guest_notify(integer)',
    'alter table call_guests drop column stream_ticket_hash, drop column stream_ticket_until',
  ])
    await knex.raw(statement);
}
