import type { Knex } from 'knex';

/** When each participant last polled an active call, so a call whose browsers vanished can be ended. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table calls add column caller_seen_at timestamptz');
  await knex.raw('alter table calls add column seller_seen_at timestamptz');
  await knex.raw(`create index calls_active_idx on calls (answered_at) where status = 'active'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists calls_active_idx');
  await knex.raw('alter table calls drop column if exists caller_seen_at');
  await knex.raw('alter table calls drop column if exists seller_seen_at');
}
