import type { Knex } from 'knex';
import en from '../../../../locales/en.json';
import ta from '../../../../locales/ta.json';
import { NOTICE_CONSENT_WORDING, type NoticeSettings } from '../../../contract/mobile';
import { formatInr } from '../../../contract/money';
import type { AppDeps } from '../../http/context';
import { firstReceipt } from '../../http/webhook-receipts';
import { keywordOf } from './keywords';
import { NO_PASSWORD } from '../accounts/codes';
import { SmsError, type OutgoingMessage } from './provider';

/**
 * Notices off the app by SMS or WhatsApp (issue #37, docs/product-rules.md "Mobile sign-in and notices"). A
 * notice is a row of `notices` (unique per person, kind and subject) queued in the transaction of the change
 * it tells of, only for a person who opted in and has a verified mobile, with a job of kind 'notice' in the
 * job table. The job worker claims the job (`for update skip locked`, api/src/features/schedule/job-worker.ts)
 * and, in the same transaction, decides: skipped (opted out since, daily cap reached), moved to 09:00 (a
 * notice that is not about a call, in the person's quiet hours 21:00-09:00), or marked `sending` (with
 * `sending_since`, its lease). The messages marked `sending` go out after the commit: sent; a refusal the
 * provider answered (the message certainly not taken) is retried with backoff (a new job); a send whose
 * outcome is unknown (a timeout, a broken connection, a process that stopped) stays `sending`.
 *
 * Recovery (recoverNotices): a notice `sending` for longer than its lease (noticeLeaseMs) is taken over by
 * whichever process polls next. It first asks the provider for the messages it sent to that number since the
 * send began: one with the notice's text is the notice (marked sent, nothing sent again); none, and the
 * notice is queued again. So a notice is sent exactly once whenever the provider answers truthfully, and at
 * least once otherwise: a lost notice (a call about to come, a missed call) costs more than a rare second
 * copy, which can happen only if the provider accepted a message and did not list it yet.
 */
export const NOTICE_KINDS = [
  'order_paid',
  'order_shipped',
  'order_delivered',
  'order_refunded',
  'order_cancelled',
  'callback_soon',
  'appointment_confirmed',
  'appointment_reminder',
  'missed_call',
  'mobile_changed',
  'email_changed',
  'password_changed',
  'shop_order_paid',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Security notices (issue #46): a new way into the account was set (mobile, e-mail, password). They go to the
 * number the account had before the change (params.to), whatever the notice settings, at any hour and beyond
 * the daily cap: the owner must hear of it even if the one who made the change turned notices off.
 */
export const SECURITY_NOTICES: ReadonlySet<NoticeKind> = new Set([
  'mobile_changed',
  'email_changed',
  'password_changed',
]);

/** About a call: these may go out in quiet hours (the call is now, whatever the time). */
export const CALL_NOTICES: ReadonlySet<NoticeKind> = new Set([
  'callback_soon',
  'missed_call',
  'appointment_reminder',
  ...SECURITY_NOTICES,
]);
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 9;
/** Tries of a message the provider refused before the notice fails; the wait doubles from this. */
export const NOTICE_MAX_ATTEMPTS = 5;
export const NOTICE_RETRY_BASE_MS = 30_000;

/**
 * How long a notice may stay `sending` before another process takes it over: twice the provider's timeout
 * and a minute more, so a send still in progress is never taken over.
 */
export const noticeLeaseMs = (config: Pick<AppDeps['config'], 'sms'>) => 2 * config.sms.timeoutMs + 60_000;

/**
 * The texts live with the push texts (locales push.sms.*): like those, they are read off the app. The jeweller's
 * new-paid-order notice (issue #48) is with the shop's money texts (sellerMoney.sms.*).
 */
const TEXTS = {
  en: { ...en.push.sms, ...en.sellerMoney.sms },
  ta: { ...ta.push.sms, ...ta.sellerMoney.sms },
} as const;

/** The shops' cancel reasons, read in the person's language (locales sellerCare.reasons.*). */
const REASONS = { en: en.sellerCare.reasons, ta: ta.sellerCare.reasons } as const;

/**
 * A param as the text shows it: {reason} is a cancel reason's code, read in the person's language, or the
 * shop's own words for 'other' (params.note).
 */
function paramText(locale: 'en' | 'ta', params: Record<string, unknown>, name: string): string {
  if (name === 'reason' && typeof params.reason === 'string') {
    if (params.reason === 'other') return String(params.note ?? '');
    return (REASONS[locale] as Record<string, string>)[params.reason] ?? '';
  }
  return String(params[name] ?? '');
}

/** The notice's text in the person's language ({name} filled from its params). */
export function noticeText(kind: NoticeKind, locale: 'en' | 'ta', params: Record<string, unknown>): string {
  const template: string = TEXTS[locale][kind];
  return template.replace(/\{(\w+)\}/g, (_, k: string) => paramText(locale, params, k));
}

/**
 * A WhatsApp template's numbered variables: the text's {names} in the order they appear, as {{1}}, {{2}}…
 * (docs/operations.md "Registering the WhatsApp templates").
 */
export function noticeVariables(
  kind: NoticeKind,
  locale: 'en' | 'ta',
  params: Record<string, unknown>,
): Record<string, string> {
  const template: string = TEXTS[locale][kind];
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return Object.fromEntries(names.map((name, i) => [String(i + 1), paramText(locale, params, name)]));
}

/** The wall-clock hour and the offset from UTC of a moment in a time zone. */
function localParts(now: Date, timeZone: string) {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(now);
  } catch {
    return localParts(now, 'Asia/Kolkata');
  }
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return { hour: n('hour'), offsetMs: wall - Math.floor(now.getTime() / 1000) * 1000, wall };
}

/** The start of the person's local day, as an instant. */
function localDayStart(now: Date, timeZone: string): Date {
  const { wall, offsetMs } = localParts(now, timeZone);
  const midnight = wall - (wall % 86_400_000);
  return new Date(midnight - offsetMs);
}

/** When a notice may go out: now, or (quiet hours, not about a call) the next 09:00 in the person's zone. */
export function sendableAt(kind: NoticeKind, now: Date, timeZone: string): Date {
  if (CALL_NOTICES.has(kind)) return now;
  const { hour, wall, offsetMs } = localParts(now, timeZone);
  if (hour >= QUIET_UNTIL_HOUR && hour < QUIET_FROM_HOUR) return now;
  const midnight = wall - (wall % 86_400_000);
  const nine = midnight + QUIET_UNTIL_HOUR * 3_600_000 + (hour >= QUIET_FROM_HOUR ? 86_400_000 : 0);
  return new Date(nine - offsetMs);
}

/**
 * Queues one notice to a person (if they opted in and have a verified mobile) with its job, in the caller's
 * transaction. A second call for the same person, kind and subject queues nothing.
 */
export async function queueNotice(
  trx: Knex,
  n: { userId: number; kind: NoticeKind; subject: string; params: Record<string, unknown> },
  now: Date,
  /** When it is due (a missed call: when the ringing would stop); now by default. */
  runAt: Date = now,
): Promise<void> {
  const rows = (
    (await trx.raw(
      `insert into notices (user_id, kind, subject, params, created_at)
       select u.id, ?, ?, ?::jsonb, ? from users u where u.id = ? and u.notices and u.mobile is not null
       on conflict (user_id, kind, subject) do nothing
       returning id`,
      [n.kind, n.subject, JSON.stringify(n.params), now, n.userId],
    )) as { rows: { id: string | number }[] }
  ).rows;
  if (rows.length) {
    await trx('jobs').insert(
      rows.map((r) => ({ kind: 'notice', notice_id: r.id, run_at: runAt, created_at: now })),
    );
  }
}

/**
 * Queues a security notice (SECURITY_NOTICES) to a number, in the caller's transaction: sent to `to` whatever
 * the person's notice settings. `subject` tells one change from another (a notice is unique per person, kind
 * and subject).
 */
export async function queueSecurityNotice(
  trx: Knex,
  n: { userId: number; kind: NoticeKind; subject: string; to: string },
  now: Date,
): Promise<void> {
  const rows = (await trx('notices')
    .insert({
      user_id: n.userId,
      kind: n.kind,
      subject: n.subject,
      params: JSON.stringify({ to: n.to }),
      created_at: now,
    })
    .onConflict(['user_id', 'kind', 'subject'])
    .ignore()
    .returning(['id'])) as { id: string | number }[];
  if (rows.length) {
    await trx('jobs').insert(
      rows.map((r) => ({ kind: 'notice', notice_id: r.id, run_at: now, created_at: now })),
    );
  }
}

/**
 * Order notices to the buyers of the given orders (order paid, shipped, delivered, refunded, cancelled). A
 * refund or a cancellation carries the shop's reason (orders.cancel_reason, cancel_note).
 */
export async function queueOrderNotices(
  trx: Knex,
  orderIds: readonly number[],
  kind: 'order_paid' | 'order_shipped' | 'order_delivered' | 'order_refunded' | 'order_cancelled',
  now: Date,
): Promise<void> {
  if (!orderIds.length) return;
  const orders = (
    (await trx.raw(
      `select o.id, o.customer_id, o.cancel_reason, o.cancel_note, sp.shop_name from orders o
         join users u on u.id = o.customer_id and u.notices and u.mobile is not null
         left join seller_profiles sp on sp.user_id = o.seller_id
        where o.id = any(?::int[])`,
      [[...orderIds]],
    )) as {
      rows: {
        id: number;
        customer_id: number;
        shop_name: string | null;
        cancel_reason: string | null;
        cancel_note: string | null;
      }[];
    }
  ).rows;
  for (const o of orders) {
    const why =
      (kind === 'order_refunded' || kind === 'order_cancelled') && o.cancel_reason
        ? { reason: o.cancel_reason, note: o.cancel_note }
        : {};
    await queueNotice(
      trx,
      {
        userId: o.customer_id,
        kind,
        subject: `order:${o.id}`,
        params: { order: o.id, shop: o.shop_name ?? '', ...why },
      },
      now,
    );
  }
}

/**
 * The jeweller's notice of each new paid order (issue #48), by SMS or WhatsApp when they opted in: the order, the
 * customer's name as on the order and the amount. One per order (its subject).
 */
export async function queueShopOrderNotices(
  trx: Knex,
  orderIds: readonly number[],
  now: Date,
): Promise<void> {
  if (!orderIds.length) return;
  const orders = (
    (await trx.raw(
      `select o.id, o.seller_id, o.customer_name, round(o.total_amount * 100)::bigint as amount_paise from orders o
         join users u on u.id = o.seller_id and u.notices and u.mobile is not null
        where o.id = any(?::int[])`,
      [[...orderIds]],
    )) as { rows: { id: number; seller_id: number; customer_name: string; amount_paise: string | number }[] }
  ).rows;
  for (const o of orders) {
    await queueNotice(
      trx,
      {
        userId: o.seller_id,
        kind: 'shop_order_paid',
        subject: `order:${o.id}`,
        params: { order: o.id, customer: o.customer_name, amount: formatInr(Number(o.amount_paise) / 100) },
      },
      now,
    );
  }
}

interface ClaimRow {
  id: string | number;
  user_id: number;
  kind: NoticeKind;
  params: Record<string, unknown>;
  state: string;
  attempts: number;
  mobile: string | null;
  notices: boolean;
  notice_locale: 'en' | 'ta';
  notice_channel: 'sms' | 'whatsapp';
  time_zone: string;
}

/** A notice marked `sending` in the claiming transaction, to send after its commit. */
export interface OutgoingNotice extends OutgoingMessage {
  id: string | number;
  attempts: number;
}

/**
 * Decides the claimed notice jobs' notices inside the worker's transaction (see the header): skipped, moved
 * out of quiet hours, or marked `sending` and answered for sending after the commit.
 */
export async function claimNotices(
  trx: Knex,
  deps: Pick<AppDeps, 'config' | 'sms'>,
  noticeIds: readonly (string | number)[],
  now: Date,
): Promise<OutgoingNotice[]> {
  if (!noticeIds.length) return [];
  const rows = (
    (await trx.raw(
      `select n.id, n.user_id, n.kind, n.params, n.state, n.attempts,
              coalesce(n.params->>'to', u.mobile) as mobile, u.notices, u.notice_locale, u.notice_channel, u.time_zone
         from notices n join users u on u.id = n.user_id
        where n.id = any(?::bigint[]) order by n.id for update of n`,
      [noticeIds.map(String)],
    )) as { rows: ClaimRow[] }
  ).rows;
  const out: OutgoingNotice[] = [];
  for (const r of rows) {
    if (r.state !== 'pending') continue;
    if ((!r.notices && !SECURITY_NOTICES.has(r.kind)) || !r.mobile) {
      await trx('notices').where({ id: r.id }).update({ state: 'skipped', skipped_reason: 'opted_out' });
      continue;
    }
    // A missed call is queued when the call starts ringing: it is sent only if nobody answered or declined.
    if (r.kind === 'missed_call') {
      const call = (await trx('calls')
        .where({ id: Number(r.params.call) })
        .first('status')) as { status: string } | undefined;
      if (!call || !['pending', 'ringing', 'missed'].includes(call.status)) {
        await trx('notices').where({ id: r.id }).update({ state: 'skipped', skipped_reason: 'answered' });
        continue;
      }
    }
    const at = sendableAt(r.kind, now, r.time_zone);
    if (at.getTime() > now.getTime()) {
      await trx('jobs').insert({ kind: 'notice', notice_id: r.id, run_at: at, created_at: now });
      continue;
    }
    const sentToday = (await trx('notices')
      .where({ user_id: r.user_id })
      .whereIn('state', ['sending', 'sent'])
      .where('sent_at', '>=', localDayStart(now, r.time_zone))
      .count<{ count: string | number }[]>('id as count')) as { count: string | number }[];
    if (
      !SECURITY_NOTICES.has(r.kind) &&
      Number(sentToday[0]?.count ?? 0) >= deps.config.sms.noticesDailyCap
    ) {
      await trx('notices').where({ id: r.id }).update({ state: 'skipped', skipped_reason: 'daily_cap' });
      continue;
    }
    // WhatsApp when the person chose it and this server can send it; SMS otherwise.
    const channel =
      r.notice_channel === 'whatsapp' && deps.sms?.noticeChannels().includes('whatsapp') ? 'whatsapp' : 'sms';
    const key = `${r.kind}.${r.notice_locale}`;
    const dltTemplateId = channel === 'sms' ? deps.config.sms.dlt.templateIds[key] : undefined;
    const contentSid = channel === 'whatsapp' ? deps.config.sms.whatsappContentSids[key] : undefined;
    await trx('notices')
      .where({ id: r.id })
      .update({
        state: 'sending',
        attempts: r.attempts + 1,
        sent_at: now,
        sending_since: now,
        channel,
        template_id: dltTemplateId ?? contentSid ?? null,
      });
    out.push({
      id: r.id,
      to: r.mobile,
      channel,
      body: noticeText(r.kind, r.notice_locale, r.params),
      attempts: r.attempts + 1,
      dltTemplateId,
      contentSid,
      contentVariables: contentSid ? noticeVariables(r.kind, r.notice_locale, r.params) : undefined,
    });
  }
  return out;
}

/**
 * Sends the notices claimed by a committed batch. A refusal the provider answered is retried later; a send
 * whose outcome is unknown stays `sending` for the recovery to settle (see the header).
 */
export async function sendNotices(
  deps: Pick<AppDeps, 'db' | 'clock' | 'logger' | 'sms'>,
  outgoing: readonly OutgoingNotice[],
): Promise<void> {
  for (const n of outgoing) {
    try {
      if (!deps.sms) throw new SmsError('no SMS provider', 0, undefined);
      const sid = await deps.sms.sendMessage({
        to: n.to,
        channel: n.channel,
        body: n.body,
        dltTemplateId: n.dltTemplateId,
        contentSid: n.contentSid,
        contentVariables: n.contentVariables,
      });
      await deps
        .db('notices')
        .where({ id: n.id })
        .update({ state: 'sent', provider_sid: sid, sending_since: null });
    } catch (err) {
      const e = err as SmsError;
      const now = deps.clock.now();
      const error = String(e.message).slice(0, 500);
      // No answer (a timeout, a broken connection): the message may have been taken. The notice stays
      // `sending`; after its lease the recovery asks the provider before sending it again.
      if (!(e instanceof SmsError) || e.status === undefined) {
        deps.logger.warn({ err, noticeId: n.id }, 'sending a notice: no answer, left to the recovery');
        await deps.db('notices').where({ id: n.id, state: 'sending' }).update({ last_error: error });
        continue;
      }
      // An answered refusal means the message was not taken: try again later, up to NOTICE_MAX_ATTEMPTS.
      const retry = e.status !== 0 && n.attempts < NOTICE_MAX_ATTEMPTS;
      deps.logger.warn({ err, noticeId: n.id, retry }, 'sending a notice failed');
      await deps.db.transaction(async (trx) => {
        await trx('notices')
          .where({ id: n.id })
          .update({
            state: retry ? 'pending' : 'failed',
            sent_at: null,
            sending_since: null,
            last_error: error,
          });
        if (retry) await queueAgain(trx, n.id, new Date(now.getTime() + retryWaitMs(n.attempts)), now);
      });
    }
  }
}

const retryWaitMs = (attempts: number) => NOTICE_RETRY_BASE_MS * 2 ** (attempts - 1);

async function queueAgain(trx: Knex, noticeId: string | number, runAt: Date, now: Date) {
  await trx('jobs').insert({ kind: 'notice', notice_id: noticeId, run_at: runAt, created_at: now });
}

interface StuckRow {
  id: string | number;
  user_id: number;
  kind: NoticeKind;
  params: Record<string, unknown>;
  attempts: number;
  channel: 'sms' | 'whatsapp' | null;
  sending_since: Date | string | null;
  mobile: string | null;
  notice_locale: 'en' | 'ta';
}

/** Slack for the provider's clock when asking what it sent since a send began. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Takes over the notices left `sending` past their lease (a process that stopped mid-send, a send that got no
 * answer): each is settled by what the provider says it sent (see the header). Answers how many were settled.
 */
export async function recoverNotices(
  deps: Pick<AppDeps, 'db' | 'clock' | 'logger' | 'sms' | 'config'>,
  limit = 50,
): Promise<number> {
  const sms = deps.sms;
  if (!sms) return 0;
  const now = deps.clock.now();
  // Taken over by renewing the lease in one transaction: another process skips the locked rows, then no
  // longer finds them past their lease.
  const stuck = await deps.db.transaction(async (trx) => {
    const rows = (
      (await trx.raw(
        `select n.id, n.user_id, n.kind, n.params, n.attempts, n.channel, n.sending_since,
                coalesce(n.params->>'to', u.mobile) as mobile, u.notice_locale
           from notices n join users u on u.id = n.user_id
          where n.state = 'sending' and n.sending_since < ?
          order by n.sending_since limit ? for update of n skip locked`,
        [new Date(now.getTime() - noticeLeaseMs(deps.config)), limit],
      )) as { rows: StuckRow[] }
    ).rows;
    if (rows.length)
      await trx('notices')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .update({ sending_since: now });
    return rows;
  });
  let settled = 0;
  for (const r of stuck) {
    const channel = r.channel ?? 'sms';
    const body = noticeText(r.kind, r.notice_locale, r.params);
    const variables = Object.values(noticeVariables(r.kind, r.notice_locale, r.params));
    try {
      let found: string | undefined;
      if (r.mobile) {
        const since = new Date(new Date(r.sending_since ?? now).getTime() - CLOCK_SKEW_MS);
        const recent = await sms.recentMessages(r.mobile, channel, since);
        // A message already counted as another notice's is not this one (two call-backs, one text).
        const taken = new Set<string>(
          recent.length
            ? await deps
                .db('notices')
                .whereIn(
                  'provider_sid',
                  recent.map((m) => m.sid),
                )
                .pluck('provider_sid')
            : [],
        );
        found = recent.find(
          (m) =>
            !taken.has(m.sid) &&
            (m.body === body || (variables.length > 0 && variables.every((v) => m.body.includes(v)))),
        )?.sid;
      }
      await deps.db.transaction(async (trx) => {
        if (found) {
          await trx('notices')
            .where({ id: r.id, state: 'sending' })
            .update({ state: 'sent', provider_sid: found, sending_since: null });
          return;
        }
        const again = r.mobile && r.attempts < NOTICE_MAX_ATTEMPTS;
        const changed = await trx('notices')
          .where({ id: r.id, state: 'sending' })
          .update({
            state: again ? 'pending' : 'failed',
            sent_at: null,
            sending_since: null,
            last_error: again ? 'sent again: the provider has no record of it' : 'not sent',
          });
        if (again && changed) await queueAgain(trx, r.id, now, now);
      });
      deps.logger.info({ noticeId: r.id, found: !!found }, 'a notice left sending was settled');
      settled++;
    } catch (err) {
      // The provider did not answer: the lease runs out again and the next poll asks again.
      deps.logger.warn({ err, noticeId: r.id }, 'settling a notice left sending failed');
    }
  }
  return settled;
}

/** A shop's name as its notices show it. */
export async function shopNameOf(db: Knex, sellerId: number): Promise<string> {
  const row = (await db('users as u')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'u.id')
    .where('u.id', sellerId)
    .first(db.raw('coalesce(sp.shop_name, u.display_name) as name'))) as { name: string } | undefined;
  return row?.name ?? '';
}

/** A time as a notice shows it in the person's zone ("27 Nov, 4:30 pm"). */
export function noticeTime(at: Date, timeZone = 'Asia/Kolkata'): string {
  return new Intl.DateTimeFormat('en-IN', {
    timeZone,
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(at);
}

/** The person's notice settings and verified mobile, with the channels this server offers and the wording. */
export async function noticeSettingsOf(
  deps: Pick<AppDeps, 'db' | 'sms'>,
  userId: number,
): Promise<NoticeSettings> {
  const row = (await deps
    .db('users')
    .where({ id: userId })
    .first('notices', 'notice_locale', 'notice_channel', 'mobile', 'password_hash')) as {
    password_hash: string;
    notices: boolean;
    notice_locale: 'en' | 'ta';
    notice_channel: 'sms' | 'whatsapp';
    mobile: string | null;
  };
  return {
    notices: row.notices,
    locale: row.notice_locale,
    channel: row.notice_channel,
    channels: deps.sms?.noticeChannels() ?? [],
    mobile: row.mobile,
    hasPassword: row.password_hash !== NO_PASSWORD,
    wording: { ...NOTICE_CONSENT_WORDING },
  };
}

/**
 * An inbound message: "STOP" (and its synonyms in English, Hindi and Tamil: ./keywords.ts) withdraws the
 * sender's consent; "START" (and its synonyms) grants it again.
 * `messageKey` is what Twilio's signature covers and names the message by (its MessageSid): a keyword message
 * is acted on once, its receipt stored in the transaction of its consent, so a signed START or STOP captured
 * and sent again later changes nothing ('duplicate'). The receipt is stored even when the message changes
 * nothing at the time (a START while notices are on), so it cannot be replayed after a later STOP either.
 */
export async function handleInboundMessage(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  messageKey: string,
  from: string,
  body: string,
  record: (
    trx: Knex,
    userId: number,
    granted: boolean,
    locale: 'en' | 'ta',
    channel: 'sms' | 'whatsapp',
  ) => Promise<void>,
): Promise<'handled' | 'duplicate' | 'ignored'> {
  // STOP and START in English, Hindi and Tamil, normalised (./keywords.ts).
  const keyword = keywordOf(body);
  if (!keyword) return 'ignored';
  const granted = keyword === 'start';
  // A reply by WhatsApp comes from "whatsapp:+91…".
  const channel = from.startsWith('whatsapp:') ? 'whatsapp' : 'sms';
  const mobile = from.replace(/^whatsapp:/, '');
  return deps.db.transaction(async (trx) => {
    if (!(await firstReceipt(trx, 'twilio', messageKey))) return 'duplicate' as const;
    const user = (await trx('users')
      .where({ mobile })
      .forUpdate()
      .first('id', 'notices', 'notice_locale', 'notice_channel')) as
      | { id: number; notices: boolean; notice_locale: 'en' | 'ta'; notice_channel: 'sms' | 'whatsapp' }
      | undefined;
    if (!user || user.notices === granted) return 'ignored' as const;
    // START by WhatsApp asks for notices there; STOP ends them whichever channel it came by.
    await record(trx, user.id, granted, user.notice_locale, granted ? channel : user.notice_channel);
    return 'handled' as const;
  });
}
