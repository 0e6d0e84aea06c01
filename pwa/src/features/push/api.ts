import { queryOptions } from '@tanstack/react-query';
import type { PushSubscriptionInput } from '../../../../api/contract/push';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';

/** Query factories of the push area. */
export const pushQueries = {
  /** Whether the server can push, and its VAPID public key. */
  publicKey: () =>
    queryOptions({
      queryKey: ['push', 'public-key'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.pushPublicKey, undefined, { signal }),
      staleTime: Infinity,
      meta: { silentErrors: true },
    }),
};

/** Whether this browser can receive web push at all (service worker, PushManager, notifications, https). */
export function browserSupportsPush(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** A VAPID key (base64url) as the bytes PushManager.subscribe expects. */
export function urlBase64ToUint8Array(base64Url: string): Uint8Array<ArrayBuffer> {
  const padded = (base64Url + '='.repeat((4 - (base64Url.length % 4)) % 4))
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const raw = atob(padded);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** The service worker registration, waiting for it at most `ms` (it registers after the page loads). */
export async function swRegistration(ms = 10_000): Promise<ServiceWorkerRegistration | undefined> {
  const existing = await navigator.serviceWorker.getRegistration();
  if (existing?.active) return existing;
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<undefined>((resolve) => window.setTimeout(() => resolve(undefined), ms)),
  ]);
}

/** This device's current push subscription, if any. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** Sends this device's subscription to the server for the signed-in seller, in their language. */
export function saveSubscription(sub: PushSubscription, locale: 'en' | 'ta') {
  const json = sub.toJSON() as Omit<PushSubscriptionInput, 'locale'>;
  return api.call(API_ROUTES.pushSubscribe, {
    endpoint: json.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: json.keys,
    locale,
  });
}

/**
 * Subscribes this device with the server's key (replacing a subscription made with an older key) and
 * registers it with the server. Notification permission must already be granted.
 */
export async function subscribeDevice(publicKey: string, locale: 'en' | 'ta'): Promise<PushSubscription> {
  const reg = await swRegistration();
  if (!reg) throw new Error('no service worker');
  const key = urlBase64ToUint8Array(publicKey);
  let sub = await reg.pushManager.getSubscription();
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  try {
    await saveSubscription(sub, locale);
  } catch (err) {
    // The server does not know it: do not leave the device half subscribed.
    await sub.unsubscribe().catch(() => false);
    throw err;
  }
  return sub;
}

/** Stops ringing this device: the server forgets it first (so a failure leaves both sides as they were). */
export async function unsubscribeDevice(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  await api.call(API_ROUTES.pushUnsubscribe, { endpoint: sub.endpoint });
  await sub.unsubscribe();
}
