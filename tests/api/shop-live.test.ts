import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { HoldResponse } from '../../api/contract/call-selling';
import type { CallStateEvent, ShopEvent } from '../../api/contract/events';
import { formatInr } from '../../api/contract/money';
import { buildProduct } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { LocalPushService } from '../support/push-receiver';
import { EventStreamReader } from '../support/sse';
import { activeCall, callParties, markAppOpen, placeCall } from './calls-support';
import { checkoutBody, payOnline, postCheckout } from './checkout-support';

/**
 * The jeweller's live dashboard and paid-order notice (issue #48, docs/product-rules.md "Payments and the live
 * dashboard"): a call-back request, a hold and a paid order each reach the jeweller's open event stream as a
 * 'shop' event (a missed call as its 'call' event); a paid order also reaches the jeweller's phone by push and,
 * where the jeweller opted in, by SMS.
 */
const HOUR = 3_600_000;
const IST_OFFSET = 5.5 * HOUR;
const keys = webpush.generateVAPIDKeys();

let pushService: LocalPushService;
let api: TestApi;
beforeAll(async () => {
  pushService = new LocalPushService();
  await pushService.start();
  api = await startTestApi({
    env: {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      PUSH_ENDPOINT_HOSTS: new URL(pushService.origin).host,
    },
    pushAgent: pushService.agent,
  });
  // Noon in India, outside the notices' quiet hours, whenever the suite runs.
  const ist = api.clock.now().getTime() + IST_OFFSET;
  const dayStart = ist - (ist % (24 * HOUR));
  let noon = dayStart + 12 * HOUR;
  if (noon <= ist) noon += 24 * HOUR;
  api.clock.advance(noon - ist);
});
afterAll(async () => {
  await api?.close();
  await pushService?.stop();
});

const isShop = (pred: (d: ShopEvent) => boolean) => (e: { event: string; data: unknown }) =>
  e.event === 'shop' && pred(e.data as ShopEvent);

describe("the jeweller's live dashboard", () => {
  it('tells the open stream of a missed call, a call-back request and a hold, and nobody else', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { stockQuantity: 3 });
    const stream = await EventStreamReader.open(p.asSeller);
    onTestFinished(() => stream.close());
    await stream.waitFor((e) => e.event === 'hello');
    const customerStream = await EventStreamReader.open(p.asCustomer);
    onTestFinished(() => customerStream.close());
    await customerStream.waitFor((e) => e.event === 'hello');

    // A call the jeweller does not answer: missed when the ring times out.
    const missedId = await placeCall(p);
    api.clock.advance(api.handle.deps.config.callRingTimeoutMs + 1_000);
    await api.handle.background.runNow('calls:expire');
    await stream.waitFor(
      (e) =>
        e.event === 'call' &&
        (e.data as CallStateEvent).callId === missedId &&
        (e.data as CallStateEvent).status === 'missed',
    );

    const request = await p.asCustomer.post<{ id: number }>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'today',
    });
    expect(request.status).toBe(201);
    const callback = await stream.waitFor(isShop((d) => d.what === 'callback'));
    expect(callback.data).toEqual({ what: 'callback', requestId: request.body.id } satisfies ShopEvent);

    // The clock moved past the app's online window: the jeweller's app is open again for the next call.
    await markAppOpen(api, p.seller.id);
    const callId = await activeCall(p);
    expect((await p.asSeller.post('/_api/call/share', { callId, productIds: [product.id] })).status).toBe(
      201,
    );
    const hold = await p.asCustomer.post<HoldResponse>('/_api/holds', { callId, productId: product.id });
    expect(hold.status).toBe(201);
    const held = await stream.waitFor(isShop((d) => d.what === 'hold'));
    expect(held.data).toEqual({
      what: 'hold',
      holdId: hold.body.hold.id,
      productId: product.id,
    } satisfies ShopEvent);

    // The customer's own stream carries no shop events.
    expect(customerStream.events.filter((e) => e.event === 'shop')).toEqual([]);
  });

  it('a paid order reaches the open dashboard, the push subscriptions and (opted in) the SMS of its jeweller', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { price: '1712.58', stockQuantity: 5 });
    // The jeweller opted in to notices on a verified mobile, and took push on a phone.
    const mobile = `+9197${String(Date.now() % 1e8).padStart(8, '0')}`;
    await api.db.knex('users').where({ id: p.seller.id }).update({ mobile, mobile_verified_at: new Date() });
    expect((await p.asSeller.post('/_api/user/notices', { notices: true })).body).toMatchObject({
      notices: true,
    });
    const sub = pushService.subscriber();
    expect(
      (
        await p.asSeller.post('/_api/push/subscribe', {
          endpoint: sub.endpoint,
          keys: sub.keys,
          locale: 'en',
        })
      ).status,
    ).toBe(201);
    const stream = await EventStreamReader.open(p.asSeller);
    onTestFinished(() => stream.close());
    await stream.waitFor((e) => e.event === 'hello');
    const before = pushService.received.length;

    expect((await p.asCustomer.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(
      200,
    );
    const placed = await postCheckout(
      p.asCustomer,
      checkoutBody({ paymentMethod: 'upi', customerName: 'Kavya Iyer' }),
    );
    expect(placed.status).toBe(201);
    const order = placed.body.orders[0];
    const amountPaise = Math.round(Number(order.totalAmount) * 100);
    // Placed but unpaid: nothing yet.
    expect(stream.events.filter((e) => e.event === 'shop')).toEqual([]);
    expect((await payOnline(api, p.asCustomer, placed.body.payment!)).verify?.status).toBe(200);

    const paid = await stream.waitFor(isShop((d) => d.what === 'order-paid'));
    expect(paid.data).toEqual({ what: 'order-paid', orderId: order.id, amountPaise } satisfies ShopEvent);

    await pushService.waitFor(before + 1);
    const push = pushService.received.slice(before).find((r) => r.subscriptionId === sub.id)!;
    expect(push.payload).toEqual({
      type: 'order-paid',
      orderId: order.id,
      customerName: 'Kavya Iyer',
      amount: formatInr(amountPaise / 100),
      locale: 'en',
    });

    await api.handle.background.runNow('schedule:jobs');
    const sms = (await api.handle.deps.sms!.double())!.messages
      .filter((m) => m.to === mobile)
      .map((m) => m.body);
    expect(sms).toEqual([
      `Nagai: new paid order #${order.id} from Kavya Iyer, ${formatInr(amountPaise / 100)}. Open Nagai to confirm it. Reply STOP to end these messages.`,
    ]);
    // One notice per order, sent once.
    await api.handle.background.runNow('schedule:jobs');
    expect(
      await api.db.knex('notices').where({ user_id: p.seller.id, kind: 'shop_order_paid' }).pluck('state'),
    ).toEqual(['sent']);
    expect((await api.handle.deps.sms!.double())!.messages.filter((m) => m.to === mobile)).toHaveLength(1);
  });
});
