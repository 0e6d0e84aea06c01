import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireUnansweredCalls } from '../../api/src/features/calls/service';
import { buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { callParties, placeCall, signIn } from './calls-support';

// Truly concurrent requests on real PostgreSQL: every race must end in exactly one outcome.
const ROUNDS = 15;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const row = (id: number) =>
  api.db.knex('calls').where({ id }).first('status', 'answered_at', 'ended_at') as Promise<{
    status: string;
    answered_at: Date | null;
    ended_at: Date | null;
  }>;

describe('call races on PostgreSQL', () => {
  it('two racing responses: exactly one wins, the other is told it was already answered', async () => {
    const wins = { active: 0, declined: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const p = await callParties(api);
      const callId = await placeCall(p);
      const [accept, decline] = await Promise.all([
        p.asSeller.post('/_api/call/respond', { callId, response: 'accept' }),
        p.asSeller.post('/_api/call/respond', { callId, response: 'decline' }),
      ]);
      expect([accept.status, decline.status].sort()).toEqual([200, 409]);
      const loser = accept.status === 409 ? accept : decline;
      expect(loser.body.error).toContain('already been responded to');
      const { status } = await row(callId);
      expect(status).toBe(accept.status === 200 ? 'active' : 'declined');
      wins[status as 'active' | 'declined']++;
    }
    expect(wins.active + wins.declined).toBe(ROUNDS);
  });

  it('accept racing the ring-timeout expiry: either answered or missed, never both', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const p = await callParties(api);
      const callId = await placeCall(p);
      // The sweep of another process whose clock is already past the timeout.
      const late = new Date(api.clock.now().getTime() + api.config.callRingTimeoutMs + 1000);
      const [accept, expired] = await Promise.all([
        p.asSeller.post('/_api/call/respond', { callId, response: 'accept' }),
        expireUnansweredCalls(api.db.knex, late, api.config.callRingTimeoutMs, { callId }),
      ]);
      const r = await row(callId);
      if (accept.status === 200) {
        expect(expired).toBe(0);
        expect(r.status).toBe('active');
        expect(r.answered_at).not.toBeNull();
      } else {
        expect(accept.status).toBe(409);
        expect(expired).toBe(1);
        expect(r.status).toBe('missed');
        expect(r.answered_at).toBeNull();
      }
    }
  });

  it('end racing accept: the call always ends, and it was answered only if the accept succeeded', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const p = await callParties(api);
      const callId = await placeCall(p);
      const [accept, end] = await Promise.all([
        p.asSeller.post('/_api/call/respond', { callId, response: 'accept' }),
        p.asCustomer.post('/_api/call/end', { callId }),
      ]);
      expect(end.status).toBe(200);
      expect([200, 409]).toContain(accept.status);
      const r = await row(callId);
      // If the accept landed after the end, a second end would be needed: it must not be.
      expect(r.status).toBe('ended');
      expect(r.answered_at !== null).toBe(accept.status === 200);
      if (accept.status === 409) expect(accept.body.error).toContain('already been responded to');
    }
  });

  it('one customer initiating twice at once gets exactly one live call', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const a = await callParties(api);
      const b = await callParties(api);
      const [one, two] = await Promise.all([
        a.asCustomer.post('/_api/call/initiate', { sellerId: a.seller.id }),
        a.asCustomer.post('/_api/call/initiate', { sellerId: b.seller.id }),
      ]);
      expect([one.status, two.status].sort()).toEqual([201, 409]);
      expect((one.status === 409 ? one : two).body.error).toBe('You already have a call in progress.');
      const live = await api.db
        .knex('calls')
        .where({ caller_id: a.customer.id })
        .whereIn('status', ['pending', 'ringing', 'active']);
      expect(live).toHaveLength(1);
    }
  });

  it('a seller accepting two calls at once ends up in exactly one', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const p = await callParties(api);
      const first = await placeCall(p);
      const otherCustomer = await signIn(api, await buildUser(api.db.knex));
      const second = await placeCall({ asCustomer: otherCustomer, seller: p.seller });
      const results = await Promise.all([
        p.asSeller.post('/_api/call/respond', { callId: first, response: 'accept' }),
        p.asSeller.post('/_api/call/respond', { callId: second, response: 'accept' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body).toMatchObject({ code: 'seller_busy' });
      const active = await api.db.knex('calls').where({ seller_id: p.seller.id, status: 'active' });
      expect(active).toHaveLength(1);
    }
  });

  it('many sellers polling while calls are placed: no errors, every call delivered once as ringing', async () => {
    const parties = await Promise.all(Array.from({ length: 8 }, () => callParties(api)));
    const results = await Promise.all(
      parties.flatMap((p) => [
        p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id }),
        p.asSeller.get('/_api/call/incoming'),
        p.asSeller.get('/_api/call/incoming'),
      ]),
    );
    for (const r of results) expect([200, 201]).toContain(r.status);
    for (const p of parties) {
      const polled = await p.asSeller.get<{ calls: { callId: number }[] }>('/_api/call/incoming');
      expect(polled.body.calls).toHaveLength(1);
    }
  });
});
