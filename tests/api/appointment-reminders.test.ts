import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Appointment, SlotsResponse } from '../../api/contract/appointments';
import type { AppointmentPush } from '../../api/contract/push';
import { loadConfig } from '../../api/src/config';
import { buildSeller, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { LocalPushService, type FakeSubscriber } from '../support/push-receiver';
import { signIn } from './calls-support';

/**
 * The job table (issue #22): an appointment's reminder 15 minutes before and its start go out once, by push and
 * in the app (the event log), from the server alone — with two API instances polling one database, and across
 * a restart (the jobs are rows, not timers).
 */
const keys = webpush.generateVAPIDKeys();
const MINUTE = 60_000;
let pushService: LocalPushService;
let db: TestDatabase;
const apps: TestApi[] = [];

/** An API instance on the shared database (closing it leaves the database to the others). */
async function instance(): Promise<TestApi> {
  const api = await startTestApi({
    db: { ...db, close: async () => undefined },
    env: {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@nagai.test',
      PUSH_ENDPOINT_HOSTS: new URL(pushService.origin).host,
    },
    pushAgent: pushService.agent,
  });
  apps.push(api);
  return api;
}

beforeAll(async () => {
  pushService = new LocalPushService();
  await pushService.start();
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const a of apps) await a.close();
  await db?.close();
  await pushService?.stop();
});

const noticesTo = (sub: FakeSubscriber, ids: readonly number[]) =>
  pushService.received
    .filter((r) => r.subscriptionId === sub.id)
    .map((r) => r.payload as AppointmentPush)
    .filter((p) => p.type === 'appointment' && ids.includes(p.appointmentId) && p.notice !== 'booked')
    .map((p) => `${p.appointmentId}:${p.notice}`)
    .sort();

async function inAppNotices(ids: readonly number[]): Promise<string[]> {
  const rows = (await db
    .knex('call_events')
    .where('kind', 'appointment')
    .whereIn('appointment_id', ids)
    .select('user_id', 'appointment_id', 'payload')) as {
    user_id: number;
    appointment_id: number;
    payload: { notice: string };
  }[];
  return rows
    .filter((r) => r.payload.notice !== 'booked')
    .map((r) => `${r.user_id}:${r.appointment_id}:${r.payload.notice}`)
    .sort();
}

/** Books `n` appointments at the same time, each with its own shop; everyone has a push subscription. */
async function book(api: TestApi, n: number) {
  const booked: {
    appointment: Appointment;
    customerId: number;
    sellerId: number;
    sub: FakeSubscriber;
    sellerSub: FakeSubscriber;
  }[] = [];
  let startsAt: string | undefined;
  for (let i = 0; i < n; i++) {
    const seller = await buildSeller(db.knex);
    const customer = await buildUser(db.knex, { role: 'customer' });
    const [asSeller, client] = [await signIn(api, seller), await signIn(api, customer)];
    const [sellerSub, sub] = [pushService.subscriber(), pushService.subscriber()];
    await asSeller.post('/_api/push/subscribe', { endpoint: sellerSub.endpoint, keys: sellerSub.keys });
    await client.post('/_api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys });
    // A slot over an hour ahead, so the 15-minute reminder is scheduled.
    startsAt ??= (await client.get<SlotsResponse>(`/_api/appointments/slots?sellerId=${seller.id}`)).body
      .slots[3].startsAt;
    const res = await client.post<Appointment>('/_api/appointments/book', { sellerId: seller.id, startsAt });
    expect(res.status).toBe(201);
    booked.push({ appointment: res.body, customerId: customer.id, sellerId: seller.id, sub, sellerSub });
  }
  return booked;
}

/** Moves every instance's clock to `at`. */
const setClocks = (at: number) => {
  for (const a of apps) a.clock.advance(at - a.clock.now().getTime());
};

describe('reminders from the job table', () => {
  it('two instances polling together send each reminder and start notice exactly once', async () => {
    const a = await instance();
    const b = await instance();
    const booked = await book(a, 3);
    const ids = booked.map((x) => x.appointment.id);
    const start = Date.parse(booked[0].appointment.startsAt);
    const both = (notice: string) =>
      booked
        .flatMap((x) => [
          `${x.customerId}:${x.appointment.id}:${notice}`,
          `${x.sellerId}:${x.appointment.id}:${notice}`,
        ])
        .sort();

    // Nothing is due yet.
    await Promise.all([
      a.handle.background.runNow('schedule:jobs'),
      b.handle.background.runNow('schedule:jobs'),
    ]);
    expect(await inAppNotices(ids)).toEqual([]);

    // 15 minutes before the start, the three reminders are due: both instances poll at once, twice.
    setClocks(start - 15 * MINUTE);
    await Promise.all([
      a.handle.background.runNow('schedule:jobs'),
      b.handle.background.runNow('schedule:jobs'),
      a.handle.background.runNow('schedule:jobs'),
      b.handle.background.runNow('schedule:jobs'),
    ]);
    expect(await inAppNotices(ids)).toEqual(both('reminder'));
    // And by push, once to each side.
    for (const x of booked) {
      await expect.poll(() => noticesTo(x.sub, [x.appointment.id])).toEqual([`${x.appointment.id}:reminder`]);
      await expect
        .poll(() => noticesTo(x.sellerSub, [x.appointment.id]))
        .toEqual([`${x.appointment.id}:reminder`]);
    }
    const reminder = pushService.received
      .map((r) => r.payload as AppointmentPush)
      .find((p) => p.type === 'appointment' && p.appointmentId === ids[0] && p.notice === 'reminder');
    expect(reminder).toMatchObject({
      startsAt: booked[0].appointment.startsAt,
      otherName: expect.any(String),
    });

    // At the start, the 'starting' notices go out once more; polling again sends nothing new.
    setClocks(start);
    await Promise.all([
      a.handle.background.runNow('schedule:jobs'),
      b.handle.background.runNow('schedule:jobs'),
    ]);
    await Promise.all([
      a.handle.background.runNow('schedule:jobs'),
      b.handle.background.runNow('schedule:jobs'),
    ]);
    expect((await inAppNotices(ids)).filter((n) => n.endsWith(':starting'))).toEqual(both('starting'));
    for (const x of booked)
      await expect
        .poll(() => noticesTo(x.sub, [x.appointment.id]))
        .toEqual([`${x.appointment.id}:reminder`, `${x.appointment.id}:starting`]);
    const jobs = (await db.knex('jobs').whereIn('appointment_id', ids).where('state', 'done')) as {
      attempts: number;
    }[];
    expect(jobs.every((j) => j.attempts === 1)).toBe(true);
    expect(jobs).toHaveLength(6);
  });

  it('a restart loses nothing: jobs due while no process ran go out once from the next one', async () => {
    const a = await instance();
    const [{ appointment, customerId, sub }] = await book(a, 1);
    const start = Date.parse(appointment.startsAt);
    // The instance stops before anything is due (its timers and streams end; the rows stay).
    await a.close();
    apps.splice(apps.indexOf(a), 1);
    // A new process starts after the reminder time and the start have both passed.
    const b = await instance();
    b.clock.advance(start + MINUTE - b.clock.now().getTime());
    b.handle.background.start();
    await expect
      .poll(async () => inAppNotices([appointment.id]), { timeout: 15_000, interval: 200 })
      .toHaveLength(4);
    await b.handle.background.stop();
    expect((await inAppNotices([appointment.id])).filter((n) => n.startsWith(`${customerId}:`))).toEqual([
      `${customerId}:${appointment.id}:reminder`,
      `${customerId}:${appointment.id}:starting`,
    ]);
    await expect
      .poll(() => noticesTo(sub, [appointment.id]))
      .toEqual([`${appointment.id}:reminder`, `${appointment.id}:starting`]);
    // At its end, with no call, it expires (once).
    b.clock.advance(Date.parse(appointment.endsAt) - b.clock.now().getTime());
    await b.handle.background.runNow('schedule:jobs');
    expect(await db.knex('appointments').where('id', appointment.id).first('status')).toEqual({
      status: 'expired',
    });
  });
});

describe('CLOCK_OFFSET_MS (the browser test of reminders runs its server clock ahead)', () => {
  it('is read outside production and refused in production', () => {
    expect(loadConfig({ NODE_ENV: 'test', CLOCK_OFFSET_MS: '900000' }).clockOffsetMs).toBe(900_000);
    expect(loadConfig({ NODE_ENV: 'test' }).clockOffsetMs).toBe(0);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PAN_ENCRYPTION_KEY: 'e2'.repeat(32), CLOCK_OFFSET_MS: '1' }),
    ).toThrow(/CLOCK_OFFSET_MS: a test setting, refused in production/);
  });
});
