import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepCalls } from '../../api/src/features/calls/service';
import { buildSeller, buildUser, login } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { markAppOpen } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

async function activeCall(): Promise<{
  callId: number;
  customer: ApiClient;
  seller: ApiClient;
  sellerId: number;
}> {
  const s = await buildSeller(api.db.knex);
  const c = await buildUser(api.db.knex, { role: 'customer' });
  const seller = api.client();
  const customer = api.client();
  await login(seller, s);
  await login(customer, c);
  await markAppOpen(api, s.id);
  const init = await customer.post<{ callId: number }>('/_api/call/initiate', { sellerId: s.id });
  const accepted = await seller.post('/_api/call/respond', { callId: init.body.callId, response: 'accept' });
  expect(accepted.status).toBe(200);
  return { callId: init.body.callId, customer, seller, sellerId: s.id };
}

const statusOf = async (client: ApiClient, callId: number) =>
  (await client.get<{ status: string }>(`/_api/call/status?callId=${callId}`)).body.status;

describe('abandoned active calls', () => {
  it('ends an active call when neither participant has polled for 60 s', async () => {
    const { callId, seller } = await activeCall();
    api.clock.advance(59_000);
    await sweepCalls(api.handle.deps);
    expect((await api.db.knex('calls').where({ id: callId }).first()).status).toBe('active');
    api.clock.advance(2_000);
    const swept = await sweepCalls(api.handle.deps);
    expect(swept.abandoned).toBe(1);
    const row = await api.db.knex('calls').where({ id: callId }).first();
    expect(row.status).toBe('ended');
    expect(row.end_reason).toBe('abandoned');
    expect(await statusOf(seller, callId)).toBe('ended');
  });

  it('keeps a call active while both sides poll, and ends it once one side has been silent for 2 minutes', async () => {
    const { callId, customer, seller } = await activeCall();
    for (let i = 0; i < 4; i++) {
      api.clock.advance(30_000);
      expect(await statusOf(customer, callId)).toBe('active');
      expect(await statusOf(seller, callId)).toBe('active');
      await sweepCalls(api.handle.deps);
    }
    // The seller's tab is gone; the customer keeps polling.
    for (let i = 0; i < 4; i++) {
      api.clock.advance(30_000);
      await sweepCalls(api.handle.deps);
      if (i < 3) expect(await statusOf(customer, callId)).toBe('active');
    }
    await sweepCalls(api.handle.deps);
    expect(await statusOf(customer, callId)).toBe('ended');
  });

  it('lets the customer call again when the old active call was abandoned (checked on initiate)', async () => {
    const { customer, sellerId } = await activeCall();
    const blocked = await customer.post('/_api/call/initiate', { sellerId });
    expect(blocked.status).toBe(409);
    api.clock.advance(61_000);
    // The seller's app is open again (say, on another device): the shop is reachable, the old call no obstacle.
    await markAppOpen(api, sellerId);
    const again = await customer.post('/_api/call/initiate', { sellerId });
    expect(again.status).toBe(201);
  });
});
