import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLBACK_MESSAGES,
  type CallbackListResponse,
  type CallbackRequest,
} from '../../api/contract/callbacks';
import type { IncomingCallsResponse, InitiateCallResponse } from '../../api/contract/calls';
import { buildProduct } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { callParties, placeCall, type CallParties } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

async function declinedCall(p: CallParties, productId?: number): Promise<number> {
  const res = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
    sellerId: p.seller.id,
    productId,
  });
  expect(res.status).toBe(201);
  const declined = await p.asSeller.post('/_api/call/respond', {
    callId: res.body.callId,
    response: 'decline',
  });
  expect(declined.status).toBe(200);
  return res.body.callId;
}

describe('call-back requests', () => {
  it('a declined call → a request → the queue → "Call back" rings the customer → answered', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Temple necklace' });
    const callId = await declinedCall(p, product.id);

    const created = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      productId: product.id,
      fromCallId: callId,
      note: '  Is it available in 22K?  ',
      window: 'now',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'open',
      window: 'now',
      note: 'Is it available in 22K?',
      product: { id: product.id, name: 'Temple necklace' },
      shop: { sellerId: p.seller.id, shopName: p.seller.shopName },
      customer: { id: p.customer.id },
      fromCallId: callId,
      answeredCallId: null,
    });
    const again = await p.asCustomer.post('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'today',
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: CALLBACK_MESSAGES.alreadyOpen });

    const queue = await p.asSeller.get<CallbackListResponse>('/_api/callbacks/queue');
    expect(queue.body.openCount).toBe(1);
    expect(queue.body.requests.map((r) => r.id)).toEqual([created.body.id]);
    expect((await p.asCustomer.get('/_api/callbacks/queue')).status).toBe(403);
    const other = await callParties(api);
    expect((await other.asSeller.get<CallbackListResponse>('/_api/callbacks/queue')).body.openCount).toBe(0);
    expect((await other.asSeller.post('/_api/callbacks/call', { requestId: created.body.id })).status).toBe(
      404,
    );

    const back = await p.asSeller.post<InitiateCallResponse>('/_api/callbacks/call', {
      requestId: created.body.id,
    });
    expect(back.status).toBe(201);
    const reverse = back.body.callId;
    const row = (await api.db.knex('calls').where('id', reverse).first()) as Record<string, unknown>;
    // caller_id stays the customer, seller_id the shop: every participant check keeps working.
    expect(row).toMatchObject({
      caller_id: p.customer.id,
      seller_id: p.seller.id,
      direction: 'to_customer',
      product_id: product.id,
      callback_request_id: created.body.id,
    });
    // The ring goes to the customer, and the seller's own poll does not show it as incoming.
    const events = (await api.db.knex('call_events').where({ call_id: reverse, kind: 'incoming' })) as {
      user_id: number;
    }[];
    expect(events.map((e) => e.user_id)).toEqual([p.customer.id]);
    expect((await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toEqual([]);
    // Only the one rung answers: the seller cannot accept their own call-back.
    expect(
      (await p.asSeller.post('/_api/call/respond', { callId: reverse, response: 'accept' })).status,
    ).toBe(404);
    const accepted = await p.asCustomer.post('/_api/call/respond', { callId: reverse, response: 'accept' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ call: { id: reverse, status: 'active' } });

    const mine = await p.asCustomer.get<CallbackListResponse>('/_api/callbacks/mine');
    expect(mine.body.openCount).toBe(0);
    expect(mine.body.requests[0]).toMatchObject({
      id: created.body.id,
      status: 'answered',
      answeredCallId: reverse,
    });
    // Both can end it as with any call.
    expect((await p.asSeller.post('/_api/call/end', { callId: reverse })).status).toBe(200);
  });

  it('a call-back to a customer already on a call is refused; a declined call-back leaves the request open', async () => {
    const p = await callParties(api);
    await declinedCall(p);
    const req = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'today',
    });
    const other = await callParties(api);
    // The customer rings another shop: the call-back must wait.
    await placeCall({ asCustomer: p.asCustomer, seller: other.seller });
    const busy = await p.asSeller.post('/_api/callbacks/call', { requestId: req.body.id });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ error: CALLBACK_MESSAGES.customerBusy });
    await api.db
      .knex('calls')
      .where('caller_id', p.customer.id)
      .whereIn('status', ['pending', 'ringing'])
      .update({
        status: 'ended',
        ended_at: api.clock.now(),
      });
    const back = await p.asSeller.post<InitiateCallResponse>('/_api/callbacks/call', {
      requestId: req.body.id,
    });
    expect(back.status).toBe(201);
    expect(
      (await p.asCustomer.post('/_api/call/respond', { callId: back.body.callId, response: 'decline' }))
        .status,
    ).toBe(200);
    const mine = await p.asCustomer.get<CallbackListResponse>('/_api/callbacks/mine');
    expect(mine.body.requests[0]).toMatchObject({ status: 'open' });
  });

  it('withdrawn and expired requests are closed and say so; a closed one cannot be called back', async () => {
    const p = await callParties(api);
    const req = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'now',
    });
    const withdrawn = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/withdraw', {
      requestId: req.body.id,
    });
    expect(withdrawn.body).toMatchObject({ status: 'withdrawn', closedAt: expect.any(String) });
    expect((await p.asCustomer.post('/_api/callbacks/withdraw', { requestId: req.body.id })).status).toBe(
      409,
    );
    const late = await p.asSeller.post('/_api/callbacks/call', { requestId: req.body.id });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: CALLBACK_MESSAGES.notOpen });

    const soon = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'now',
    });
    expect(soon.status).toBe(201);
    api.clock.advance(2 * 3_600_000 + 1000);
    try {
      const mine = await p.asCustomer.get<CallbackListResponse>('/_api/callbacks/mine');
      expect(mine.body.requests.find((r) => r.id === soon.body.id)).toMatchObject({ status: 'expired' });
      expect((await p.asSeller.post('/_api/callbacks/call', { requestId: soon.body.id })).status).toBe(409);
    } finally {
      api.clock.advance(-(2 * 3_600_000 + 1000));
    }
  });

  it('bounds create → withdraw cycles per shop per day, and keeps withdrawn requests out of the queue (#34)', async () => {
    const p = await callParties(api);
    const notified: number[] = [];
    const listener = (e: { requestId: number }) => notified.push(e.requestId);
    api.handle.deps.hooks.callbackRequested.push(listener);
    try {
      for (let i = 0; i < 3; i++) {
        const req = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
          sellerId: p.seller.id,
          window: 'now',
        });
        expect(req.status).toBe(201);
        expect((await p.asCustomer.post('/_api/callbacks/withdraw', { requestId: req.body.id })).status).toBe(
          200,
        );
      }
      const fourth = await p.asCustomer.post<{ code?: string }>('/_api/callbacks/create', {
        sellerId: p.seller.id,
        window: 'now',
      });
      expect(fourth.status).toBe(429);
      expect(fourth.body.code).toBe('too_many_callbacks');
      expect(notified).toHaveLength(3);
      // The jeweller's queue has none of the withdrawn requests.
      const queue = await p.asSeller.get<CallbackListResponse>('/_api/callbacks/queue');
      expect(queue.body.requests).toEqual([]);
      // Another shop is still reachable, and a day later this one is too.
      const q = await callParties(api);
      expect(
        (await p.asCustomer.post('/_api/callbacks/create', { sellerId: q.seller.id, window: 'now' })).status,
      ).toBe(201);
      api.clock.advance(24 * 3_600_000 + 1000);
      expect(
        (await p.asCustomer.post('/_api/callbacks/create', { sellerId: p.seller.id, window: 'now' })).status,
      ).toBe(201);
    } finally {
      const hooks = api.handle.deps.hooks.callbackRequested;
      hooks.splice(hooks.indexOf(listener), 1);
    }
  });

  it('validates the window: a chosen time is required, in the future and within two weeks', async () => {
    const p = await callParties(api);
    const noTime = await p.asCustomer.post('/_api/callbacks/create', { sellerId: p.seller.id, window: 'at' });
    expect(noTime.status).toBe(400);
    expect(noTime.body).toMatchObject({ error: CALLBACK_MESSAGES.chooseTime });
    const past = await p.asCustomer.post('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'at',
      preferredAt: new Date(api.clock.now().getTime() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({ error: CALLBACK_MESSAGES.timeInPast });
    const at = new Date(api.clock.now().getTime() + 3 * 3_600_000);
    const ok = await p.asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: p.seller.id,
      window: 'at',
      preferredAt: at.toISOString(),
    });
    expect(ok.status).toBe(201);
    expect(ok.body.expiresAt).toBe(new Date(at.getTime() + 2 * 3_600_000).toISOString());
    expect(
      (await p.asSeller.post('/_api/callbacks/create', { sellerId: p.seller.id, window: 'now' })).status,
    ).toBe(403);
  });
});
