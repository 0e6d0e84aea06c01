import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TwilioDouble } from '../../api/src/doubles/twilio-double';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, postCheckout, razorpayDouble, signIn } from './checkout-support';

/**
 * Signed webhooks replayed (issue #46 item 10, docs/security.md): a request captured with its valid signature
 * and sent again later is answered 200 and acts no more. Twilio's inbound messages count once per MessageSid
 * (a signed parameter); Razorpay's events once per signed body, whatever X-Razorpay-Event-Id (unsigned) says.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

let seq = 0;
/** A customer with a verified mobile who turned notices on in the profile. */
async function optedIn() {
  const user = await buildUser(api.db.knex, { role: 'customer' });
  const mobile = `+917${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
  await api.db.knex('users').where({ id: user.id }).update({ mobile, mobile_verified_at: new Date() });
  const client = await signIn(api, user);
  expect((await client.post('/_api/user/notices', { notices: true })).body).toMatchObject({ notices: true });
  return { user, mobile, client };
}

const twilio = async (): Promise<TwilioDouble> => (await api.handle.deps.sms!.double())!;
const consentsOf = async (userId: number) =>
  (await api.db.knex('notice_consents').where({ user_id: userId }).orderBy('id')).map(
    (c: { granted: boolean; source: string }) => [c.granted, c.source],
  );

describe('a signed Twilio message replayed', () => {
  it('a START captured earlier and replayed after the person’s STOP leaves the notices off', async () => {
    const person = await optedIn();
    const double = await twilio();
    expect(await double.receive(person.mobile, 'STOP')).toBe(200);
    expect(await double.receive(person.mobile, 'START')).toBe(200);
    const start = double.inbound.at(-1)!;
    expect(start.params.Body).toBe('START');
    expect(await double.receive(person.mobile, 'STOP')).toBe(200);
    expect((await person.client.get('/_api/user/notices')).body).toMatchObject({ notices: false });

    // The captured START, its signature intact, sent again: answered 200 (Twilio must not retry), no effect.
    expect(await double.redeliver(start)).toBe(200);
    expect(await double.redeliver(start)).toBe(200);
    expect((await person.client.get('/_api/user/notices')).body).toMatchObject({ notices: false });
    expect(await consentsOf(person.user.id)).toEqual([
      [true, 'profile'],
      [false, 'sms_stop'],
      [true, 'sms_start'],
      [false, 'sms_stop'],
    ]);
  });

  it('a STOP replayed after the person’s START leaves the notices on', async () => {
    const person = await optedIn();
    const double = await twilio();
    expect(await double.receive(person.mobile, 'stop')).toBe(200);
    const stop = double.inbound.at(-1)!;
    expect(await double.receive(person.mobile, 'start')).toBe(200);
    expect((await person.client.get('/_api/user/notices')).body).toMatchObject({ notices: true });

    expect(await double.redeliver(stop)).toBe(200);
    expect((await person.client.get('/_api/user/notices')).body).toMatchObject({ notices: true });
    expect(await consentsOf(person.user.id)).toEqual([
      [true, 'profile'],
      [false, 'sms_stop'],
      [true, 'sms_start'],
    ]);
  });

  it('a START that changed nothing when it came (notices on) cannot be replayed after a later STOP', async () => {
    const person = await optedIn();
    const double = await twilio();
    expect(await double.receive(person.mobile, 'START')).toBe(200);
    const start = double.inbound.at(-1)!;
    expect(await double.receive(person.mobile, 'STOP')).toBe(200);
    expect(await double.redeliver(start)).toBe(200);
    expect((await person.client.get('/_api/user/notices')).body).toMatchObject({ notices: false });
  });

  it('a message with another MessageSid is a new message, and acts', async () => {
    const person = await optedIn();
    const double = await twilio();
    expect(await double.receive(person.mobile, 'STOP')).toBe(200);
    expect(await double.receive(person.mobile, 'START')).toBe(200);
    expect(await double.receive(person.mobile, 'STOP')).toBe(200);
    expect(await double.receive(person.mobile, 'START')).toBe(200);
    expect((await person.client.get('/_api/user/notices')).body).toMatchObject({ notices: true });
    expect(await consentsOf(person.user.id)).toHaveLength(5);
  });
});

describe('a signed Razorpay event replayed', () => {
  it('is handled once, even with another X-Razorpay-Event-Id (the header is not signed)', async () => {
    const shop = await buildSeller(api.db.knex);
    const product = await buildProduct(api.db.knex, shop.id, { price: '1800.00', stockQuantity: 5 });
    const c = await newCustomer(api);
    expect((await c.client.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(200);
    const res = await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi' }));
    expect(res.status).toBe(201);
    const gatewayOrderId = res.body.payment!.gatewayOrderId;
    const double = await razorpayDouble(api);
    double.holdWebhooks = true;
    try {
      await double.pay(gatewayOrderId, 'success');
    } finally {
      double.holdWebhooks = false;
    }
    const captured = double.webhooks.find(
      (h) => h.event === 'payment.captured' && h.body.includes(gatewayOrderId),
    )!;
    const send = (eventId: string) =>
      fetch(`${api.url}/webhooks/razorpay`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Razorpay-Signature': captured.signature,
          'X-Razorpay-Event-Id': eventId,
        },
        body: captured.body,
      });
    const first = await send(captured.eventId);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'handled' });
    for (const eventId of ['evt_replayed1', 'evt_replayed2', '']) {
      const again = await send(eventId);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ status: 'duplicate' });
    }
    const ledger = await api.db.knex('ledger_entries').where({ seller_id: shop.id });
    expect(
      ledger.map((e: { kind: string; amount_paise: string | number }) => [e.kind, Number(e.amount_paise)]),
    ).toEqual([['sale', 180_000]]);
    const order = await api.db.knex('orders').where({ id: res.body.orders[0].id }).first('payment_status');
    expect(order).toEqual({ payment_status: 'paid' });
  });
});
