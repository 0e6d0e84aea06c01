import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_ROUTES } from '../../api/contract/call-quality';
import { CALL_ITEM_KINDS, HOLD_STATUSES } from '../../api/contract/call-selling';
import {
  CALL_STATUSES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PRODUCT_CATEGORIES,
  PRODUCT_MATERIALS,
  SIGNAL_KINDS,
  USER_ROLES,
} from '../../api/contract/constants';
import { STREAM_EVENT_NAMES } from '../../api/contract/events';
import { FAMILY_LIKE_KINDS, GUEST_STATES } from '../../api/contract/call-family';
import { CALL_DIRECTIONS, CALLBACK_STATUSES, CALLBACK_WINDOWS } from '../../api/contract/callbacks';
import { ALL_PURITIES, MAKING_TYPES, METALS, PRICING_MODES } from '../../api/contract/pricing';
import { VIDEO_PROVIDERS } from '../../api/contract/video';
import { APPOINTMENT_STATUSES } from '../../api/contract/appointments';
import { JOB_KINDS, JOB_STATES } from '../../api/src/features/schedule/jobs';
import { CODE_CHANNELS } from '../../api/contract/mobile';
import { NOTICE_KINDS } from '../../api/src/features/notices/service';
import { CANCEL_REASONS } from '../../api/contract/orders';
import { WEBHOOK_SOURCES } from '../../api/src/http/webhook-receipts';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * The migrations freeze the value lists of their CHECK constraints (db/ never imports api/): the migrated
 * database must still accept exactly the values of the contract's constants, or a new migration is due.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

/** Each `table.column` with an `in (…)` CHECK constraint, and the contract list it must equal. */
const LISTS: Record<string, readonly string[]> = {
  'users.role': USER_ROLES,
  'products.category': PRODUCT_CATEGORIES,
  'products.material': PRODUCT_MATERIALS,
  'orders.status': ORDER_STATUSES,
  'orders.cancel_reason': CANCEL_REASONS,
  'orders.payment_method': PAYMENT_METHODS,
  'orders.payment_status': PAYMENT_STATUSES,
  'calls.status': CALL_STATUSES,
  'calls.provider': VIDEO_PROVIDERS,
  'calls.direction': CALL_DIRECTIONS,
  'callback_requests.preferred_window': CALLBACK_WINDOWS,
  'callback_requests.status': CALLBACK_STATUSES,
  'call_signals.kind': SIGNAL_KINDS,
  'call_quality.route': CALL_ROUTES,
  // 'hello' opens a stream and is never stored.
  'call_events.kind': STREAM_EVENT_NAMES.filter((name) => name !== 'hello'),
  'call_items.kind': CALL_ITEM_KINDS,
  'product_holds.status': HOLD_STATUSES,
  'metal_rates.metal': METALS,
  'metal_rates.purity': ALL_PURITIES,
  'products.pricing_mode': PRICING_MODES,
  'products.metal': METALS,
  'products.metal_purity': ALL_PURITIES,
  'products.making_type': MAKING_TYPES,
  'document_counters.kind': ['invoice', 'credit_note'],
  'invoices.kind': ['invoice', 'credit_note'],
  // A server-internal state with no contract constant (api/src/features/checkout/service.ts types it).
  'idempotency_keys.state': ['in_progress', 'completed'],
  // Payments (issue #24): server-internal states; the refund's status and the ledger's kinds are in the contract.
  'gateway_orders.status': ['created', 'paid'],
  'gateway_payments.status': ['captured', 'failed'],
  'gateway_payments.refund_state': ['none', 'due', 'sent'],
  'refunds.status': ['pending', 'processed', 'failed'],
  'ledger_entries.kind': ['sale', 'refund', 'payout'],
  'appointments.status': APPOINTMENT_STATUSES,
  'appointments.cancelled_by': ['customer', 'seller'],
  // The job table is server-internal (api/src/features/schedule/jobs.ts).
  'jobs.kind': JOB_KINDS,
  'jobs.state': JOB_STATES,
  // Mobile sign-in and notices (issue #37): server-internal states; the channels are in the contract.
  'users.notice_locale': ['en', 'ta'],
  'notice_consents.source': ['profile', 'sign_up', 'sms_stop', 'sms_start'],
  'mobile_codes.purpose': ['sign_in', 'add_mobile', 'reset_password', 'reauth'],
  'mobile_codes.channel': CODE_CHANNELS,
  'users.notice_channel': CODE_CHANNELS,
  'notice_consents.channel': CODE_CHANNELS,
  'notices.channel': CODE_CHANNELS,
  'mobile_codes.state': ['pending', 'approved', 'used', 'failed'],
  'notices.kind': NOTICE_KINDS,
  'notices.state': ['pending', 'sending', 'sent', 'skipped', 'failed'],
  // Signed webhooks acted on (issue #46 item 10).
  'webhook_receipts.source': WEBHOOK_SOURCES,
  // Family in the call (issue #52).
  'call_guests.state': GUEST_STATES,
  'call_family_signals.kind': SIGNAL_KINDS,
  'call_family_likes.kind': FAMILY_LIKE_KINDS,
};

/** The allowed values of every `column = ANY (ARRAY[…])` CHECK constraint of the current schema. */
async function checkLists(): Promise<Record<string, string[]>> {
  const { rows } = (await db.knex.raw(
    `select cl.relname as tbl, pg_get_constraintdef(co.oid) as def
       from pg_constraint co
       join pg_class cl on cl.oid = co.conrelid
       join pg_namespace n on n.oid = cl.relnamespace
      where co.contype = 'c' and n.nspname = current_schema()`,
  )) as { rows: { tbl: string; def: string }[] };
  const out: Record<string, string[]> = {};
  for (const { tbl, def } of rows) {
    const m = /\(\(?(\w+) = ANY \(+ARRAY\[(.*?)\]/.exec(def);
    if (!m) continue;
    out[`${tbl}.${m[1]}`] = [...m[2].matchAll(/'([^']*)'/g)].map((v) => v[1]);
  }
  return out;
}

describe('CHECK constraints and contract constants', () => {
  it('the database allows exactly the values the contract names', async () => {
    const found = await checkLists();
    expect(Object.keys(found).sort()).toEqual(Object.keys(LISTS).sort());
    for (const [column, values] of Object.entries(LISTS)) {
      expect([column, [...found[column]].sort()]).toEqual([column, [...values].sort()]);
    }
  });
});
