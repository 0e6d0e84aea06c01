import type { Knex } from 'knex';

/**
 * Family in the call (issue #52, docs/product-rules.md §21):
 *
 * - call_guests: one row per invite link, so one per guest. Only hashes are kept: of the link's token (the
 *   invite) and of the guest's own token (given once, when the guest asks to join; it grants nothing but this
 *   guest's part in this one call). The state moves invited → asked → admitted / declined, admitted → removed /
 *   left; a call that is over ends every guest's part whatever the row says.
 * - call_family_signals: WebRTC signalling between two parties of the call's mesh when one of them is a guest
 *   ('u<userId>' for the customer and the jeweller, 'g<guestId>' for a guest). The customer–jeweller link keeps
 *   call_signals.
 * - call_family_likes: a guest's heart or "I like this one" on a piece shown in the call.
 * - call_events kind 'family': a guest's state changed, a like, a mesh signal addressed to the customer or the
 *   jeweller. Written by triggers in the same transaction, like the call events of migration 0011.
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `
    create table call_guests (
      id serial primary key,
      call_id integer not null references calls(id) on delete cascade,
      invited_by integer not null references users(id) on delete cascade,
      invite_hash text not null unique,
      guest_hash text unique,
      name text,
      state text not null default 'invited'
        check (state in ('invited', 'asked', 'admitted', 'declined', 'removed', 'left')),
      created_at timestamptz not null default now(),
      asked_at timestamptz,
      admitted_at timestamptz,
      ended_at timestamptz,
      seen_at timestamptz
    )
  `,
  `create index call_guests_call_idx on call_guests (call_id, id)`,
  `create index call_guests_inviter_idx on call_guests (invited_by, created_at)`,
  `
    create table call_family_signals (
      id bigserial primary key,
      call_id integer not null references calls(id) on delete cascade,
      from_party text not null,
      to_party text not null,
      kind text not null check (kind in ('offer', 'answer', 'candidate', 'bye')),
      payload jsonb not null,
      created_at timestamptz not null default now()
    )
  `,
  `create index call_family_signals_inbox_idx on call_family_signals (call_id, to_party, id)`,
  `
    create table call_family_likes (
      id bigserial primary key,
      call_id integer not null references calls(id) on delete cascade,
      guest_id integer not null references call_guests(id) on delete cascade,
      product_id integer not null references products(id) on delete cascade,
      kind text not null check (kind in ('heart', 'like')),
      created_at timestamptz not null default now()
    )
  `,
  `create index call_family_likes_call_idx on call_family_likes (call_id, id)`,
  `alter table call_events drop constraint call_events_kind_check`,
  `alter table call_events add constraint call_events_kind_check
     check (kind in ('incoming', 'call', 'signal', 'item', 'appointment', 'shop', 'family'))`,
  `
    create function nagai_family_event(call integer, body jsonb) returns void language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload)
      select c.id, u, 'family', body from calls c, unnest(array[c.caller_id, c.seller_id]) as u where c.id = call;
    end $$
  `,
  `
    create function nagai_guest_changed() returns trigger language plpgsql as $$
    begin
      perform nagai_family_event(NEW.call_id,
        jsonb_build_object('what', 'guest', 'guestId', NEW.id, 'state', NEW.state));
      return NEW;
    end $$
  `,
  `
    create trigger call_guests_family_event after update of state on call_guests
      for each row when (OLD.state is distinct from NEW.state)
      execute function nagai_guest_changed()
  `,
  `
    create function nagai_family_liked() returns trigger language plpgsql as $$
    begin
      perform nagai_family_event(NEW.call_id, jsonb_build_object('what', 'like', 'likeId', NEW.id));
      return NEW;
    end $$
  `,
  `
    create trigger call_family_likes_event after insert on call_family_likes
      for each row execute function nagai_family_liked()
  `,
  `
    create function nagai_family_signal() returns trigger language plpgsql as $$
    begin
      if left(NEW.to_party, 1) = 'u' then
        insert into call_events (call_id, user_id, kind, payload)
        values (NEW.call_id, substr(NEW.to_party, 2)::integer, 'family',
                jsonb_build_object('what', 'signal', 'signalId', NEW.id));
      end if;
      return NEW;
    end $$
  `,
  `
    create trigger call_family_signals_event after insert on call_family_signals
      for each row execute function nagai_family_signal()
  `,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop trigger if exists call_family_signals_event on call_family_signals',
    'drop trigger if exists call_family_likes_event on call_family_likes',
    'drop trigger if exists call_guests_family_event on call_guests',
    'drop function if exists nagai_family_signal()',
    'drop function if exists nagai_family_liked()',
    'drop function if exists nagai_guest_changed()',
    'drop function if exists nagai_family_event(integer, jsonb)',
    `delete from call_events where kind = 'family'`,
    'alter table call_events drop constraint call_events_kind_check',
    `alter table call_events add constraint call_events_kind_check
       check (kind in ('incoming', 'call', 'signal', 'item', 'appointment', 'shop'))`,
    'drop table if exists call_family_likes, call_family_signals, call_guests',
  ])
    await knex.raw(statement);
}
