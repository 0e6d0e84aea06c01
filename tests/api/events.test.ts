import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { CallSignalsResponse } from '../../api/contract/calls';
import type { CallStateEvent, HelloEvent, IncomingEvent, SignalEvent } from '../../api/contract/events';
import { buildUser, DEFAULT_PASSWORD, login } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { EventStreamReader } from '../support/sse';
import { activeCall, callParties, placeCall, signIn } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

async function open(...args: Parameters<typeof EventStreamReader.open>) {
  const stream = await EventStreamReader.open(...args);
  onTestFinished(() => stream.close());
  return stream;
}

const isEvent =
  (name: string, pred: (d: never) => boolean = () => true) =>
  (e: { event: string; data: unknown }) =>
    e.event === name && pred(e.data as never);

describe('GET /_api/events', () => {
  it('needs a signed-in user', async () => {
    const s = await open(api.client());
    expect(s.status).toBe(401);
  });

  it('refuses a cursor that is not a non-negative integer', async () => {
    const p = await callParties(api);
    expect((await open(p.asSeller, { lastEventId: 'abc' })).status).toBe(400);
    expect((await open(p.asSeller, { lastEventId: '-1' })).status).toBe(400);
  });

  it('starts with hello and carries a call from ring to end to both sides, at once', async () => {
    const p = await callParties(api);
    const seller = await open(p.asSeller);
    const customer = await open(p.asCustomer);
    expect(seller.status).toBe(200);
    await seller.waitFor(isEvent('hello'));
    await customer.waitFor(isEvent('hello'));

    const callId = await placeCall(p);
    const placedAt = Date.now();
    const incoming = await seller.waitFor(isEvent('incoming'), 2000);
    // Stored means rung: the event is on its way by the time the customer's request returns (within 1 s of it,
    // fixed: a ring left to a poll or a timer fails).
    expect(incoming.at - placedAt).toBeLessThan(1000);
    expect(incoming.data).toEqual({
      callId,
      caller: { id: p.customer.id, displayName: p.customer.displayName, avatarUrl: null },
      createdAt: expect.any(String),
      product: null,
    } satisfies IncomingEvent);
    expect(Number(incoming.id)).toBeGreaterThan(0);

    // Delivered to the seller's app: the call rings, and the caller hears of it.
    await customer.waitFor(isEvent('call', (d: CallStateEvent) => d.status === 'ringing'));
    const row = await api.db.knex('calls').where({ id: callId }).first('status', 'ringing_at');
    expect(row.status).toBe('ringing');

    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    const active = (d: CallStateEvent) => d.callId === callId && d.status === 'active';
    const [a1, a2] = await Promise.all([
      customer.waitFor(isEvent('call', active)),
      seller.waitFor(isEvent('call', active)),
    ]);
    expect((a1.data as CallStateEvent).answeredAt).toEqual(expect.any(String));
    expect(a2.id).not.toBe(a1.id);

    const sent = await p.asCustomer.post<{ id: number }>('/_api/call/signal', {
      callId,
      kind: 'offer',
      payload: { sid: 'abc', type: 'offer', sdp: 'v=0' },
    });
    const signal = await seller.waitFor(isEvent('signal'));
    const polled = await p.asSeller.get<CallSignalsResponse>(`/_api/call/signals?callId=${callId}`);
    // The same signal the poll lists, with its call.
    expect(signal.data).toEqual({ ...polled.body.signals[0], callId } satisfies SignalEvent);
    expect((signal.data as SignalEvent).id).toBe(sent.body.id);
    // A signal goes to the other participant only.
    expect(customer.events.some((e) => e.event === 'signal')).toBe(false);

    await p.asCustomer.post('/_api/call/end', { callId });
    const ended = (d: CallStateEvent) => d.callId === callId && d.status === 'ended';
    const e = await seller.waitFor(isEvent('call', ended));
    expect((e.data as CallStateEvent).endReason).toBe('hangup');
    await customer.waitFor(isEvent('call', ended));
  });

  it('a declined and a missed call reach the caller as events', async () => {
    const p = await callParties(api);
    const customer = await open(p.asCustomer);
    await customer.waitFor(isEvent('hello'));
    const declined = await placeCall(p);
    await p.asSeller.post('/_api/call/respond', { callId: declined, response: 'decline' });
    const d = await customer.waitFor(isEvent('call', (x: CallStateEvent) => x.status === 'declined'));
    expect((d.data as CallStateEvent).callId).toBe(declined);

    const missed = await placeCall(p);
    api.clock.advance(api.config.callRingTimeoutMs + 1000);
    await api.handle.background.runNow('calls:expire');
    const m = await customer.waitFor(isEvent('call', (x: CallStateEvent) => x.status === 'missed'));
    expect((m.data as CallStateEvent).callId).toBe(missed);
  });

  it('resumes after the last event id: what was missed comes once, in order', async () => {
    const p = await callParties(api);
    const first = await open(p.asCustomer);
    await first.waitFor(isEvent('hello'));
    const callId = await activeCall(p);
    const seen = await first.waitFor(isEvent('call', (d: CallStateEvent) => d.status === 'active'));
    first.close();

    // While no stream is open, the seller sends three signals and then ends the call.
    for (const n of [1, 2, 3]) {
      await p.asSeller.post('/_api/call/signal', { callId, kind: 'candidate', payload: { n } });
    }
    await p.asSeller.post('/_api/call/end', { callId });

    const resumed = await open(p.asCustomer, { lastEventId: seen.id });
    await resumed.waitFor(isEvent('call', (d: CallStateEvent) => d.status === 'ended'));
    const got = resumed.events.filter((e) => e.event !== 'hello');
    expect(got.map((e) => e.event)).toEqual(['signal', 'signal', 'signal', 'call']);
    expect(got.slice(0, 3).map((e) => (e.data as SignalEvent).payload)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    const ids = got.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Number(seen.id));

    // The same through ?after= (a new EventSource after a fall back to polling).
    const again = await open(p.asCustomer, { after: Number(seen.id) });
    await again.waitFor(isEvent('call', (d: CallStateEvent) => d.status === 'ended'));
    expect(again.events.filter((e) => e.event !== 'hello').map((e) => e.id)).toEqual(got.map((e) => e.id));
  });

  it('a new stream starts after the latest event: nothing old is replayed', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const s = await open(p.asCustomer);
    const hello = await s.waitFor(isEvent('hello'));
    expect((hello.data as HelloEvent).cursor).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    // A fresh event proves the stream delivers: it must be the first thing after hello, with nothing from the
    // ring and the accept (stored before the stream opened) ahead of it, however late they would have come.
    await p.asSeller.post('/_api/call/signal', {
      callId,
      kind: 'answer',
      payload: { sid: 'fresh', type: 'answer', sdp: 'v=0' },
    });
    await s.waitFor(isEvent('signal'), 2000);
    const after = s.events.filter((e) => e.event !== 'hello');
    expect(after.map((e) => e.event)).toEqual(['signal']);
    expect(Number(after[0]!.id)).toBeGreaterThan((hello.data as HelloEvent).cursor);
  });

  it("never carries another user's events", async () => {
    const a = await callParties(api);
    const b = await callParties(api);
    const bSeller = await open(b.asSeller);
    const bCustomer = await open(b.asCustomer);
    await Promise.all([bSeller.waitFor(isEvent('hello')), bCustomer.waitFor(isEvent('hello'))]);
    const aSeller = await open(a.asSeller);
    await aSeller.waitFor(isEvent('hello'));
    const callId = await activeCall(a);
    await a.asCustomer.post('/_api/call/signal', { callId, kind: 'offer', payload: { sdp: 'x' } });
    await aSeller.waitFor(isEvent('signal'));
    await a.asCustomer.post('/_api/call/end', { callId });
    await aSeller.waitFor(isEvent('call', (d: CallStateEvent) => d.status === 'ended'));
    expect(bSeller.events.map((e) => e.event)).toEqual(['hello']);
    expect(bCustomer.events.map((e) => e.event)).toEqual(['hello']);
  });

  it('closes on logout, on a password change elsewhere, and when the session is deleted', async () => {
    const user = await buildUser(api.db.knex, { role: 'customer' });
    const tabA = api.client();
    await login(tabA, { email: user.email, password: DEFAULT_PASSWORD });
    const tabB = api.client();
    await login(tabB, { email: user.email, password: DEFAULT_PASSWORD });
    const streamA = await open(tabA);
    const streamB = await open(tabB);
    await Promise.all([streamA.waitFor(isEvent('hello')), streamB.waitFor(isEvent('hello'))]);

    expect((await tabA.post('/_api/auth/logout', {})).status).toBe(200);
    await streamA.waitForEnd(2000);
    expect(streamB.ended).toBe(false);

    const tabC = api.client();
    await login(tabC, { email: user.email, password: DEFAULT_PASSWORD });
    const streamC = await open(tabC);
    await streamC.waitFor(isEvent('hello'));
    const changed = await tabB.post('/_api/user/password/change', {
      currentPassword: DEFAULT_PASSWORD,
      newPassword: 'Another#2027',
      confirmNewPassword: 'Another#2027',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await Promise.all([streamB.waitForEnd(2000), streamC.waitForEnd(2000)]);

    // A session removed by other means (here: straight from the table) is found on the next check.
    const other = await buildUser(api.db.knex, { role: 'customer' });
    const tabD = await signIn(api, other);
    const streamD = await open(tabD);
    await streamD.waitFor(isEvent('hello'));
    await api.db.knex('sessions').where({ user_id: other.id }).delete();
    await api.handle.background.runNow('events:sessions');
    await streamD.waitForEnd(2000);
  });

  it('sends heartbeats and ends every stream when the server stops', async () => {
    const own = await startTestApi({ env: { EVENT_STREAM_HEARTBEAT_MS: '200' } });
    try {
      const p = await callParties(own);
      const s = await open(p.asSeller);
      await s.waitFor(isEvent('hello'));
      await new Promise((r) => setTimeout(r, 700));
      expect(s.comments).toBeGreaterThanOrEqual(2);
      expect(own.handle.deps.events.size()).toBe(1);
      await own.handle.deps.events.stop();
      await s.waitForEnd(2000);
      expect(own.handle.deps.events.size()).toBe(0);
    } finally {
      await own.close();
    }
  });
});
