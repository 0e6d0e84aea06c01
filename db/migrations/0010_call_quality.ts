import type { Knex } from 'knex';

/**
 * What each side of a call went through (route, setup time, round trip, loss, bitrate, freezes, reconnects),
 * one row per participant, replaced by their later reports; the admin's last-7-days summary reads it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table call_quality (
      call_id integer not null references calls(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      connected boolean not null,
      route text check (route in ('direct', 'srflx', 'relay')),
      setup_ms integer check (setup_ms >= 0),
      rtt_ms integer check (rtt_ms >= 0),
      loss_percent numeric(5, 2) check (loss_percent between 0 and 100),
      bitrate_kbps integer check (bitrate_kbps >= 0),
      freezes integer not null default 0 check (freezes >= 0),
      reconnects integer not null default 0 check (reconnects >= 0),
      updated_at timestamptz not null default now(),
      primary key (call_id, user_id)
    )
  `);
  await knex.raw('create index calls_answered_idx on calls (answered_at) where answered_at is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists calls_answered_idx');
  await knex.raw('drop table if exists call_quality');
}
