import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminCallQualityResponse } from '../../api/contract/call-quality';
import { buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { activeCall, callParties, placeCall, signIn, type CallParties } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api?.close();
});

const report = (callId: number, fields: Record<string, unknown> = {}) => ({
  callId,
  connected: true,
  route: 'relay',
  setupMs: 420,
  rttMs: 310,
  lossPercent: 2.5,
  bitrateKbps: 640,
  freezes: 1,
  reconnects: 0,
  ...fields,
});

async function summary(): Promise<AdminCallQualityResponse> {
  const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
  const res = await admin.get<AdminCallQualityResponse>('/_api/admin/call-quality');
  expect(res.status).toBe(200);
  return res.body;
}

describe('POST /_api/call/quality', () => {
  it('keeps one record per participant, replaced by their later report', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    expect((await p.asCustomer.post('/_api/call/quality', report(callId, { reconnects: 0 }))).status).toBe(
      204,
    );
    expect((await p.asCustomer.post('/_api/call/quality', report(callId, { reconnects: 2 }))).status).toBe(
      204,
    );
    expect((await p.asSeller.post('/_api/call/quality', report(callId, { route: 'srflx' }))).status).toBe(
      204,
    );
    const rows = await api.db.knex('call_quality').where({ call_id: callId }).orderBy('user_id');
    expect(rows).toHaveLength(2);
    const mine = rows.find((r: { user_id: number }) => r.user_id === p.customer.id);
    expect(mine).toMatchObject({
      connected: true,
      route: 'relay',
      setup_ms: 420,
      rtt_ms: 310,
      reconnects: 2,
    });
    expect(Number(mine.loss_percent)).toBe(2.5);
  });

  it('is only for the two participants of an answered call, and shortly after it ends', async () => {
    const p = await callParties(api);
    const ringing = await placeCall(p);
    const early = await p.asCustomer.post('/_api/call/quality', report(ringing));
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: 'This call takes no quality reports.' });
    await p.asSeller.post('/_api/call/respond', { callId: ringing, response: 'accept' });

    const stranger = await signIn(api, await buildUser(api.db.knex));
    const res = await stranger.post('/_api/call/quality', report(ringing));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Call not found.', code: 'call_not_found' });
    expect((await api.client().post('/_api/call/quality', report(ringing))).status).toBe(401);

    await p.asCustomer.post('/_api/call/end', { callId: ringing });
    expect((await p.asSeller.post('/_api/call/quality', report(ringing))).status).toBe(204);
    api.clock.advance(11 * 60_000);
    expect((await p.asSeller.post('/_api/call/quality', report(ringing))).status).toBe(409);
    expect(
      await api.db.knex('call_quality').where({ call_id: ringing }).count('* as n').first(),
    ).toMatchObject({
      n: expect.anything(),
    });
    const n = Number(
      (await api.db.knex('call_quality').where({ call_id: ringing }).count('* as n').first())?.n,
    );
    expect(n).toBe(1);
  });

  it('refuses bad reports with a message naming the field', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const cases: [Record<string, unknown>, string][] = [
      [{ route: 'carrier-pigeon' }, "route must be 'direct', 'srflx' or 'relay'."],
      [{ setupMs: -1 }, 'setupMs must be a whole number from 0 to 600000.'],
      [{ lossPercent: 101 }, 'lossPercent must be a number from 0 to 100.'],
      [{ reconnects: 1.5 }, 'reconnects must be a whole number from 0 to 10000.'],
      [{ connected: 'yes' }, 'connected must be true or false.'],
      [{ callId: 2 ** 31 }, 'callId must be a positive integer.'],
      [{ extra: 1 }, 'The call quality report is not valid.'],
    ];
    for (const [fields, message] of cases) {
      const res = await p.asCustomer.post('/_api/call/quality', report(callId, fields));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error).toBe(message);
    }
  });
});

describe('GET /_api/admin/call-quality', () => {
  it('summarises the last 7 days of answered calls for admins only', async () => {
    // The calls of the tests above fall out of the window: this one counts only its own.
    api.clock.advance(8 * 86_400_000);
    expect(await summary()).toEqual({
      days: 7,
      calls: 0,
      connectedPercent: null,
      relayedPercent: null,
      medianSetupMs: null,
      reconnectPercent: null,
    });
    const calls: { p: CallParties; id: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await callParties(api);
      calls.push({ p, id: await activeCall(p) });
      await p.asCustomer.post('/_api/call/end', { callId: calls[i].id });
    }
    // 1: direct, 300 ms. 2: relayed by one side, 500/900 ms (the slower counts), reconnected once.
    // 3: relayed, 700 ms. 4: never connected.
    await calls[0].p.asCustomer.post(
      '/_api/call/quality',
      report(calls[0].id, { route: 'direct', setupMs: 300 }),
    );
    await calls[1].p.asCustomer.post(
      '/_api/call/quality',
      report(calls[1].id, { route: 'srflx', setupMs: 500 }),
    );
    await calls[1].p.asSeller.post(
      '/_api/call/quality',
      report(calls[1].id, { route: 'relay', setupMs: 900, reconnects: 1 }),
    );
    await calls[2].p.asSeller.post(
      '/_api/call/quality',
      report(calls[2].id, { route: 'relay', setupMs: 700 }),
    );
    await calls[3].p.asCustomer.post(
      '/_api/call/quality',
      report(calls[3].id, { connected: false, route: null, setupMs: null }),
    );

    expect(await summary()).toEqual({
      days: 7,
      calls: 4,
      connectedPercent: 75,
      relayedPercent: 66.7,
      medianSetupMs: 700,
      reconnectPercent: 33.3,
    });

    const customer = await signIn(api, await buildUser(api.db.knex));
    expect((await customer.get('/_api/admin/call-quality')).status).toBe(403);
    expect((await calls[0].p.asSeller.get('/_api/admin/call-quality')).status).toBe(403);

    // Eight days later none of them is in the window.
    api.clock.advance(8 * 86_400_000);
    expect((await summary()).calls).toBe(0);
  });
});
