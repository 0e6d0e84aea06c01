import type { Knex } from 'knex';

/**
 * Booked video appointments and the job table (issue #22 item 3, docs/product-rules.md "Video appointments",
 * docs/architecture.md "Scheduled work: the job table"):
 *
 * - seller_profiles.slot_minutes (15-120, default 30), buffer_minutes (0-60, default 0) and breaks (a jsonb
 *   array of weekly ranges like video_hours, inside which no slot is offered).
 * - appointments: a customer's booked slot with a shop (times in UTC). booked → cancelled (by either side,
 *   with a reason), completed (a call of the appointment was answered) or expired (its end passed without
 *   one). Two booked appointments of one shop can never overlap: an exclusion constraint over the shop and
 *   the time range (built-in range operators, so no extension is needed on PostgreSQL or PGlite). One booked
 *   appointment per customer and shop.
 * - jobs: scheduled work (reminders, expiry). A worker claims due rows with `for update skip locked` inside
 *   the transaction that also records the work's effect and marks the row done, so two API processes never
 *   run one job twice and a restart finds every job still due.
 * - calls.appointment_id: the call placed for an appointment (either side may start it).
 * - call_events may carry an appointment notice (kind 'appointment', call_id null, appointment_id set): the
 *   event stream tells the other side at once (booked, reminder, starting, rescheduled, cancelled).
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table seller_profiles add column slot_minutes integer not null default 30
     check (slot_minutes between 15 and 120)`,
  `alter table seller_profiles add column buffer_minutes integer not null default 0
     check (buffer_minutes between 0 and 60)`,
  `alter table seller_profiles add column breaks jsonb not null default '[]'::jsonb
     check (jsonb_typeof(breaks) = 'array')`,
  `
    create table appointments (
      id serial primary key,
      customer_id integer not null references users(id) on delete cascade,
      seller_id integer not null references users(id) on delete cascade,
      product_id integer references products(id) on delete set null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      note text check (char_length(note) <= 500),
      status text not null default 'booked' check (status in ('booked', 'cancelled', 'completed', 'expired')),
      cancelled_by text check (cancelled_by in ('customer', 'seller')),
      reason text check (char_length(reason) <= 300),
      rescheduled_count integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      closed_at timestamptz,
      check (ends_at > starts_at),
      constraint appointments_no_overlap exclude using gist (
        int4range(seller_id, seller_id, '[]') with &&,
        tstzrange(starts_at, ends_at) with &&
      ) where (status = 'booked')
    )
  `,
  `create unique index appointments_one_per_customer_shop on appointments (customer_id, seller_id)
     where status = 'booked'`,
  `create index appointments_seller_idx on appointments (seller_id, starts_at)`,
  `create index appointments_customer_idx on appointments (customer_id, starts_at desc)`,
  `
    create table jobs (
      id bigserial primary key,
      kind text not null check (kind in ('appointment_reminder', 'appointment_start', 'appointment_expire')),
      appointment_id integer references appointments(id) on delete cascade,
      run_at timestamptz not null,
      state text not null default 'pending' check (state in ('pending', 'done', 'cancelled')),
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      done_at timestamptz,
      last_error text
    )
  `,
  `create index jobs_due_idx on jobs (run_at, id) where state = 'pending'`,
  `create index jobs_appointment_idx on jobs (appointment_id) where state = 'pending'`,
  `alter table calls add column appointment_id integer references appointments(id) on delete set null`,
  `alter table call_events alter column call_id drop not null`,
  `alter table call_events add column appointment_id integer references appointments(id) on delete cascade`,
  `alter table call_events drop constraint call_events_kind_check`,
  `alter table call_events add constraint call_events_kind_check
     check (kind in ('incoming', 'call', 'signal', 'item', 'appointment'))`,
  `alter table call_events add constraint call_events_subject_check
     check ((kind = 'appointment') = (call_id is null) and (kind = 'appointment') = (appointment_id is not null))`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `delete from call_events where kind = 'appointment'`,
    'alter table call_events drop constraint if exists call_events_subject_check',
    'alter table call_events drop constraint call_events_kind_check',
    `alter table call_events add constraint call_events_kind_check
       check (kind in ('incoming', 'call', 'signal', 'item'))`,
    'alter table call_events drop column if exists appointment_id',
    'alter table call_events alter column call_id set not null',
    'alter table calls drop column if exists appointment_id',
    'drop table if exists jobs',
    'drop table if exists appointments',
    'alter table seller_profiles drop column if exists breaks',
    'alter table seller_profiles drop column if exists buffer_minutes',
    'alter table seller_profiles drop column if exists slot_minutes',
  ])
    await knex.raw(statement);
}
