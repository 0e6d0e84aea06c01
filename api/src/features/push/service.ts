import webpush from 'web-push';
import type { AppDeps, IncomingCallEvent } from '../../http/context';
import {
  INCOMING_CALL_PUSH_TTL_SECONDS,
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

/** Saves a browser's push subscription for a user (an endpoint moves to whoever subscribed it last). */
export async function saveSubscription(
  deps: AppDeps,
  userId: number,
  sub: PushSubscriptionInput,
): Promise<void> {
  await deps
    .db('push_subscriptions')
    .insert({
      user_id: userId,
      endpoint: sub.endpoint,
      expiration_time: sub.expirationTime ?? null,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
      locale: sub.locale ?? 'en',
    })
    .onConflict('endpoint')
    .merge(['user_id', 'expiration_time', 'p256dh', 'auth', 'locale']);
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
 * Pushes a ringing call to every subscription of the seller: short TTL, high urgency. A 404 or 410
 * from the push service means the subscription is gone, so it is deleted; other failures keep it.
 */
export async function pushIncomingCall(deps: AppDeps, event: IncomingCallEvent): Promise<PushOutcome> {
  const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
  const vapid = await getVapidKeys(deps);
  if (!vapid) return outcome;
  const subs = (await deps.db('push_subscriptions').where({ user_id: event.sellerId })) as SubscriptionRow[];
  await Promise.all(
    subs.map(async (s) => {
      const payload: IncomingCallPush = {
        type: 'incoming-call',
        callId: event.callId,
        callerName: event.callerName,
        locale: s.locale,
      };
      try {
        await webpush.sendNotification(
          { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
          JSON.stringify(payload),
          {
            vapidDetails: vapid,
            TTL: INCOMING_CALL_PUSH_TTL_SECONDS,
            urgency: 'high',
            topic: `call-${event.callId}`,
            timeout: 5000,
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
    }),
  );
  return outcome;
}
