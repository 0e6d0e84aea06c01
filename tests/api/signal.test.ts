import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_MESSAGES, SIGNAL_PAYLOAD_MAX_CHARS, type CallSignalsResponse } from '../../api/contract/calls';
import { sweepCalls } from '../../api/src/features/calls/service';
import { buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { activeCall, callParties, placeCall, signIn } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const offer = { type: 'offer', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n' };

describe('p2p signalling relay', () => {
  it('relays signals to the other participant only, in order, after a cursor', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const sent = await p.asCustomer.post('/_api/call/signal', { callId, kind: 'offer', payload: offer });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ id: expect.any(Number) });
    for (let i = 0; i < 3; i++) {
      const c = await p.asCustomer.post('/_api/call/signal', {
        callId,
        kind: 'candidate',
        payload: { candidate: `candidate:${i}`, sdpMid: '0', sdpMLineIndex: 0 },
      });
      expect(c.status).toBe(201);
    }

    // The sender does not get its own signals back.
    const own = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(own.body).toEqual({ signals: [], status: 'active' });

    const inbox = await p.asSeller.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(inbox.status).toBe(200);
    expect(inbox.body.status).toBe('active');
    expect(inbox.body.signals.map((s) => s.kind)).toEqual(['offer', 'candidate', 'candidate', 'candidate']);
    expect(inbox.body.signals[0]).toEqual({
      id: sent.body.id,
      kind: 'offer',
      payload: offer,
      fromUserId: p.customer.id,
      createdAt: expect.any(String),
    });
    const ids = inbox.body.signals.map((s) => s.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(inbox.body.signals.map((s) => s.payload.candidate)).toEqual([
      undefined,
      'candidate:0',
      'candidate:1',
      'candidate:2',
    ]);

    const after = await p.asSeller.get<CallSignalsResponse>(
      `/_api/call/signals?callId=${callId}&after=${ids[1]}`,
    );
    expect(after.body.signals.map((s) => s.id)).toEqual(ids.slice(2));
    const none = await p.asSeller.get<CallSignalsResponse>(
      `/_api/call/signals?callId=${callId}&after=${ids[3]}`,
    );
    expect(none.body.signals).toEqual([]);

    const answer = await p.asSeller.post('/_api/call/signal', {
      callId,
      kind: 'answer',
      payload: { type: 'answer', sdp: 'v=0' },
    });
    expect(answer.status).toBe(201);
    const back = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(back.body.signals).toMatchObject([{ kind: 'answer', fromUserId: p.seller.id }]);
  });

  it('keeps calls apart', async () => {
    const a = await callParties(api);
    const b = await callParties(api);
    const callA = await activeCall(a);
    const callB = await activeCall(b);
    await a.asCustomer.post('/_api/call/signal', { callId: callA, kind: 'offer', payload: offer });
    expect(
      (await b.asSeller.get<CallSignalsResponse>(`/_api/call/signals?callId=${callB}`)).body.signals,
    ).toEqual([]);
    // A participant of one call cannot read or write another call.
    expect((await b.asSeller.get(`/_api/call/signals?callId=${callA}`)).status).toBe(404);
    expect(
      (await b.asCustomer.post('/_api/call/signal', { callId: callA, kind: 'bye', payload: {} })).status,
    ).toBe(404);
  });

  it('is only for the participants of a live call; while it rings only the caller sends, only its offer', async () => {
    const p = await callParties(api);
    const ringing = await placeCall(p);
    // The one it rings sends nothing before the accept, in any kind.
    for (const kind of ['offer', 'answer', 'candidate', 'bye']) {
      const res = await p.asSeller.post('/_api/call/signal', { callId: ringing, kind, payload: offer });
      expect(res.status, kind).toBe(409);
      expect(res.body).toMatchObject({ error: CALL_MESSAGES.callNotActive, code: 'call_not_active' });
    }
    // The caller neither answers nor hangs up through the relay while it rings.
    for (const kind of ['answer', 'bye']) {
      const res = await p.asCustomer.post('/_api/call/signal', { callId: ringing, kind, payload: {} });
      expect(res.status, kind).toBe(409);
    }
    expect(await api.db.knex('call_signals').where({ call_id: ringing })).toEqual([]);

    await p.asSeller.post('/_api/call/respond', { callId: ringing, response: 'accept' });
    const stranger = await signIn(api, await buildUser(api.db.knex));
    const refused = await stranger.post('/_api/call/signal', {
      callId: ringing,
      kind: 'offer',
      payload: offer,
    });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('Call not found.');
    expect((await stranger.get(`/_api/call/signals?callId=${ringing}`)).status).toBe(404);
    expect((await api.client().get(`/_api/call/signals?callId=${ringing}`)).status).toBe(401);

    await p.asCustomer.post('/_api/call/end', { callId: ringing });
    const late = await p.asSeller.post('/_api/call/signal', { callId: ringing, kind: 'bye', payload: {} });
    expect(late.status).toBe(409);
  });

  it('carries the caller’s offer while the call rings, and the answer with the accept', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const sent = await p.asCustomer.post<{ id: number }>('/_api/call/signal', {
      callId,
      kind: 'offer',
      payload: { sid: 's1', ...offer },
    });
    expect(sent.status).toBe(201);
    const trickled = await p.asCustomer.post('/_api/call/signal', {
      callId,
      kind: 'candidate',
      payload: { sid: 's1', candidate: { candidate: 'candidate:1' } },
    });
    expect(trickled.status).toBe(201);
    // The seller's phone rings: it reads the offer and prepares its answer before picking up.
    await p.asSeller.get('/_api/call/incoming');
    const inbox = await p.asSeller.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(inbox.body.status).toBe('ringing');
    expect(inbox.body.signals.map((s) => [s.kind, s.fromUserId])).toEqual([
      ['offer', p.customer.id],
      ['candidate', p.customer.id],
    ]);
    // The caller finds nothing addressed to it until the accept.
    expect(
      (await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`)).body.signals,
    ).toEqual([]);

    const answer = { sid: 's1', type: 'answer', sdp: 'v=0\r\n' };
    const accepted = await p.asSeller.post('/_api/call/respond', { callId, response: 'accept', answer });
    expect(accepted.status).toBe(200);
    const back = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(back.body.status).toBe('active');
    expect(back.body.signals).toEqual([
      {
        id: expect.any(Number),
        kind: 'answer',
        payload: answer,
        fromUserId: p.seller.id,
        createdAt: expect.any(String),
      },
    ]);
    expect(back.body.signals[0].id).toBeGreaterThan(sent.body.id);
  });

  it('stores no answer with a decline, and none past the ring', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const declined = await p.asSeller.post('/_api/call/respond', {
      callId,
      response: 'decline',
      answer: { sid: 's1', type: 'answer', sdp: 'v=0' },
    });
    expect(declined.status).toBe(200);
    expect(await api.db.knex('call_signals').where({ call_id: callId, from_user_id: p.seller.id })).toEqual(
      [],
    );
    // A call whose ring timed out takes no more offers.
    const q = await callParties(api);
    const late = await placeCall(q);
    await api.db
      .knex('calls')
      .where({ id: late })
      .update({ created_at: new Date(Date.now() - 10 * 60_000) });
    const res = await q.asCustomer.post('/_api/call/signal', { callId: late, kind: 'offer', payload: offer });
    expect(res.status).toBe(409);
    const big = await q.asSeller.post('/_api/call/respond', {
      callId: late,
      response: 'accept',
      answer: { sdp: 'x'.repeat(SIGNAL_PAYLOAD_MAX_CHARS) },
    });
    expect(big.status).toBe(400);
    expect(big.body.error).toBe(CALL_MESSAGES.signalPayloadTooLarge);
  });

  it('lists no signals but the status while the call rings, so the caller learns of the accept', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const pending = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({ signals: [], status: 'pending' });
    await p.asSeller.get('/_api/call/incoming');
    const ringing = await p.asCustomer.get<CallSignalsResponse>(
      `/_api/call/signals?callId=${callId}&after=0`,
    );
    expect(ringing.body).toEqual({ signals: [], status: 'ringing' });
    expect((await p.asSeller.get(`/_api/call/signals?callId=${callId}`)).body).toEqual({
      signals: [],
      status: 'ringing',
    });
    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    const active = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(active.body).toEqual({ signals: [], status: 'active' });
  });

  it('reports an unanswered call as missed once the ring timeout passed, even if only the caller polls', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    await api.db
      .knex('calls')
      .where({ id: callId })
      .update({ created_at: new Date(Date.now() - 10 * 60_000) });
    const res = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(res.body).toEqual({ signals: [], status: 'missed' });
    expect(await api.db.knex('calls').where({ id: callId }).first('status')).toEqual({ status: 'missed' });
  });

  it('validates kind, payload and cursor', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const cases: [unknown, string][] = [
      [{ callId, kind: 'hello', payload: {} }, CALL_MESSAGES.invalidSignalKind],
      [{ callId, kind: 'offer', payload: 'sdp' }, CALL_MESSAGES.invalidSignalPayload],
      [{ callId, kind: 'offer', payload: [1, 2] }, CALL_MESSAGES.invalidSignalPayload],
      [{ callId, kind: 'offer' }, CALL_MESSAGES.invalidSignalPayload],
      [
        { callId, kind: 'offer', payload: { sdp: 'x'.repeat(SIGNAL_PAYLOAD_MAX_CHARS) } },
        CALL_MESSAGES.signalPayloadTooLarge,
      ],
      [{ callId: 0, kind: 'offer', payload: {} }, CALL_MESSAGES.invalidCallId],
    ];
    for (const [body, message] of cases) {
      const res = await p.asCustomer.post('/_api/call/signal', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const bad = await p.asCustomer.get(`/_api/call/signals?callId=${callId}&after=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(CALL_MESSAGES.invalidCursor);
    expect(
      await api.db.knex('call_signals').where({ call_id: callId }).count('* as n').first(),
    ).toMatchObject({
      n: 0,
    });
  });

  it('deletes a call’s signals when it ends, and the sweep clears any left behind', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    await p.asCustomer.post('/_api/call/signal', { callId, kind: 'offer', payload: offer });
    await p.asSeller.post('/_api/call/signal', { callId, kind: 'answer', payload: offer });
    await p.asSeller.post('/_api/call/end', { callId });
    expect(await api.db.knex('call_signals').where({ call_id: callId })).toEqual([]);
    const after = await p.asCustomer.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    expect(after.body).toEqual({ signals: [], status: 'ended' });

    const q = await callParties(api);
    const other = await activeCall(q);
    await q.asCustomer.post('/_api/call/signal', { callId: other, kind: 'offer', payload: offer });
    // A call finished behind the API's back (another process crashed mid-end).
    await api.db.knex('calls').where({ id: other }).update({ status: 'ended', ended_at: new Date() });
    await sweepCalls(api.handle.deps);
    expect(await api.db.knex('call_signals').where({ call_id: other })).toEqual([]);
  });
});
