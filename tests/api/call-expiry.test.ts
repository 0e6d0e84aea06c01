import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { callParties, placeCall } from './calls-support';

// Real time, a short ring timeout and the real background sweep: nobody polls, the call still goes missed.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ config: { callRingTimeoutMs: 1000 } });
  api.handle.background.start();
});
afterAll(async () => api?.close());

describe('ring timeout in real time', () => {
  it('the registered calls:expire sweep marks an unanswered call missed with nobody polling', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const deadline = Date.now() + 12_000;
    let status = 'pending';
    while (Date.now() < deadline) {
      ({ status } = (await api.db.knex('calls').where({ id: callId }).first('status')) as { status: string });
      if (status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe('missed');
  });

  it('a read after the short timeout sees the call missed at once', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    expect((await p.asCustomer.get(`/_api/call/status?callId=${callId}`)).body.status).toBe('pending');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await p.asCustomer.get(`/_api/call/status?callId=${callId}`)).body.status).toBe('missed');
  });
});
