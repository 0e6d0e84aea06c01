import webpush from 'web-push';
import { badRequest, conflict } from '../../http/errors';
import type { AppDeps, CallbackRequestedEvent, IncomingCallEvent } from '../../http/context';
import {
  incomingCallPushTtlSeconds,
  type CallbackRequestPush,
  type IncomingCallPush,
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
 * Pushes a payload to every subscription of a user's live sessions (a user without one is simply not pushed
 * to). A 404 or 410 from the push service means the subscription is gone, so it is deleted; other failures
 * keep it.
 */
async function pushToUser(
  deps: AppDeps,
  userId: number,
  payloadFor: (locale: 'en' | 'ta') => object,
  options: { TTL: number; urgency: 'high' | 'normal'; topic: string },
): Promise<PushOutcome> {
  const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
  const vapid = await getVapidKeys(deps);
  if (!vapid) return outcome;
  // Only subscriptions of live sessions: an expired session's devices are not rung.
  const subs = (await deps
    .db('push_subscriptions as ps')
    .join('sessions as s', 's.id', 'ps.session_id')
    .where('ps.user_id', userId)
    .where('s.expires_at', '>', deps.clock.now())
    .select(
      'ps.id',
      'ps.endpoint',
      'ps.expiration_time',
      'ps.p256dh',
      'ps.auth',
      'ps.locale',
    )) as SubscriptionRow[];
  await Promise.all(
    subs.map(async (s) => {
      try {
        await webpush.sendNotification(
          { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
          JSON.stringify(payloadFor(s.locale)),
          { vapidDetails: vapid, ...options, timeout: 5000, agent: deps.pushAgent },
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
    }),
  );
  return outcome;
}
