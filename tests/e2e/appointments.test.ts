import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Appointment, SlotsResponse } from '../../api/contract/appointments';
import type { StoreResponse } from '../../api/contract/catalog';
import type { AppointmentPush } from '../../api/contract/push';
import { TIME_OF_DAY } from '../../api/contract/time-format';
import { LocalPushService, type FakeSubscriber } from '../support/push-receiver';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, uniqueEmail } from './support/accounts';
import { expectAccessible, launchBrowser } from './support/browser';
import { remoteVideoPlays } from './support/call-phones';
import { copySeededData } from './support/server';

/**
 * Issue #22's booked video appointment, end to end: a customer books a slot in the storefront's slot picker;
 * the server's job table sends the reminder 15 minutes before while the customer's Nagai page is closed (push
 * to LocalPushService, the push-service test double, which hands the decrypted message to the customer's REAL
 * service worker through the DevTools protocol, as tests/bench/push-latency.ts does); at the time the start
 * notification opens the calls page, "Start call" rings the jeweller's dashboard and both see video.
 *
 * This file runs its own server process (the shared e2e server runs in production mode and its clock cannot be
 * moved): its own embedded database with the demo data (a copy of the run's seeded data dir), pushes trusted to
 * the local double. The reminder is real
 * time: the shop's video hours open at a minute chosen so the first slot's reminder is due within a minute or
 * two. To reach the start without waiting 15 minutes, the server is then restarted with CLOCK_OFFSET_MS (a test
 * setting the configuration refuses in production) so its clock reads the appointment's start: the job table,
 * not the test, decides that the start notice is due, and the restart loses nothing.
 */
const SHOP = 'Lakshmi Jewellers';
const STORE = '/lakshmi-jewellers';
const ZONE = 'Asia/Kolkata';
const MINUTE = 60_000;
const REPO = path.resolve(import.meta.dirname, '../..');

let browser: Browser;
let push: LocalPushService;
let dataDir: string;
let caFile: string;
let port: number;
let server: ChildProcess | undefined;
const base = () => `http://127.0.0.1:${port}`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

/** Starts (or restarts) the server on the same port and data; `clockOffsetMs` runs its clock ahead. */
async function startServer(clockOffsetMs = 0): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    CLOCK_OFFSET_MS: String(Math.round(clockOffsetMs)),
    // No balancer to leave: a restart need not wait out the 5 s drain (support/server.ts does the same).
    SHUTDOWN_DRAIN_MS: '0',
    // The demo accounts with the same password as on the shared servers (support/accounts.ts).
    SEED_DEMO_PASSWORD: DEMO_PASSWORD,
    PUSH_ENDPOINT_HOSTS: new URL(push.origin).host,
    NODE_EXTRA_CA_CERTS: caFile,
  };
  delete env.DATABASE_URL;
  server = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base()}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('server did not start in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopServer(): Promise<void> {
  const s = server;
  server = undefined;
  if (!s || s.exitCode !== null) return;
  const exited = new Promise((r) => s.once('exit', r));
  s.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  browser = await launchBrowser([], { serviceWorkers: 'allow' });
  push = new LocalPushService();
  await push.start();
  caFile = push.writeCertificate();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-e2e-appointments-'));
  // The demo data as every server of the run has it, copied rather than loaded again (without it, the first
  // start seeds).
  copySeededData(DEMO_PASSWORD, dataDir);
  port = await freePort();
  await startServer();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stopServer();
  await push?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (caFile) fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
});

async function context(opts: { mobile?: boolean } = {}): Promise<BrowserContext> {
  const c = await browser.newContext({
    baseURL: base(),
    viewport: opts.mobile ? { width: 360, height: 640 } : { width: 1280, height: 860 },
    isMobile: opts.mobile,
    hasTouch: opts.mobile,
    locale: 'en-IN',
    timezoneId: ZONE,
  });
  await c.grantPermissions(['camera', 'microphone', 'notifications'], { origin: base() });
  return c;
}

async function post<T>(c: BrowserContext, route: string, data: unknown): Promise<T> {
  const res = await c.request.post(route, { data, headers: { Origin: base() } });
  expect(res.ok(), `${route}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

async function get<T>(c: BrowserContext, route: string): Promise<T> {
  const res = await c.request.get(route);
  expect(res.ok(), `${route}: ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/** Registers the double's subscriber for the context's session, as the app's opt-in registers a browser's. */
async function subscribe(c: BrowserContext, sub: FakeSubscriber): Promise<void> {
  await post(c, '/_api/push/subscribe', {
    endpoint: sub.endpoint,
    expirationTime: null,
    keys: sub.keys,
    locale: 'en',
  });
}

/** The wall-clock parts of an instant in the shop's zone. */
function inZone(ms: number) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: ZONE,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday) + 1;
  return { day, hhmm: `${parts.hour}:${parts.minute}` };
}

/** The service worker registration of the origin, for the DevTools protocol. */
async function registrationId(cdp: CDPSession): Promise<string> {
  const scope = `${base()}/`;
  let found: string | undefined;
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (r.scopeURL === scope && !r.isDeleted) found = r.registrationId;
  });
  await cdp.send('ServiceWorker.enable');
  const deadline = Date.now() + 20_000;
  while (!found) {
    if (Date.now() > deadline) throw new Error(`no service worker registration for ${scope}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return found;
}

/**
 * Hands a push into the service worker as the browser's push service would, starting the worker if it is
 * stopped. A worker in the middle of stopping (the app was closed a while ago) can refuse it once; the push
 * service tries again, as real ones do.
 */
async function deliver(cdp: CDPSession, registrationId: string, payload: unknown): Promise<string> {
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: base(),
        registrationId,
        data: JSON.stringify(payload),
      });
      return 'delivered';
    } catch (e) {
      last = (e as Error).message;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  return `not delivered: ${last}`;
}

interface Shown {
  title: string;
  body: string;
  data: { url?: string };
}

/** The notifications the service worker shows for a tag (asked of the worker: no page of the app is open). */
async function shownNotifications(worker: Worker, tag: string): Promise<Shown[]> {
  return worker.evaluate(async (t) => {
    const registration = (self as unknown as { registration: ServiceWorkerRegistration }).registration;
    return (await registration.getNotifications({ tag: t })).map((n) => ({
      title: n.title,
      body: n.body,
      data: n.data as { url?: string },
    }));
  }, tag);
}

/** The app's service worker in the context (started again by the browser for a push when it was idle). */
async function serviceWorker(c: BrowserContext): Promise<Worker> {
  return c.serviceWorkers()[0] ?? (await c.waitForEvent('serviceworker', { timeout: 20_000 }));
}

describe('booked video appointment (issue #22)', () => {
  it('booking → the reminder reaches the closed app by push → at the time "Start call" rings the jeweller → video', async () => {
    const seller = await context();
    await post(seller, '/_api/auth/login_with_password', {
      email: DEMO_ACCOUNTS.seller,
      password: DEMO_PASSWORD,
    });
    const sellerSub = push.subscriber();
    await subscribe(seller, sellerSub);

    // The shop's video hours open at a minute whose first slot's reminder (15 min before) is due in 40-100 s.
    const opens = Math.ceil((Date.now() + 15 * MINUTE + 40_000) / MINUTE) * MINUTE;
    const from = inZone(opens);
    const to = inZone(opens + 60 * MINUTE);
    await post(seller, '/_api/seller/hours', {
      timeZone: ZONE,
      hours: [{ day: from.day, from: from.hhmm, to: to.hhmm === '00:00' ? '24:00' : to.hhmm }],
      away: false,
      awayMessage: null,
    });
    const sellerPage = await seller.newPage();
    await sellerPage.goto('/seller/dashboard');
    const card = sellerPage.getByTestId('shop-appointments');
    await card.waitFor();

    // A new customer on a phone, whose app's service worker is installed; pushes for them go to the double.
    const customer = await context({ mobile: true });
    const name = `Kavitha ${Math.random().toString(36).slice(2, 6)}`;
    await post(customer, '/_api/auth/register_with_password', {
      email: uniqueEmail('appointment'),
      password: 'Secret#2026',
      displayName: name,
    });
    const customerSub = push.subscriber();
    await subscribe(customer, customerSub);
    // The browser stays open on another tab (as a phone's browser does): the DevTools session lives there.
    const blank = await customer.newPage();
    const page = await customer.newPage();
    await page.goto(STORE);
    await page.getByRole('heading', { name: SHOP, level: 1 }).waitFor();
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await customer.newCDPSession(blank);
    const regId = await registrationId(cdp);
    const handed: AppointmentPush[] = [];
    const receivedAt = new Map<AppointmentPush, number>();
    // Each push handed into the worker, with what the browser answered (a failed hand-over is reported).
    const deliveries: Promise<string>[] = [];
    push.onPush = (p) => {
      if (p.subscriptionId !== customerSub.id) return;
      handed.push(p.payload as AppointmentPush);
      receivedAt.set(p.payload as AppointmentPush, p.receivedAt);
      deliveries.push(deliver(cdp, regId, p.payload));
    };

    // The slot picker offers the first slot at the opening minute; the customer books it.
    const { slots } = await get<SlotsResponse>(
      customer,
      `/_api/appointments/slots?sellerId=${await sellerId(customer)}`,
    );
    expect(Date.parse(slots[0].startsAt)).toBe(opens);
    await page.getByRole('button', { name: 'Book a video appointment' }).click();
    const picker = page.getByRole('dialog', { name: 'Book a video appointment' });
    await picker.waitFor();
    // The slot reads on the locale's own clock ("11:44 pm" in en-IN, §20.5), as the page's browser writes it.
    const time = await page.evaluate(
      ([ms, opts]) => new Intl.DateTimeFormat('en-IN', opts).format(new Date(ms)),
      [opens, TIME_OF_DAY] as const,
    );
    expect(time).toMatch(/^\d{1,2}:\d{2}\s?[ap]m$/i);
    await picker.getByRole('button', { name: time, exact: true }).click();
    await expectAccessible(page, 'slot picker (360 px)');
    await picker
      .getByRole('button', { name: new RegExp(`^Book .*${time.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
      .click();
    await picker.getByTestId('appointment-booked').getByText(`with ${SHOP}`).waitFor();
    const [booked] = (await get<{ appointments: Appointment[] }>(customer, '/_api/appointments/mine'))
      .appointments;
    expect(booked).toMatchObject({
      status: 'booked',
      startsAt: new Date(opens).toISOString(),
      startable: false,
    });
    // The jeweller is told at once: the dashboard lists it (event stream; its list's own refresh is every 60 s,
    // so 15 s tells the two apart) and the booking is pushed.
    await card.locator(`[data-appointment-id="${booked.id}"]`).getByText(name).waitFor({ timeout: 15_000 });
    await push.waitFor(1, 20_000);

    // The customer closes the app. The reminder is the server's: due 15 minutes before the start. The server
    // restarts with its clock 12 s short of that moment (rather than the test waiting out the minute or two
    // to it), so the reminder is not due when it comes up, and is due a poll or two later.
    await page.close();
    const remindAt = opens - 15 * MINUTE;
    await stopServer();
    const offsetAt = Date.now();
    const offset = remindAt - 12_000 - offsetAt;
    await startServer(offset);
    // Due 12 s after offsetAt (or as soon as the server is up, if it took longer to start); the job table looks
    // every 5 s (JOB_POLL_MS), then the push goes out: it reaches the push service within the poll plus 5 s.
    const reminderBy = Math.max(offsetAt + 12_000, Date.now()) + 5000 + 5000;
    const reminder = await waitForPush(handed, booked.id, 'reminder', reminderBy - Date.now());
    // Not early: the push service received it at or after the reminder's time, on the server's clock.
    expect(receivedAt.get(reminder)! + offset).toBeGreaterThanOrEqual(remindAt);
    expect(reminder).toMatchObject({ otherName: SHOP, side: 'customer', startsAt: booked.startsAt });
    // Delivered into the real service worker with no page of the app open: it shows the notification.
    expect(await Promise.all(deliveries)).toEqual(deliveries.map(() => 'delivered'));
    await expect
      .poll(async () => shownNotifications(await serviceWorker(customer), `appointment-${booked.id}`), {
        timeout: 20_000,
      })
      .toEqual([
        {
          title: 'Video appointment',
          body: expect.stringContaining(`Your video appointment with ${SHOP} starts at`) as string,
          data: expect.objectContaining({ url: '/call-history' }) as object,
        },
      ]);
    // Exactly one reminder for each side.
    expect(handed.filter((p) => p.appointmentId === booked.id && p.notice === 'reminder')).toHaveLength(1);

    // The time comes: the server restarts with its clock at the start; the job table sends the start notice.
    await stopServer();
    await startServer(opens - Date.now() + 2_000);
    // Due as the server comes up: sent within the job table's 5 s poll plus 5 s.
    const starting = await waitForPush(handed, booked.id, 'starting', 5000 + 5000);
    expect(starting.side).toBe('customer');
    expect(await Promise.all(deliveries)).toEqual(deliveries.map(() => 'delivered'));
    const tag = `appointment-${booked.id}`;
    await expect
      .poll(async () => (await shownNotifications(await serviceWorker(customer), tag))[0]?.body, {
        timeout: 20_000,
      })
      .toContain('is starting now');
    const [note] = await shownNotifications(await serviceWorker(customer), tag);

    // The notification's page (the customer's calls page) has "Start call"; it rings the jeweller's dashboard.
    await sellerPage.reload();
    await card.waitFor();
    const later = await customer.newPage();
    await later.goto(note.data.url!);
    const mine = later.getByTestId('my-appointments');
    await mine.getByRole('button', { name: 'Start call' }).click();
    const ringing = sellerPage.getByRole('alertdialog');
    await ringing.waitFor({ timeout: 30_000 });
    await ringing.getByText(name).waitFor();
    await ringing.getByRole('button', { name: 'Accept' }).click();
    await Promise.all([remoteVideoPlays(sellerPage), remoteVideoPlays(later)]);

    await sellerPage.getByRole('button', { name: 'End call' }).click();
    await later.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 20_000 });
    await cdp.detach().catch(() => undefined);
    await customer.close();
    await seller.close();
  }, 600_000);
});

describe('after a declined call (issue #22)', () => {
  it('the call-ended dialog offers "Book a video appointment" beside the call-back request', async () => {
    const seller = await context();
    await post(seller, '/_api/auth/login_with_password', {
      email: DEMO_ACCOUNTS.seller,
      password: DEMO_PASSWORD,
    });
    await post(seller, '/_api/seller/hours', {
      timeZone: ZONE,
      hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })),
      away: false,
      awayMessage: null,
    });
    const sellerPage = await seller.newPage();
    await sellerPage.goto('/seller/dashboard');
    await sellerPage.getByTestId('shop-appointments').waitFor();

    const customer = await context({ mobile: true });
    await post(customer, '/_api/auth/register_with_password', {
      email: uniqueEmail('appointment'),
      password: 'Secret#2026',
      displayName: 'Revathi Subramanian',
    });
    const page = await customer.newPage();
    await page.goto(STORE);
    await page.getByRole('heading', { name: SHOP, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Video Call', exact: true }).click();
    const ringing = sellerPage.getByRole('alertdialog');
    await ringing.waitFor({ timeout: 20_000 });
    await ringing.getByRole('button', { name: 'Decline' }).click();

    const ended = page.getByRole('dialog', { name: 'The call did not go through' });
    await ended.getByRole('button', { name: 'Request a call-back' }).waitFor();
    await expectAccessible(page, 'declined call with its next steps (360 px)');
    await ended.getByRole('button', { name: 'Book a video appointment' }).click();
    await ended.waitFor({ state: 'detached' });
    const picker = page.getByRole('dialog', { name: 'Book a video appointment' });
    const first = picker.getByRole('group', { name: 'Time' }).getByRole('button').first();
    await first.click();
    await picker.getByRole('button', { name: /^Book / }).click();
    await picker.getByTestId('appointment-booked').getByText(`with ${SHOP}`).waitFor();
    const mine = await get<{ appointments: Appointment[] }>(customer, '/_api/appointments/mine');
    expect(mine.appointments.map((a) => a.status)).toEqual(['booked']);
    await customer.close();
    await seller.close();
  }, 240_000);
});

async function sellerId(c: BrowserContext): Promise<number> {
  const store = await get<StoreResponse>(c, `/_api/seller/store?slug=${STORE.slice(1)}`);
  return store.sellerProfile.sellerId;
}

async function waitForPush(
  handed: AppointmentPush[],
  appointmentId: number,
  notice: AppointmentPush['notice'],
  timeoutMs: number,
): Promise<AppointmentPush> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = handed.find((p) => p.appointmentId === appointmentId && p.notice === notice);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${notice} push for appointment ${appointmentId}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
