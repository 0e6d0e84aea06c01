import webpush from 'web-push';
import { badRequest, conflict } from '../../http/errors';
import type { AppDeps, CallbackRequestedEvent, IncomingCallEvent, OrderPaidEvent } from '../../http/context';
import { formatInr } from '../../../contract/money';
import type { AppointmentNotice } from '../../../contract/appointments';
import {
  incomingCallPushTtlSeconds,
  type AppointmentPush,
  type CallbackRequestPush,
  type IncomingCallPush,
  type OrderPaidPush,
  type PushSubscriptionInput,
} from '../../../contract/push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const SETTINGS_KEY = 'vapid_keys';
const DEFAULT_SUBJECT = 'mailto:support@nagai.test';

/**
 * The VAPID keys: from the environment, or (embedded database only) generated once and kept in the
 * database so every restart signs with the same key. Null means push is off.
 */
export async function getVapidKeys(deps: AppDeps): Promise<VapidKeys | null> {
  if (deps.config.vapid) return deps.config.vapid;
  if (deps.dbKind !== 'pglite') return null;
  const existing = (await deps.db('app_settings').where({ key: SETTINGS_KEY }).first('value')) as
    { value: VapidKeys } | undefined;
  if (existing) return existing.value;
  const generated = webpush.generateVAPIDKeys();
  const keys: VapidKeys = { ...generated, subject: DEFAULT_SUBJECT };
  await deps
    .db('app_settings')
    .insert({ key: SETTINGS_KEY, value: JSON.stringify(keys) })
    .onConflict('key')
    .ignore();
  const stored = (await deps.db('app_settings').where({ key: SETTINGS_KEY }).first('value')) as {
    value: VapidKeys;
  };
  return stored.value;
}

export const PUSH_MESSAGES = {
  hostNotAllowed: 'Push endpoints must be on a known push service.',
  endpointTaken: 'This push endpoint belongs to another account.',
} as const;

/** True when the endpoint's host is on the allow-list (`*.example.com`: any subdomain; `host:port`: that port). */
export function isAllowedPushHost(endpoint: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return allowed.some((entry) => {
    const [name, port] = entry.split(':') as [string, string | undefined];
    if ((port ?? '') !== url.port) return false;
    return name.startsWith('*.')
      ? host.endsWith(name.slice(1)) && host.length > name.length - 1
      : host === name;
  });
}

/**
 * Saves a browser's push subscription for the session that made it: it is deleted with the session (logout,
 * password change, expiry). The endpoint must be on a known push service (PUSH_ENDPOINT_HOSTS), or our server
 * would send requests wherever a caller pointed it; an endpoint another user holds is refused, never moved,
 * so nobody can take over another person's notifications. The same user re-subscribing moves it to this session.
 */
export async function saveSubscription(
  deps: AppDeps,
  userId: number,
  sessionId: string,
  sub: PushSubscriptionInput,
): Promise<void> {
  if (!isAllowedPushHost(sub.endpoint, deps.config.pushEndpointHosts)) {
    throw badRequest(PUSH_MESSAGES.hostNotAllowed, 'push_host_not_allowed');
  }
  const saved = (
    (await deps.db.raw(
      `insert into push_subscriptions (user_id, session_id, endpoint, expiration_time, p256dh, auth, locale)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (endpoint) do update set
         session_id = excluded.session_id, expiration_time = excluded.expiration_time,
         p256dh = excluded.p256dh, auth = excluded.auth, locale = excluded.locale
       where push_subscriptions.user_id = excluded.user_id
       returning id`,
      [
        userId,
        sessionId,
        sub.endpoint,
        sub.expirationTime ?? null,
        sub.keys.p256dh,
        sub.keys.auth,
        sub.locale ?? 'en',
      ],
    )) as { rows: { id: number }[] }
  ).rows;
  if (saved.length === 0) throw conflict(PUSH_MESSAGES.endpointTaken, 'push_endpoint_taken');
}

/** Removes one of the user's subscriptions. */
export async function deleteSubscription(deps: AppDeps, userId: number, endpoint: string): Promise<number> {
  return deps.db('push_subscriptions').where({ user_id: userId, endpoint }).delete();
}

interface SubscriptionRow {
  id: number;
  endpoint: string;
  expiration_time: number | string | null;
  p256dh: string;
  auth: string;
  locale: 'en' | 'ta';
}

export interface PushOutcome {
  sent: number;
  removed: number;
  failed: number;
}

/**
 * Pushes a ringing call to every subscription of the one it rings (the seller; the customer of a jeweller's
 * call-back): short TTL, high urgency.
 */
export async function pushIncomingCall(deps: AppDeps, event: IncomingCallEvent): Promise<PushOutcome> {
  return pushToUser(
    deps,
    event.rungUserId ?? event.sellerId,
    (locale): IncomingCallPush => ({
      type: 'incoming-call',
      callId: event.callId,
      callerName: event.callerName,
      ...(event.productName ? { productName: event.productName } : {}),
      ...(event.rungUserId !== undefined ? { callBack: true } : {}),
      locale,
    }),
    {
      TTL: incomingCallPushTtlSeconds(deps.config.callRingTimeoutMs),
      urgency: 'high',
      topic: `call-${event.callId}`,
    },
  );
}

/** Tells the jeweller of a new call-back request (issue #22): kept for a day, normal urgency. */
export async function pushCallbackRequest(
  deps: AppDeps,
  event: CallbackRequestedEvent,
): Promise<PushOutcome> {
  return pushToUser(
    deps,
    event.sellerId,
    (locale): CallbackRequestPush => ({
      type: 'callback-request',
      requestId: event.requestId,
      customerName: event.customerName,
      ...(event.productName ? { productName: event.productName } : {}),
      locale,
    }),
    { TTL: 24 * 3600, urgency: 'normal', topic: `callback-${event.requestId}` },
  );
}

/**
 * Tells the jeweller of a new paid order (issue #48): kept for a day, normal urgency, one topic per order. The
 * open dashboard learns of it by its event stream; this reaches the phone in a pocket.
 */
export async function pushOrderPaid(deps: AppDeps, event: OrderPaidEvent): Promise<PushOutcome> {
  return pushToUser(
    deps,
    event.sellerId,
    (locale): OrderPaidPush => ({
      type: 'order-paid',
      orderId: event.orderId,
      customerName: event.customerName,
      amount: formatInr(event.amountPaise / 100),
      locale,
    }),
    { TTL: 24 * 3600, urgency: 'normal', topic: `order-${event.orderId}` },
  );
}

/** The push options of an appointment notice (see pushAppointmentNotice). */
function appointmentPushOptions(notice: AppointmentNotice) {
  return {
    TTL: notice.notice === 'reminder' || notice.notice === 'starting' ? 15 * 60 : 24 * 3600,
    urgency: notice.notice === 'starting' || notice.notice === 'cancelled' ? 'high' : 'normal',
    topic: `appointment-${notice.appointmentId}`,
  } as const;
}

/**
 * An appointment notice (issue #22): a booking, the reminder 15 min before, the start, a reschedule or a
 * cancellation. A reminder is worth delivering until the start, the start until the slot is half over; the
 * others for a day. One topic per appointment, so a newer notice replaces one still undelivered.
 */
export async function pushAppointmentNotice(
  deps: AppDeps,
  userId: number,
  notice: AppointmentNotice,
): Promise<PushOutcome> {
  return pushToUser(
    deps,
    userId,
    (locale): AppointmentPush => ({ type: 'appointment', ...notice, locale }),
    appointmentPushOptions(notice),
  );
}

/**
 * A batch's pushes may wait longer than a ring's for the push service's answer: a reminder is worth minutes,
 * and under load a short timeout drops pushes the service would still have taken (a retry could send twice).
 */
const BATCH_PUSH_TIMEOUT_MS = 20_000;

/**
 * Many appointment notices at once (a batch of the job table's reminders): one query finds the live
 * subscriptions of every recipient, and at most `concurrency` pushes are in flight, so a batch of thousands
 * holds no database connection while it sends.
 */
export async function pushAppointmentNotices(
  deps: AppDeps,
  notices: readonly { userId: number; notice: AppointmentNotice }[],
  concurrency = 64,
): Promise<PushOutcome> {
  const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
  if (!notices.length) return outcome;
  const vapid = await getVapidKeys(deps);
  if (!vapid) return outcome;
  const userIds = [...new Set(notices.map((n) => n.userId))];
  const byUser = new Map<number, SubscriptionRow[]>();
  // In chunks: a statement's bind parameters are limited.
  for (let i = 0; i < userIds.length; i += 1000) {
    const rows = (await liveSubscriptions(deps)
      .whereIn('ps.user_id', userIds.slice(i, i + 1000))
      .select('ps.user_id')) as (SubscriptionRow & { user_id: number })[];
    for (const r of rows) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
  }
  const sends = notices.flatMap((n) =>
    (byUser.get(n.userId) ?? []).map((sub) => ({ sub, notice: n.notice })),
  );
  let next = 0;
  const worker = async () => {
    while (next < sends.length) {
      const { sub, notice } = sends[next++];
      const payload: AppointmentPush = { type: 'appointment', ...notice, locale: sub.locale };
      await sendOne(
        deps,
        vapid,
        sub,
        JSON.stringify(payload),
        appointmentPushOptions(notice),
        outcome,
        BATCH_PUSH_TIMEOUT_MS,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, sends.length) }, worker));
  return outcome;
}

/**
 * Pushes a payload to every subscription of a user's live sessions (a user without one is simply not pushed
 * to). A 404 or 410 from the push service means the subscription is gone, so it is deleted; other failures
 * keep it.
 */
/** Only subscriptions of live sessions: an expired session's devices are not rung. */
const liveSubscriptions = (deps: AppDeps) =>
  deps
    .db('push_subscriptions as ps')
    .join('sessions as s', 's.id', 'ps.session_id')
    .where('s.expires_at', '>', deps.clock.now())
    .select('ps.id', 'ps.endpoint', 'ps.expiration_time', 'ps.p256dh', 'ps.auth', 'ps.locale');

/**
 * Sends one push. A 404 or 410 from the push service means the subscription is gone, so it is deleted; other
 * failures are logged and counted.
 */
async function sendOne(
  deps: AppDeps,
  vapid: VapidKeys,
  s: SubscriptionRow,
  payload: string,
  options: { TTL: number; urgency: 'high' | 'normal'; topic: string },
  outcome: PushOutcome,
  timeoutMs = 5000,
): Promise<void> {
  try {
    await webpush.sendNotification(
      { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
      payload,
      {
        vapidDetails: vapid,
        ...options,
        timeout: timeoutMs,
        agent: deps.pushAgent,
      },
    );
    outcome.sent++;
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 404 || status === 410) {
      await deps.db('push_subscriptions').where({ id: s.id }).delete();
      outcome.removed++;
    } else {
      outcome.failed++;
      deps.logger.warn({ err, endpointHost: new URL(s.endpoint).host, status }, 'web push failed');
    }
  }
}

async function pushToUser(
  deps: AppDeps,
  userId: number,
  payloadFor: (locale: 'en' | 'ta') => object,
  options: { TTL: number; urgency: 'high' | 'normal'; topic: string },
): Promise<PushOutcome> {
  const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
  const vapid = await getVapidKeys(deps);
  if (!vapid) return outcome;
  const subs = (await liveSubscriptions(deps).where('ps.user_id', userId)) as SubscriptionRow[];
  await Promise.all(
    subs.map((s) => sendOne(deps, vapid, s, JSON.stringify(payloadFor(s.locale)), options, outcome)),
  );
  return outcome;
}
