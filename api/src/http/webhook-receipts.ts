import crypto from 'node:crypto';
import type { Knex } from 'knex';

/** Who signed a webhook: Twilio (an inbound message) or Razorpay (a payment event). */
export const WEBHOOK_SOURCES = ['twilio', 'razorpay'] as const;
export type WebhookSource = (typeof WEBHOOK_SOURCES)[number];

/**
 * Records that a signed webhook is being acted on, in the caller's transaction (the one that writes its
 * effect): true the first time, false for a replay of it, which the caller answers 200 without acting again.
 * The key must be something the sender's signature covers (Twilio's MessageSid, a hash of Razorpay's signed
 * body), never an unsigned header: otherwise a captured request replayed with a new key would act twice.
 * The rows are kept (table webhook_receipts, migration 0027): neither signature carries a time.
 */
export async function firstReceipt(trx: Knex, source: WebhookSource, key: string): Promise<boolean> {
  const rows = (
    (await trx.raw(
      `insert into webhook_receipts (source, receipt_key) values (?, ?)
       on conflict do nothing returning receipt_key`,
      [source, key],
    )) as { rows: unknown[] }
  ).rows;
  return rows.length > 0;
}

/** The SHA-256 of a signed text, as a receipt key ("sha256:<hex>"). */
export const sha256Key = (text: string) =>
  `sha256:${crypto.createHash('sha256').update(text, 'utf8').digest('hex')}`;
