import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackRequest } from '../../api/contract/callbacks';
import type {
  CallStatusResponse,
  IncomingCallsResponse,
  InitiateCallResponse,
} from '../../api/contract/calls';
import { buildProduct, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { LocalPushService } from '../support/push-receiver';
import { callParties, signIn } from './calls-support';

/** Issue #22: the jeweller's call-back rings the customer (the reverse direction), in the app and by push. */
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
      VAPID_SUBJECT: 'mailto:ops@nagai.test',
      PUSH_ENDPOINT_HOSTS: new URL(pushService.origin).host,
    },
    pushAgent: pushService.agent,
  });
});
afterAll(async () => {
  await api?.close();
  await pushService?.stop();
});

describe('the reverse call (a jeweller calls back)', () => {
  it('rings the customer (poll and push), who accepts; the jeweller offers, the customer answers', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Kasu mala' });
    // Both have a push subscription: the jeweller is told of the request, the customer rung by the call-back.
    const sellerSub = pushService.subscriber();
    const customerSub = pushService.subscriber();
    for (const [client, sub] of [
      [p.asSeller, sellerSub],
      [p.asCustomer, customerSub],
    ] as const)
      expect(
        (await client.post('/_api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys })).status,
      ).toBe(201);
    // Nothing rings a customer without a call-back; the route is the customer's alone.
    expect((await p.asCustomer.get<IncomingCallsResponse>('/_api/callbacks/ringing')).body.calls).toEqual([]);
    expect((await p.asSeller.get('/_api/callbacks/ringing')).status).toBe(403);

    const before = pushService.received.length;
    const req = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      productId: product.id,
      window: 'now',
    });
    expect(req.status).toBe(201);
    await pushService.waitFor(before + 1);
    const toSeller = pushService.received.at(-1)!;
    expect(toSeller.subscriptionId).toBe(sellerSub.id);
    expect(toSeller.payload).toMatchObject({
      type: 'callback-request',
      requestId: req.body.id,
      customerName: p.customer.displayName,
      productName: 'Kasu mala',
    });

    const back = await p.asSeller.post<InitiateCallResponse>('/_api/callbacks/call', {
      requestId: req.body.id,
    });
    expect(back.status).toBe(201);
    const callId = back.body.callId;
    await pushService.waitFor(before + 2);
    const toCustomer = pushService.received.at(-1)!;
    expect(toCustomer.subscriptionId).toBe(customerSub.id);
    expect(toCustomer.payload).toMatchObject({
      type: 'incoming-call',
      callId,
      callerName: p.seller.shopName,
      productName: 'Kasu mala',
      callBack: true,
    });

    // The customer's fallback poll shows the shop ringing, about the product, and marks the call ringing.
    const ringing = await p.asCustomer.get<IncomingCallsResponse>('/_api/callbacks/ringing');
    expect(ringing.body.calls).toHaveLength(1);
    expect(ringing.body.calls[0]).toMatchObject({
      callId,
      callBack: true,
      caller: { id: p.seller.id, displayName: p.seller.shopName },
      product: { id: product.id, name: 'Kasu mala' },
    });
    expect((await api.db.knex('calls').where('id', callId).first('status')).status).toBe('ringing');

    // Who answers (isIncoming) is the customer; who offers the video is the jeweller. Names stay the other side.
    const asSeller = await p.asSeller.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    const asCustomer = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(asSeller.body).toMatchObject({ isIncoming: false, participantId: p.customer.id });
    expect(asCustomer.body).toMatchObject({
      isIncoming: true,
      participantId: p.seller.id,
      participantName: p.seller.shopName,
    });

    // A third user can neither see nor answer it.
    const stranger = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    expect((await stranger.post('/_api/call/respond', { callId, response: 'accept' })).status).toBe(404);
    expect((await stranger.get(`/_api/call/status?callId=${callId}`)).status).toBe(404);

    const accepted = await p.asCustomer.post('/_api/call/respond', { callId, response: 'accept' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ call: { id: callId, status: 'active' } });
    expect((await p.asCustomer.get<IncomingCallsResponse>('/_api/callbacks/ringing')).body.calls).toEqual([]);
    const history = await p.asCustomer.get<{ calls: { callId: number; isIncoming: boolean }[] }>(
      '/_api/calls/history',
    );
    expect(history.body.calls.find((c) => c.callId === callId)).toMatchObject({ isIncoming: true });
    expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
  });

  it('the seller cannot ring a customer without an open request', async () => {
    const p = await callParties(api);
    // A seller cannot place an ordinary call at all, and a call-back needs an open request of their own.
    expect((await p.asSeller.post('/_api/call/initiate', { sellerId: p.seller.id })).status).toBe(403);
    expect((await p.asSeller.post('/_api/callbacks/call', { requestId: 999_999 })).status).toBe(404);
    const req = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'today',
    });
    expect((await p.asCustomer.post('/_api/callbacks/withdraw', { requestId: req.body.id })).status).toBe(
      200,
    );
    const closed = await p.asSeller.post('/_api/callbacks/call', { requestId: req.body.id });
    expect(closed.status).toBe(409);
    expect(await api.db.knex('calls').where({ caller_id: p.customer.id, direction: 'to_customer' })).toEqual(
      [],
    );
  });

  it('"Call back" on a declined call opens a request for the customer (or uses the open one) and rings them', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Jhumka' });
    const placed = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
      sellerId: p.seller.id,
      productId: product.id,
    });
    // Only a missed or declined call of the jeweller's own can be called back this way.
    expect(
      (await p.asSeller.post('/_api/callbacks/call-missed', { callId: placed.body.callId })).status,
    ).toBe(404);
    await p.asSeller.post('/_api/call/respond', { callId: placed.body.callId, response: 'decline' });
    const other = await callParties(api);
    expect(
      (await other.asSeller.post('/_api/callbacks/call-missed', { callId: placed.body.callId })).status,
    ).toBe(404);
    expect(
      (await p.asCustomer.post('/_api/callbacks/call-missed', { callId: placed.body.callId })).status,
    ).toBe(403);

    const back = await p.asSeller.post<InitiateCallResponse>('/_api/callbacks/call-missed', {
      callId: placed.body.callId,
    });
    expect(back.status).toBe(201);
    const requests = (await api.db.knex('callback_requests').where({ customer_id: p.customer.id })) as {
      id: number;
      from_call_id: number;
      product_id: number;
      status: string;
    }[];
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      from_call_id: placed.body.callId,
      product_id: product.id,
      status: 'open',
    });
    const ringing = await p.asCustomer.get<IncomingCallsResponse>('/_api/callbacks/ringing');
    expect(ringing.body.calls.map((c) => c.callId)).toEqual([back.body.callId]);
    // Declined again: the request stays open, and the next "Call back" uses it rather than opening another.
    await p.asCustomer.post('/_api/call/respond', { callId: back.body.callId, response: 'decline' });
    const again = await p.asSeller.post<InitiateCallResponse>('/_api/callbacks/call-missed', {
      callId: placed.body.callId,
    });
    expect(again.status).toBe(201);
    expect(
      Number(
        (
          (await api.db
            .knex('callback_requests')
            .where({ customer_id: p.customer.id })
            .count('* as n')
            .first()) as {
            n: string | number;
          }
        ).n,
      ),
    ).toBe(1);
    await p.asSeller.post('/_api/call/end', { callId: again.body.callId });
  });
});
