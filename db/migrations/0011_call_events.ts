import type { Knex } from 'knex';

/**
 * The call event log behind the event stream (GET /_api/events): one row per event and recipient, written
 * by triggers in the same transaction as the change it reports, so no code path that changes a call can
 * forget to tell its participants, whichever API process made the change.
 *
 * - a new call: 'incoming' to the seller;
 * - a call's status changed (ringing, answered, declined, ended, missed): 'call' to both participants;
 * - a WebRTC signal stored: 'signal' to the participant it is addressed to.
 *
 * Each insert is announced with pg_notify on the channel 'nagai_events_<schema>' with the recipient and the
 * event id; API processes LISTEN there and wake the recipient's open streams, which read the rows after their
 * last id. The row is the truth; a notification that is lost only delays an event until the next read.
 */
const STATEMENTS = [
  `
    create table call_events (
      id bigserial primary key,
      call_id integer not null references calls(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      kind text not null check (kind in ('incoming', 'call', 'signal')),
      payload jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now()
    )
  `,
  `
    create index call_events_inbox_idx on call_events (user_id, id)
  `,
  `
    create index call_events_call_idx on call_events (call_id)
  `,
  `
    create function nagai_call_event() returns trigger language plpgsql as $$
    begin
      perform pg_notify('nagai_events_' || current_schema(),
                        json_build_object('u', NEW.user_id, 'e', NEW.id)::text);
      return NEW;
    end $$
  `,
  `
    create trigger call_events_notify after insert on call_events
      for each row execute function nagai_call_event()
  `,
  `
    create function nagai_call_inserted() returns trigger language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload, created_at)
      values (NEW.id, NEW.seller_id, 'incoming', '{}'::jsonb, NEW.created_at);
      return NEW;
    end $$
  `,
  `
    create trigger calls_incoming_event after insert on calls
      for each row execute function nagai_call_inserted()
  `,
  `
    create function nagai_call_status_changed() returns trigger language plpgsql as $$
    declare
      body jsonb := jsonb_build_object('status', NEW.status, 'endReason', NEW.end_reason,
                                       'answeredAt', NEW.answered_at, 'endedAt', NEW.ended_at);
    begin
      insert into call_events (call_id, user_id, kind, payload)
      values (NEW.id, NEW.caller_id, 'call', body), (NEW.id, NEW.seller_id, 'call', body);
      return NEW;
    end $$
  `,
  `
    create trigger calls_status_event after update of status on calls
      for each row when (OLD.status is distinct from NEW.status)
      execute function nagai_call_status_changed()
  `,
  `
    create function nagai_signal_inserted() returns trigger language plpgsql as $$
    begin
      insert into call_events (call_id, user_id, kind, payload, created_at)
      values (NEW.call_id, NEW.to_user_id, 'signal',
              jsonb_build_object('id', NEW.id, 'kind', NEW.kind, 'payload', NEW.payload,
                                 'fromUserId', NEW.from_user_id, 'createdAt', NEW.created_at),
              NEW.created_at);
      return NEW;
    end $$
  `,
  `
    create trigger call_signals_event after insert on call_signals
      for each row execute function nagai_signal_inserted()
  `,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop trigger if exists call_signals_event on call_signals',
    'drop trigger if exists calls_status_event on calls',
    'drop trigger if exists calls_incoming_event on calls',
    'drop table if exists call_events',
    'drop function if exists nagai_signal_inserted()',
    'drop function if exists nagai_call_status_changed()',
    'drop function if exists nagai_call_inserted()',
    'drop function if exists nagai_call_event()',
  ])
    await knex.raw(statement);
}
