import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TwilioDouble } from '../../api/src/doubles/twilio-double';
import { queueNotice } from '../../api/src/features/notices/service';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { checkoutBody, payOnline, postCheckout, signIn } from './checkout-support';

/**
 * Notices off the app (issue #37): queued with the change they tell of, sent from the job table through the
 * Twilio double exactly once while two API instances poll one database, retried after a refusal, stopped by
 * an SMS "STOP", held back in quiet hours (calls excepted) and capped per day.
 */
let db: TestDatabase;
const apps: TestApi[] = [];
let a: TestApi;
let b: TestApi;
const HOUR = 3_600_000;
const IST_OFFSET = 5.5 * HOUR;

/** How far to move a clock from now to the next given hour in India (IST, no daylight saving). */
function untilIstHour(hour: number, from = Date.now()): number {
  const ist = from + IST_OFFSET;
  const dayStart = ist - (ist % (24 * HOUR));
  let target = dayStart + hour * HOUR;
  if (target <= ist) target += 24 * HOUR;
  return target - ist;
}

async function instance(): Promise<TestApi> {
  const api = await startTestApi({
    db: { ...db, close: async () => undefined },
    env: { NOTICES_DAILY_CAP: '3' },
  });
  apps.push(api);
  return api;
}

beforeAll(async () => {
  db = await createTestDatabase();
  a = await instance();
  b = await instance();
  // Both clocks at noon in India, whenever the suite runs.
  const ahead = untilIstHour(12);
  a.clock.advance(ahead);
  b.clock.advance(ahead);
});
afterAll(async () => {
  for (const x of apps) await x.close();
  await db?.close();
});

const doubles = async () => [(await a.handle.deps.sms!.double())!, (await b.handle.deps.sms!.double())!];
/** Every message any instance's double received for a number. */
const messagesTo = async (mobile: string) =>
  (await doubles()).flatMap((d: TwilioDouble) => d.messages.filter((m) => m.to === mobile));

let seq = 0;
/** A customer with a verified mobile who opted in to notices. */
async function optedIn(locale: 'en' | 'ta' = 'en') {
  const user = await buildUser(db.knex, { role: 'customer' });
  const mobile = `+918${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
  await db
    .knex('users')
    .where({ id: user.id })
    .update({ mobile, mobile_verified_at: new Date(), notice_locale: locale });
  const client = await signIn(a, user);
  const res = await client.post('/_api/user/notices', { notices: true });
  expect(res.body).toMatchObject({ notices: true, mobile });
  return { user, mobile, client };
}

const pollBoth = async (times = 2) => {
  for (let i = 0; i < times; i++)
    await Promise.all([
      a.handle.background.runNow('schedule:jobs'),
      b.handle.background.runNow('schedule:jobs'),
    ]);
};

describe('notices off the app', () => {
  it('each order notice reaches the buyer once while two instances poll the job table', async () => {
    const shop = await buildSeller(db.knex);
    const asShop = await signIn(a, shop);
    const product = await buildProduct(db.knex, shop.id, { price: '1500.00', stockQuantity: 50 });
    const buyers = await Promise.all([1, 2, 3, 4].map(() => optedIn()));
    const orderIds: number[] = [];
    for (const buyer of buyers) {
      expect((await buyer.client.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(
        200,
      );
      const res = await postCheckout(buyer.client, checkoutBody({ paymentMethod: 'upi' }));
      expect(res.status).toBe(201);
      const paid = await payOnline(a, buyer.client, res.body.payment!);
      expect(paid.verify?.status).toBe(200);
      orderIds.push(res.body.orders[0].id);
    }
    // Paid, then confirmed and shipped by the shop.
    for (const id of orderIds) {
      expect(
        (await asShop.post('/_api/orders/update-status', { orderId: id, status: 'confirmed' })).status,
      ).toBe(200);
      expect(
        (await asShop.post('/_api/orders/update-status', { orderId: id, status: 'shipped' })).status,
      ).toBe(200);
    }
    await pollBoth(3);
    for (const [i, buyer] of buyers.entries()) {
      const got = (await messagesTo(buyer.mobile)).map((m) => m.body);
      expect(got.sort()).toEqual(
        [
          `Nagai: payment received for your order #${orderIds[i]} from ${shop.shopName}. Reply STOP to end these messages.`,
          `Nagai: your order #${orderIds[i]} from ${shop.shopName} has been shipped. Reply STOP to end these messages.`,
        ].sort(),
      );
    }
    const states = await db
      .knex('notices')
      .whereIn(
        'user_id',
        buyers.map((x) => x.user.id),
      )
      .pluck('state');
    expect(states).toEqual(states.map(() => 'sent'));
  });

  it('a delivered order and a refunded one each reach their buyer once, in Tamil', async () => {
    const shop = await buildSeller(db.knex);
    const asShop = await signIn(b, shop);
    const product = await buildProduct(db.knex, shop.id, { price: '2500.00', stockQuantity: 20 });
    // Two buyers: each gets at most NOTICES_DAILY_CAP (3 here) a day.
    const buyers = [await optedIn('ta'), await optedIn('ta')];
    const orderIds: number[] = [];
    for (const buyer of buyers) {
      expect((await buyer.client.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(
        200,
      );
      const res = await postCheckout(buyer.client, checkoutBody({ paymentMethod: 'upi' }));
      expect(res.status).toBe(201);
      expect((await payOnline(a, buyer.client, res.body.payment!)).verify?.status).toBe(200);
      orderIds.push(res.body.orders[0].id);
    }
    const [delivered, refunded] = orderIds;
    for (const status of ['confirmed', 'shipped', 'delivered'])
      expect((await asShop.post('/_api/orders/update-status', { orderId: delivered, status })).status).toBe(
        200,
      );
    // A paid order the shop cancels is refunded in full.
    expect(
      (
        await asShop.post('/_api/orders/update-status', {
          orderId: refunded,
          status: 'cancelled',
          cancelReason: 'out_of_stock',
        })
      ).status,
    ).toBe(200);
    await pollBoth(3);
    const bodies = async (i: number) => (await messagesTo(buyers[i].mobile)).map((m) => m.body);
    // Paid, shipped and delivered for one; paid and refunded for the other; each once.
    const first = await bodies(0);
    expect(first).toHaveLength(3);
    expect(first.every((body) => body.includes(`#${delivered}`))).toBe(true);
    expect(first.filter((body) => body.includes('வழங்கப்பட்டது'))).toHaveLength(1);
    const second = await bodies(1);
    expect(second).toHaveLength(2);
    expect(
      // With the shop's reason, in the buyer's language (issue #48).
      second.filter(
        (body) =>
          body.includes(`#${refunded}`) &&
          body.includes('திருப்பி அளிக்கப்பட்டது') &&
          body.includes('(கையிருப்பில் இல்லை)'),
      ),
    ).toHaveLength(1);
    const kinds = async (i: number) =>
      (await db
        .knex('notices')
        .where({ user_id: buyers[i].user.id, state: 'sent' })
        .orderBy('kind')
        .pluck('kind')) as string[];
    expect(await kinds(0)).toEqual(['order_delivered', 'order_paid', 'order_shipped']);
    expect(await kinds(1)).toEqual(['order_paid', 'order_refunded']);
  });

  it('a refused message is retried after a wait, and sent once', async () => {
    const buyer = await optedIn('ta');
    const [da] = await doubles();
    da.failNext('POST messages');
    await queueNotice(
      db.knex,
      {
        userId: buyer.user.id,
        kind: 'order_delivered',
        subject: 'order:retry',
        params: { order: 7, shop: 'லட்சுமி' },
      },
      a.clock.now(),
    );
    await a.handle.background.runNow('schedule:jobs');
    expect(await messagesTo(buyer.mobile)).toHaveLength(0);
    expect(await db.knex('notices').where({ user_id: buyer.user.id }).first('state', 'attempts')).toEqual({
      state: 'pending',
      attempts: 1,
    });
    await pollBoth();
    expect(await messagesTo(buyer.mobile)).toHaveLength(0); // not before its wait
    a.clock.advance(31_000);
    b.clock.advance(31_000);
    await pollBoth();
    const got = await messagesTo(buyer.mobile);
    expect(got).toHaveLength(1);
    expect(got[0].body).toContain('#7');
    expect(got[0].body).toContain('வழங்கப்பட்டது');
  });

  it('an SMS "STOP" withdraws the consent (stored with its source) and nothing more is sent', async () => {
    const buyer = await optedIn();
    const [da] = await doubles();
    await queueNotice(
      db.knex,
      {
        userId: buyer.user.id,
        kind: 'order_shipped',
        subject: 'order:stop',
        params: { order: 1, shop: 'X' },
      },
      a.clock.now(),
    );
    expect(await da.receive(buyer.mobile, ' stop ')).toBe(200);
    expect((await buyer.client.get('/_api/user/notices')).body).toMatchObject({ notices: false });
    const consents = await db.knex('notice_consents').where({ user_id: buyer.user.id }).orderBy('id');
    expect(consents.map((c: { granted: boolean; source: string }) => [c.granted, c.source])).toEqual([
      [true, 'profile'],
      [false, 'sms_stop'],
    ]);
    await pollBoth();
    expect(await messagesTo(buyer.mobile)).toHaveLength(0);
    expect(
      await db.knex('notices').where({ user_id: buyer.user.id }).first('state', 'skipped_reason'),
    ).toEqual({
      state: 'skipped',
      skipped_reason: 'opted_out',
    });
    // A forged webhook (no valid signature) changes nothing.
    const forged = await fetch(`${a.url}/webhooks/twilio/sms`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': 'bad' },
      body: new URLSearchParams({ From: buyer.mobile, Body: 'START' }).toString(),
    });
    expect(forged.status).toBe(403);
    expect((await buyer.client.get('/_api/user/notices')).body).toMatchObject({ notices: false });
  });

  it('at most NOTICES_DAILY_CAP notices a day reach one person', async () => {
    const buyer = await optedIn();
    for (let i = 0; i < 4; i++)
      await queueNotice(
        db.knex,
        {
          userId: buyer.user.id,
          kind: 'order_paid',
          subject: `order:cap${i}`,
          params: { order: i, shop: 'X' },
        },
        a.clock.now(),
      );
    await pollBoth();
    expect(await messagesTo(buyer.mobile)).toHaveLength(3);
    const skipped = await db
      .knex('notices')
      .where({ user_id: buyer.user.id, state: 'skipped' })
      .pluck('skipped_reason');
    expect(skipped).toEqual(['daily_cap']);
  });

  it('the daily cap starts again when the person’s day rolls over', async () => {
    const buyer = await optedIn();
    const queue = async (i: number) =>
      queueNotice(
        db.knex,
        {
          userId: buyer.user.id,
          kind: 'order_paid',
          subject: `order:rollover${i}`,
          params: { order: i, shop: 'X' },
        },
        a.clock.now(),
      );
    for (let i = 0; i < 4; i++) await queue(i);
    await pollBoth();
    expect(await messagesTo(buyer.mobile)).toHaveLength(3);
    // Still the same day a few hours on: the cap holds.
    a.clock.advance(3 * HOUR);
    b.clock.advance(3 * HOUR);
    await queue(4);
    await pollBoth();
    expect(await messagesTo(buyer.mobile)).toHaveLength(3);
    // Noon the next day in India (the buyer's time zone): a new day, and notices reach them again.
    const tomorrow = untilIstHour(12, a.clock.now().getTime());
    expect(tomorrow).toBeLessThan(24 * HOUR);
    a.clock.advance(tomorrow);
    b.clock.advance(tomorrow);
    await queue(5);
    await pollBoth();
    const got = (await messagesTo(buyer.mobile)).map((m) => m.body);
    expect(got).toHaveLength(4);
    expect(got.filter((body) => body.includes('#5'))).toHaveLength(1);
    const states = await db
      .knex('notices')
      .where({ user_id: buyer.user.id })
      .orderBy('id')
      .select('subject', 'state', 'skipped_reason');
    expect(states.map((x: { state: string }) => x.state)).toEqual([
      'sent',
      'sent',
      'sent',
      'skipped',
      'skipped',
      'sent',
    ]);
  });

  it('between 21:00 and 09:00 only call notices go out; the others wait until 09:00', async () => {
    const buyer = await optedIn();
    const late = untilIstHour(22, a.clock.now().getTime());
    a.clock.advance(late);
    b.clock.advance(late);
    const now = a.clock.now();
    await queueNotice(
      db.knex,
      {
        userId: buyer.user.id,
        kind: 'order_shipped',
        subject: 'order:night',
        params: { order: 9, shop: 'X' },
      },
      now,
    );
    await queueNotice(
      db.knex,
      {
        userId: buyer.user.id,
        kind: 'callback_soon',
        subject: 'callback:night',
        params: { shop: 'Lakshmi Jewellers' },
      },
      now,
    );
    await pollBoth();
    expect((await messagesTo(buyer.mobile)).map((m) => m.body)).toEqual([
      'Nagai: Lakshmi Jewellers will call you in a few minutes. Keep Nagai open to answer.',
    ]);
    const morning = untilIstHour(9, a.clock.now().getTime());
    a.clock.advance(morning - 60_000);
    b.clock.advance(morning - 60_000);
    await pollBoth();
    expect(await messagesTo(buyer.mobile)).toHaveLength(1); // 08:59
    a.clock.advance(60_000);
    b.clock.advance(60_000);
    await pollBoth();
    const all = (await messagesTo(buyer.mobile)).map((m) => m.body);
    expect(all).toHaveLength(2);
    expect(all.filter((body) => body.includes('#9'))).toHaveLength(1);
  });
});
