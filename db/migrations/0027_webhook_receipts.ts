import type { Knex } from 'knex';

/**
 * Webhooks handled once (issue #46 item 10, docs/security.md): a row per webhook acted on, written in the same
 * transaction as its effect, so a signed request captured and sent again later is answered without acting.
 *
 * - webhook_receipts.source: who sent it ('twilio' for an inbound message, 'razorpay' for a payment event);
 * - webhook_receipts.receipt_key: what that sender's signature covers and identifies the request by: Twilio's
 *   MessageSid (a signed form parameter), or the SHA-256 of Razorpay's signed raw body (the event's entity ids
 *   and created_at). Razorpay's X-Razorpay-Event-Id header is not signed, so it no longer counts.
 *
 * The rows are kept: neither signature carries a time, so a replay may come at any age.
 *
 * payment_events (migration 0016) keyed Razorpay's events by that unsigned header; it is replaced here.
 */
const STATEMENTS = [
  `create table webhook_receipts (
     source text not null check (source in ('twilio', 'razorpay')),
     receipt_key text not null,
     received_at timestamptz not null default now(),
     primary key (source, receipt_key)
   )`,
  `drop table payment_events`,
];

export async function up(knex: Knex): Promise<void> {
  // One statement per call: the embedded database runs each as a prepared statement.
  for (const statement of STATEMENTS) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of [
    `create table if not exists payment_events (
       event_id text primary key,
       event text not null,
       received_at timestamptz not null default now()
     )`,
    'drop table if exists webhook_receipts',
  ])
    await knex.raw(statement);
}
