/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { isTryOnCode, TRYON_CODE_CACHE } from '../api/contract/face-model';
import { ALL_ROUTES, API_ROUTES, pathsWhere } from '../api/contract/routes';
import { appointmentText, callbackRequestText, notificationText, orderPaidText, type SwLocale } from './i18n';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/** Cache names, shared with the page (it clears the catalogue cache on logout). */
export const CATALOG_CACHE = 'nagai-catalog-v1';
export const MEDIA_CACHE = 'nagai-media-v1';

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Page navigations fall back to the app shell, so routes open offline; API and media are never the shell, nor the
// try-on's sandboxed detector page under /vendor/ (issue #51).
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/_api\//, /^\/media\//, /^\/healthz/, /^\/vendor\//],
  }),
);

// Public catalogue reads: fresh when the network answers within 3 s, else the last copy seen. Only the route
// table's `serviceWorker: 'network-first'` entries are cached; session, cart, orders, calls and push always go
// to the network.
const CATALOG_PATHS = pathsWhere((r) => r.serviceWorker === 'network-first');
/** Immutable media: the `serviceWorker: 'cache-first'` entries, by the prefix before their parameter. */
const MEDIA_PREFIXES = ALL_ROUTES.filter((r) => r.serviceWorker === 'cache-first').map(
  (r) => r.path.split(':')[0],
);
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && CATALOG_PATHS.has(url.pathname),
  new NetworkFirst({
    cacheName: CATALOG_CACHE,
    networkTimeoutSeconds: 3,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true }),
    ],
  }),
);

// Product images are content-addressed and immutable: cache first, bounded in count and age.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    MEDIA_PREFIXES.some((prefix) => url.pathname.startsWith(prefix)),
  new CacheFirst({
    cacheName: MEDIA_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true }),
    ],
  }),
);

// The try-on's code (issue #51): not precached, kept from its first use on (the page also puts it there after
// a try-on it ran before this worker controlled it: features/tryon/model-load.ts). Content-hashed files: the
// cache answers first; the page drops a previous build's files from it.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' && url.origin === self.location.origin && isTryOnCode(url.pathname),
  new CacheFirst({
    cacheName: TRYON_CODE_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] })],
  }),
);

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (data?.type === 'CLEAR_CATALOG_CACHE') event.waitUntil(caches.delete(CATALOG_CACHE));
});

interface IncomingCallPush {
  type: 'incoming-call';
  callId: number;
  callerName: string;
  productName?: string | null;
  /** A jeweller's call-back ringing the customer (issue #22). */
  callBack?: boolean;
  locale?: SwLocale;
}

interface AppointmentPush {
  type: 'appointment';
  appointmentId: number;
  notice: 'booked' | 'reminder' | 'starting' | 'rescheduled' | 'cancelled';
  startsAt: string;
  otherName: string;
  reason: string | null;
  side: 'customer' | 'seller';
  locale?: SwLocale;
}

interface CallbackRequestPush {
  type: 'callback-request';
  requestId: number;
  customerName: string;
  productName?: string | null;
  locale?: SwLocale;
}

interface OrderPaidPush {
  type: 'order-paid';
  orderId: number;
  customerName: string;
  amount: string;
  locale?: SwLocale;
}

async function tellClients(message: Record<string, unknown>): Promise<readonly WindowClient[]> {
  const clients = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const c of clients) c.postMessage(message);
  return clients;
}

// A pushed ring is an accelerator: open tabs poll at once, and a notification shows for closed or hidden apps.
self.addEventListener('push', (event) => {
  let data: IncomingCallPush | CallbackRequestPush | AppointmentPush | OrderPaidPush | undefined;
  try {
    data = event.data?.json() as
      IncomingCallPush | CallbackRequestPush | AppointmentPush | OrderPaidPush | undefined;
  } catch {
    return;
  }
  if (data?.type === 'order-paid') {
    // A customer paid an order of the shop (issue #48): the jeweller's orders page has it to confirm.
    const text = orderPaidText(data.locale ?? 'en', data.orderId, data.customerName, data.amount);
    event.waitUntil(
      self.registration.showNotification(text.title, {
        body: text.body,
        tag: `order-${data.orderId}`,
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-96.png',
        data: { url: '/seller/orders' },
      }),
    );
    return;
  }
  if (data?.type === 'appointment') {
    // A video appointment booked, due, starting, moved or cancelled (issue #22): open tabs refresh their lists.
    const a = data;
    const text = appointmentText(a.locale ?? 'en', a.notice, a.otherName, a.startsAt, a.reason);
    event.waitUntil(
      (async () => {
        const clients = await tellClients({ type: 'appointment', appointmentId: a.appointmentId });
        await self.registration.showNotification(text.title, {
          body: text.body,
          tag: `appointment-${a.appointmentId}`,
          icon: '/icons/icon-192.png',
          badge: '/icons/badge-96.png',
          requireInteraction: a.notice === 'starting',
          data: {
            // The jeweller's appointments are on the dashboard, the customer's on their calls page.
            url: a.side === 'seller' ? '/seller/dashboard' : '/call-history',
            clients: clients.length,
          },
        });
      })(),
    );
    return;
  }
  if (data?.type === 'callback-request') {
    // A customer asked the jeweller to call back (issue #22): the dashboard's queue has it.
    const request = callbackRequestText(data.locale ?? 'en', data.customerName, data.productName);
    event.waitUntil(
      self.registration.showNotification(request.title, {
        body: request.body,
        tag: `callback-${data.requestId}`,
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-96.png',
        data: { url: '/seller/dashboard' },
      }),
    );
    return;
  }
  if (data?.type !== 'incoming-call') return;
  const text = notificationText(
    data.locale ?? 'en',
    data.callerName,
    data.productName,
    data.callBack === true,
  );
  const push = data;
  event.waitUntil(
    (async () => {
      await tellClients({ type: 'poll-incoming-calls', callId: push.callId });
      await self.registration.showNotification(text.title, {
        body: text.body,
        tag: `call-${push.callId}`,
        requireInteraction: true,
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-96.png',
        data: push.callBack ? { callId: push.callId, callBack: true } : { callId: push.callId },
        // Actions are a Chromium extension of NotificationOptions.
        ...({
          actions: [
            { action: 'accept', title: text.accept },
            { action: 'decline', title: text.decline },
          ],
        } as object),
      });
    })(),
  );
});

/** Shows a page of the app: an open window is focused and sent there, else a new one opens. */
async function openPage(url: string): Promise<void> {
  const clients = await self.clients.matchAll({ type: 'window' });
  const client = clients.find((c) => 'focus' in c);
  if (client) {
    const focused = await client.focus();
    if (new URL(focused.url).pathname !== url) await focused.navigate(url).catch(() => undefined);
    return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  const note = event.notification.data as { callId?: number; callBack?: boolean; url?: string } | undefined;
  const callId = note?.callId;
  event.notification.close();
  if (!callId) {
    const url = note?.url;
    if (url) event.waitUntil(openPage(url));
    return;
  }
  event.waitUntil(
    (async () => {
      if (event.action === 'decline') {
        // Same-origin fetch from the worker carries the session cookie; the server decides the outcome.
        await fetch(API_ROUTES.callRespond.path, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ callId, response: 'decline' }),
        }).catch(() => undefined);
        await tellClients({ type: 'poll-incoming-calls', callId });
        return;
      }
      const message = { type: event.action === 'accept' ? 'accept-call' : 'show-call', callId };
      const clients = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const client = clients.find((c) => 'focus' in c);
      if (client) {
        await client.focus();
        client.postMessage(message);
        return;
      }
      // A customer rung by a call-back opens their calls page; its poll brings up the ringing call.
      await self.clients.openWindow(
        note?.callBack
          ? '/call-history'
          : `/seller/dashboard?call=${callId}${event.action === 'accept' ? '&answer=1' : ''}`,
      );
    })(),
  );
});
