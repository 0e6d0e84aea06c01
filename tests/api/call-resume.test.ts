import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResumeResponse } from '../../api/contract/video';
import { VIDEO_MESSAGES } from '../../api/contract/video';
import { buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { activeCall, callParties, placeCall, signIn } from './calls-support';

/**
 * A page reloaded during a call (issue #50): GET /_api/call/resume answers the status, the video token and
 * the signals in one request, under the rules of the three it replaces; and the page the server serves a
 * signed-in reader names their live call (api/src/http/live-call-page.ts), with the call screen preloaded.
 */

const INDEX = path.resolve(import.meta.dirname, '../../dist/index.html');

let api: TestApi;
beforeAll(async () => {
  expect(fs.existsSync(INDEX), 'the PWA build is missing: run npm run build').toBe(true);
  api = await startTestApi({ serveStatic: true });
});
afterAll(async () => api?.close());

const resume = (client: ApiClient, callId: number) =>
  client.get<CallResumeResponse & { error?: string }>(`/_api/call/resume?callId=${callId}`);

describe('GET /_api/call/resume', () => {
  it('gives either side of an active call its status, its video token and the signals addressed to it', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const sent = await p.asSeller.post<{ id: number }>('/_api/call/signal', {
      callId,
      kind: 'candidate',
      payload: { sid: 's1', candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host' } },
    });
    expect(sent.status).toBe(201);

    const customer = await resume(p.asCustomer, callId);
    expect(customer.status).toBe(200);
    expect(customer.body.call).toMatchObject({ callId, status: 'active', isIncoming: false });
    expect(customer.body.call.participantId).toBe(p.seller.id);
    expect(customer.body.token).toMatchObject({ provider: 'p2p', identity: `user-${p.customer.id}` });
    expect(customer.body.signals.map((s) => s.id)).toEqual([sent.body.id]);
    expect(customer.body.signals[0]).toMatchObject({ kind: 'candidate', fromUserId: p.seller.id });

    // The seller's answer holds the seller's own view and none of the signals it sent itself.
    const seller = await resume(p.asSeller, callId);
    expect(seller.status).toBe(200);
    expect(seller.body.call).toMatchObject({ callId, status: 'active', isIncoming: true });
    expect(seller.body.token).toMatchObject({ provider: 'p2p', identity: `user-${p.seller.id}` });
    expect(seller.body.signals).toEqual([]);
  });

  it('answers a call that still rings without a token (the token is for an active call)', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const res = await resume(p.asCustomer, callId);
    expect(res.status).toBe(200);
    expect(['pending', 'ringing']).toContain(res.body.call.status);
    expect(res.body.token).toBeNull();
  });

  it('is for the two participants only: anyone else gets 404, a visitor 401', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const stranger = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    const other = await callParties(api);
    for (const client of [stranger, other.asSeller, other.asCustomer]) {
      const res = await resume(client, callId);
      expect(res.status).toBe(404);
      expect(res.body.token).toBeUndefined();
    }
    expect((await resume(api.client(), callId)).status).toBe(401);
  });

  it('refuses an ended call (409), with no token', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
    for (const client of [p.asCustomer, p.asSeller]) {
      const res = await resume(client, callId);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(VIDEO_MESSAGES.callNotLive);
      expect(res.body.token).toBeUndefined();
    }
  });

  it('validates the call id', async () => {
    const p = await callParties(api);
    for (const q of ['', '?callId=0', '?callId=x']) {
      expect((await p.asCustomer.get(`/_api/call/resume${q}`)).status).toBe(400);
    }
  });
});

/** The `{userId, callId}` a page names (undefined: no element). */
const named = (html: string) => {
  const m = /<script type="application\/json" id="nagai-live-call">([^<]*)<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]) as { userId: number; callId: number | null }) : undefined;
};
const preloadsCallScreen = (html: string) =>
  /<link rel="modulepreload" crossorigin href="\/assets\/call-modal-[\w-]+\.js">/.test(html) &&
  /<link rel="modulepreload" crossorigin href="\/assets\/call-layer-[\w-]+\.js">/.test(html);

describe("a signed-in reader's page names their live call", () => {
  it('names the active call on either side, and preloads the call screen', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    for (const [client, user] of [
      [p.asCustomer, p.customer],
      [p.asSeller, p.seller],
    ] as const) {
      const page = await client.get<string>('/seller/history');
      expect(page.status).toBe(200);
      expect(named(page.body)).toEqual({ userId: user.id, callId });
      expect(preloadsCallScreen(page.body)).toBe(true);
    }
  });

  it("names the caller's call that still rings, not the rung side's, nor another reader's, nor an ended one", async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    expect(named((await p.asCustomer.get<string>('/')).body)).toEqual({ userId: p.customer.id, callId });
    const seller = (await p.asSeller.get<string>('/')).body;
    expect(named(seller)).toEqual({ userId: p.seller.id, callId: null });
    expect(preloadsCallScreen(seller)).toBe(false);

    const stranger = await buildUser(api.db.knex, { role: 'customer' });
    expect(named((await (await signIn(api, stranger)).get<string>('/')).body)).toEqual({
      userId: stranger.id,
      callId: null,
    });

    expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
    expect(named((await p.asCustomer.get<string>('/')).body)).toEqual({
      userId: p.customer.id,
      callId: null,
    });
  });

  it("names nothing on a visitor's page, nor with a session that is not valid", async () => {
    expect(named((await api.client().get<string>('/')).body)).toBeUndefined();
    const stale = api.client();
    stale.cookies.set('nagai_session', 'not-a-session');
    expect(named((await stale.get<string>('/')).body)).toBeUndefined();
  });
});
