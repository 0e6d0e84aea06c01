import type { Browser, BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppointmentPush, CallbackRequestPush, IncomingCallPush } from '../../api/contract/push';
import { DEMO_ACCOUNTS, signInViaApi } from './support/accounts';
import { baseUrl, launchBrowser, newContext } from './support/browser';

/**
 * The service worker's side of web push (issue 7 §5): a push message is delivered into the REAL, built
 * service worker through the DevTools protocol (ServiceWorker.deliverPushMessage — Chromium dispatches a
 * genuine `push` event, the same path a push service's message takes once it reaches the browser). Headless
 * Chromium cannot reach a real push service; the server's side (encryption, VAPID, 410 cleanup) is covered
 * by tests/api/push.test.ts, and bench:push-latency joins the two through the local receiver. The
 * notification is read with registration.getNotifications({ tag }) once the worker's showNotification has
 * settled (see installShowProbe).
 */

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
  requireInteraction: boolean;
  actions: { action: string; title: string }[];
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([], { serviceWorkers: 'allow' });
});
afterAll(async () => browser?.close());

/** A seller's page controlled by the service worker, with notifications allowed. */
async function sellerPage(context: BrowserContext): Promise<Page> {
  await signInViaApi(context, DEMO_ACCOUNTS.seller);
  await context.grantPermissions(['notifications'], { origin: baseUrl() });
  const page = await context.newPage();
  await page.goto('/seller/dashboard');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
    timeout: 30_000,
  });
  return page;
}

/** The service worker registration id for the origin's root scope, as the DevTools protocol names it. */
async function registrationId(cdp: CDPSession): Promise<string> {
  const scope = `${baseUrl()}/`;
  let found: string | undefined;
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (r.scopeURL === scope && !r.isDeleted) found = r.registrationId;
  });
  await cdp.send('ServiceWorker.enable');
  const deadline = Date.now() + 10_000;
  while (!found) {
    if (Date.now() > deadline) throw new Error(`no service worker registration for ${scope}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return found;
}

/** Starts collecting the worker's messages to this tab (before the push, so none is missed). */
async function listenToWorker(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { swMessages?: unknown[] };
    if (!w.swMessages) {
      navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => w.swMessages?.push(e.data));
    }
    w.swMessages = [];
  });
}

/**
 * Waits until the worker's showNotification for the tag has settled. Polling getNotifications instead races
 * Chromium's notification-database sync while a notification is being displayed and can drop the new one
 * from the list, so a probe wraps the browser's ServiceWorkerRegistration.prototype.showNotification in the
 * running worker (sw.ts runs unchanged) and the list is read once, after the display has completed.
 */
async function installShowProbe(context: BrowserContext): Promise<Worker> {
  const [worker] = context.serviceWorkers();
  if (!worker) throw new Error('no service worker in the context');
  await worker.evaluate(() => {
    const g = self as unknown as { showProbe?: Record<string, string> };
    if (g.showProbe) return;
    g.showProbe = {};
    const proto = ServiceWorkerRegistration.prototype;
    const original = proto.showNotification;
    proto.showNotification = function (
      this: ServiceWorkerRegistration,
      title: string,
      options?: NotificationOptions,
    ) {
      const tag = options?.tag ?? '';
      g.showProbe![tag] = 'pending';
      return original.call(this, title, options).then(
        () => {
          g.showProbe![tag] = 'shown';
        },
        (err: unknown) => {
          g.showProbe![tag] = `failed: ${String(err)}`;
          throw err;
        },
      );
    };
  });
  return worker;
}

async function showSettled(worker: Worker, tag: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const state = await worker.evaluate(
      (t) => (self as unknown as { showProbe: Record<string, string | undefined> }).showProbe[t],
      tag,
    );
    if (state !== undefined && state !== 'pending') return state;
    if (Date.now() > deadline) throw new Error(`showNotification for ${tag}: ${state ?? 'never called'}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function notificationsFor(page: Page, tag: string): Promise<ShownNotification[]> {
  return page.evaluate(async (t) => {
    const registration = await navigator.serviceWorker.ready;
    const list = await registration.getNotifications({ tag: t });
    return list.map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      data: n.data as unknown,
      requireInteraction: n.requireInteraction,
      actions: ((n as unknown as { actions?: { action: string; title: string }[] }).actions ?? []).map(
        (a) => ({ action: a.action, title: a.title }),
      ),
    }));
  }, tag);
}

async function closeNotifications(page: Page, tag: string): Promise<void> {
  await page.evaluate(async (t) => {
    const registration = await navigator.serviceWorker.ready;
    for (const n of await registration.getNotifications({ tag: t })) n.close();
  }, tag);
}

describe('push in the service worker', () => {
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let regId: string;
  let worker: Worker;

  beforeAll(async () => {
    context = await newContext(browser);
    page = await sellerPage(context);
    cdp = await context.newCDPSession(page);
    regId = await registrationId(cdp);
    worker = await installShowProbe(context);
  });
  afterAll(async () => {
    await cdp?.detach().catch(() => undefined);
    await context?.close();
  });

  /** Delivers the server's payload as a push message into the worker. */
  async function deliver(payload: IncomingCallPush | CallbackRequestPush | AppointmentPush): Promise<void> {
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId: regId,
      data: JSON.stringify(payload),
    });
  }

  it('shows an English ringing notification with Accept and Decline, and tells open tabs to poll', async () => {
    const callId = 910_001;
    await listenToWorker(page);
    await deliver({ type: 'incoming-call', callId, callerName: 'Priya Raman', locale: 'en' });
    expect(await showSettled(worker, `call-${callId}`)).toBe('shown');
    const list = await notificationsFor(page, `call-${callId}`);
    expect(list).toHaveLength(1);
    const [shown] = list;
    expect(shown).toEqual({
      title: 'Incoming Video Call...',
      body: 'Priya Raman is calling your shop on Nagai',
      tag: `call-${callId}`,
      data: { callId },
      requireInteraction: true,
      actions: [
        { action: 'accept', title: 'Accept' },
        { action: 'decline', title: 'Decline' },
      ],
    });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { swMessages: unknown[] }).swMessages), {
        timeout: 10_000,
        interval: 50,
      })
      .toContainEqual({ type: 'poll-incoming-calls', callId });
    await closeNotifications(page, `call-${callId}`);
  });

  it('rings in Tamil for a seller who subscribed in Tamil', async () => {
    const callId = 910_002;
    await listenToWorker(page);
    await deliver({ type: 'incoming-call', callId, callerName: 'மீனா', locale: 'ta' });
    expect(await showSettled(worker, `call-${callId}`)).toBe('shown');
    const list = await notificationsFor(page, `call-${callId}`);
    expect(list).toHaveLength(1);
    const [shown] = list;
    expect(shown.title).toBe('உள்வரும் வீடியோ அழைப்பு...');
    expect(shown.body).toBe('மீனா நகையில் உங்கள் கடையை அழைக்கிறார்');
    expect(shown.actions).toEqual([
      { action: 'accept', title: 'ஏற்கவும்' },
      { action: 'decline', title: 'நிராகரிக்கவும்' },
    ]);
    expect(shown.data).toEqual({ callId });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { swMessages: unknown[] }).swMessages), {
        timeout: 10_000,
        interval: 50,
      })
      .toContainEqual({ type: 'poll-incoming-calls', callId });
    await closeNotifications(page, `call-${callId}`);
  });

  it('rings a customer for a call-back ("… is calling you back") and tells a jeweller of a new request (issue #22)', async () => {
    const callId = 910_004;
    await deliver({
      type: 'incoming-call',
      callId,
      callerName: 'Lakshmi Jewellers',
      callBack: true,
      locale: 'en',
    });
    expect(await showSettled(worker, `call-${callId}`)).toBe('shown');
    const [ring] = await notificationsFor(page, `call-${callId}`);
    expect(ring.body).toBe('Lakshmi Jewellers is calling you back on Nagai');
    expect(ring.data).toEqual({ callId, callBack: true });
    await closeNotifications(page, `call-${callId}`);

    await deliver({
      type: 'callback-request',
      requestId: 77,
      customerName: 'Meena',
      productName: 'Kasu mala',
      locale: 'ta',
    });
    expect(await showSettled(worker, 'callback-77')).toBe('shown');
    const [request] = await notificationsFor(page, 'callback-77');
    expect(request.title).toBe('திரும்ப அழைப்புக் கோரிக்கை');
    expect(request.body).toBe('Meena உங்களைத் திரும்ப அழைக்கக் கேட்கிறார்\nKasu mala பற்றி');
    expect(request.data).toEqual({ url: '/seller/dashboard' });
    await closeNotifications(page, 'callback-77');
  });

  it('shows appointment notices; a tap opens the dashboard for the jeweller, the calls page for the customer (issue #22)', async () => {
    await deliver({
      type: 'appointment',
      appointmentId: 501,
      notice: 'booked',
      startsAt: '2026-01-05T05:30:00.000Z',
      otherName: 'Priya Raman',
      reason: null,
      side: 'seller',
      locale: 'en',
    });
    expect(await showSettled(worker, 'appointment-501')).toBe('shown');
    const [booked] = await notificationsFor(page, 'appointment-501');
    expect(booked.title).toBe('Video appointment');
    expect(booked.body).toMatch(/^Priya Raman booked a video appointment: /);
    expect(booked.data).toMatchObject({ url: '/seller/dashboard' });
    await closeNotifications(page, 'appointment-501');

    await deliver({
      type: 'appointment',
      appointmentId: 502,
      notice: 'cancelled',
      startsAt: '2026-01-05T05:30:00.000Z',
      otherName: 'Lakshmi Jewellers',
      reason: 'Closed for Pongal',
      side: 'customer',
      locale: 'ta',
    });
    expect(await showSettled(worker, 'appointment-502')).toBe('shown');
    const [cancelled] = await notificationsFor(page, 'appointment-502');
    expect(cancelled.title).toBe('வீடியோ சந்திப்பு');
    expect(cancelled.body).toMatch(
      /^Lakshmi Jewellers உடன் உங்கள் வீடியோ சந்திப்பு \(.+\) ரத்து செய்யப்பட்டது\nகாரணம்: Closed for Pongal$/,
    );
    expect(cancelled.data).toMatchObject({ url: '/call-history' });
    await closeNotifications(page, 'appointment-502');
  });

  it('ignores a push that is not a ringing call', async () => {
    await listenToWorker(page);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId: regId,
      data: JSON.stringify({ type: 'something-else', callId: 910_003 }),
    });
    // A later ringing push is shown, so the worker has handled the first one by then.
    const callId = 910_004;
    await deliver({ type: 'incoming-call', callId, callerName: 'Kavya', locale: 'en' });
    expect(await showSettled(worker, `call-${callId}`)).toBe('shown');
    // The browser's list of shown notifications can lag showNotification's promise on a busy machine.
    await expect.poll(() => notificationsFor(page, `call-${callId}`)).toHaveLength(1);
    expect(await notificationsFor(page, 'call-910003')).toEqual([]);
    const shownTags = await worker.evaluate(() =>
      Object.keys((self as unknown as { showProbe: Record<string, string> }).showProbe),
    );
    expect(shownTags).not.toContain('call-910003');
    const messages = await page.evaluate(() => (window as unknown as { swMessages: unknown[] }).swMessages);
    expect(messages).toEqual([{ type: 'poll-incoming-calls', callId }]);
    await closeNotifications(page, `call-${callId}`);
  });
});
