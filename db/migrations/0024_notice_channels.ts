import type { Knex } from 'knex';

/**
 * Notices by WhatsApp as well as SMS, and the recovery of notices whose process stopped while sending them
 * (issue #37, docs/product-rules.md "Mobile sign-in and notices"):
 *
 * - users.notice_channel: where the person wants notices, 'sms' or 'whatsapp'; notice_consents.channel: the
 *   channel each grant was for.
 * - notices.channel: the channel a notice went (or goes) by; notices.sending_since: when the current send
 *   began, the lease another process may take over after (a notice left `sending` by a crash or a timeout).
 *
 * The literals are frozen here (db/ never imports api/).
 */
const STATEMENTS = [
  `alter table users add column notice_channel text not null default 'sms'
     check (notice_channel in ('sms', 'whatsapp'))`,
  `alter table notice_consents add column channel text not null default 'sms'
     check (channel in ('sms', 'whatsapp'))`,
  `alter table notices add column channel text check (channel in ('sms', 'whatsapp'))`,
  `alter table notices add column sending_since timestamptz`,
  `create index notices_sending_idx on notices (sending_since) where state = 'sending'`,
  // Notices left sending before this migration are settled like any other (their send began when sent_at says).
  `update notices set sending_since = coalesce(sent_at, created_at) where state = 'sending'`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    'drop index if exists notices_sending_idx',
    'alter table notices drop column if exists sending_since',
    'alter table notices drop column if exists channel',
    'alter table notice_consents drop column if exists channel',
    'alter table users drop column if exists notice_channel',
  ])
    await knex.raw(statement);
}
