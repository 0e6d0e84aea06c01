import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CALL_MESSAGES } from '../../api/contract/calls';
import type {
  CallHistoryResponse,
  CallStatusResponse,
  IncomingCallsResponse,
  InitiateCallResponse,
  RespondCallResponse,
} from '../../api/contract/calls';
import type { VideoTokenResponse } from '../../api/contract/video';
import { PRESENCE_REFRESH_MS, initiateCall, sweepCalls } from '../../api/src/features/calls/service';
import type { SessionUser } from '../../api/src/http/context';
import { buildSeller, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { activeCall, callParties, markAppOpen, placeCall, signIn } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const callRow = (id: number) =>
  api.db.knex('calls').where({ id }).first() as Promise<{
    status: string;
    ringing_at: Date | null;
    answered_at: Date | null;
    ended_at: Date | null;
    ended_by: number | null;
  }>;

describe('POST /_api/call/initiate', () => {
  it('creates a pending call and answers 201 with callId and the call', async () => {
    const p = await callParties(api);
    const res = await p.asCustomer.post<InitiateCallResponse>('/_api/call/initiate', {
      sellerId: p.seller.id,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      callId: expect.any(Number),
      status: 'pending',
      call: {
        id: res.body.callId,
        status: 'pending',
        callerId: p.customer.id,
        sellerId: p.seller.id,
        createdAt: expect.any(String),
      },
    });
    expect((await callRow(res.body.callId)).status).toBe('pending');
  });

  it('accepts a superjson-style body', async () => {
    const p = await callParties(api);
    const res = await p.asCustomer.post<InitiateCallResponse>('/_api/call/initiate', {
      json: { sellerId: p.seller.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.call.sellerId).toBe(p.seller.id);
  });

  it('is for customers only', async () => {
    const p = await callParties(api);
    const otherSeller = await signIn(api, await buildSeller(api.db.knex));
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    for (const client of [otherSeller, admin]) {
      const res = await client.post('/_api/call/initiate', { sellerId: p.seller.id });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Video calling is only available for customers');
    }
    const anonymous = await api.client().post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(anonymous.status).toBe(401);
  });

  it('validates sellerId as a positive integer', async () => {
    const p = await callParties(api);
    for (const body of [{}, { sellerId: 0 }, { sellerId: -3 }, { sellerId: 1.5 }, { sellerId: 'x' }]) {
      const res = await p.asCustomer.post('/_api/call/initiate', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(CALL_MESSAGES.invalidSellerId);
    }
  });

  it('refuses unknown, unapproved and non-seller targets with 404, and video-disabled shops with 409', async () => {
    const p = await callParties(api);
    const unapproved = await buildSeller(api.db.knex, { isApproved: false });
    const pendingReview = await buildSeller(api.db.knex, { isApproved: null });
    const customer = await buildUser(api.db.knex);
    for (const sellerId of [999_999, unapproved.id, pendingReview.id, customer.id]) {
      const res = await p.asCustomer.post('/_api/call/initiate', { sellerId });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Seller not found.', code: 'seller_not_found' });
    }
    const noVideo = await buildSeller(api.db.knex, { videoCallEnabled: false });
    const res = await p.asCustomer.post('/_api/call/initiate', { sellerId: noVideo.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'This jeweller is not taking video calls right now.',
      code: 'video_calls_disabled',
    });
  });

  it('allows one live call per customer, and a new one once it is over', async () => {
    const p = await callParties(api);
    const other = await buildSeller(api.db.knex);
    await markAppOpen(api, other.id);
    const callId = await placeCall(p);
    const second = await p.asCustomer.post('/_api/call/initiate', { sellerId: other.id });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: 'You already have a call in progress.',
      code: 'call_in_progress',
    });
    const again = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(again.status).toBe(409);

    await p.asCustomer.post('/_api/call/end', { callId });
    const after = await p.asCustomer.post('/_api/call/initiate', { sellerId: other.id });
    expect(after.status).toBe(201);
  });

  it('backs the one-live-call rule with the database (unique index)', async () => {
    const p = await callParties(api);
    await placeCall(p);
    await expect(
      api.db.knex('calls').insert({ caller_id: p.customer.id, seller_id: p.seller.id, status: 'ringing' }),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('tells a customer the jeweller is busy while the seller is in an active call', async () => {
    const p = await callParties(api);
    await activeCall(p);
    const other = await signIn(api, await buildUser(api.db.knex));
    const res = await other.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: 'The jeweller is busy on another call. Please try again in a few minutes.',
      code: 'seller_busy',
    });
    expect(res.body.error).toContain('busy');
  });

  it('rate-limits initiation per customer (5 a minute)', async () => {
    const p = await callParties(api);
    for (let i = 0; i < 5; i++) {
      const callId = await placeCall(p);
      expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
    }
    const res = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(res.status).toBe(429);
    expect(res.body.error).toBe(CALL_MESSAGES.tooManyCalls);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another customer is not affected.
    const other = await signIn(api, await buildUser(api.db.knex));
    expect((await other.post('/_api/call/initiate', { sellerId: p.seller.id })).status).toBe(201);
    api.clock.advance(61_000);
    const laterSeller = await buildSeller(api.db.knex);
    await markAppOpen(api, laterSeller.id);
    const later = await p.asCustomer.post('/_api/call/initiate', { sellerId: laterSeller.id });
    expect(later.status).toBe(201);
  });

  it('tells the incoming-call hook about the call without making the customer wait for it', async () => {
    const customer = await buildUser(api.db.knex, { displayName: 'Meena' });
    const seller = await buildSeller(api.db.knex);
    await markAppOpen(api, seller.id);
    const session = (await api.db.knex('users').where({ id: customer.id }).first()) as { created_at: Date };
    const caller: SessionUser = {
      id: customer.id,
      email: customer.email,
      displayName: 'Meena',
      fullName: null,
      role: 'customer',
      avatarUrl: null,
      phone: null,
      address: null,
      createdAt: session.created_at,
      failedLogins: null,
    };
    const seen: { callId: number; sellerId: number; callerName: string }[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const result = await initiateCall(
      api.handle.deps,
      caller,
      seller.id,
      undefined,
      async (call, callerName) => {
        seen.push({ callId: call.id, sellerId: call.sellerId, callerName });
        await gate; // a slow push service
        throw new Error('push service down');
      },
    );
    expect(result.status).toBe('pending');
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([{ callId: result.callId, sellerId: seller.id, callerName: 'Meena' }]);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect((await callRow(result.callId)).status).toBe('pending');
  });
});

describe('GET /_api/call/incoming', () => {
  it('is for sellers only', async () => {
    const p = await callParties(api);
    const res = await p.asCustomer.get('/_api/call/incoming');
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(CALL_MESSAGES.sellersOnly);
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    expect((await admin.get('/_api/call/incoming')).status).toBe(403);
    expect((await api.client().get('/_api/call/incoming')).status).toBe(401);
  });

  it('reads the session itself: a revoked or expired session is refused, a valid one is touched', async () => {
    // Signed out on the server: the cookie is worthless.
    const seller2 = await signIn(api, await buildSeller(api.db.knex));
    expect((await seller2.get('/_api/call/incoming')).status).toBe(200);
    const cookie = [...seller2.cookies.entries()];
    expect((await seller2.post('/_api/auth/logout', {})).status).toBe(200);
    for (const [k, v] of cookie) seller2.cookies.set(k, v);
    expect((await seller2.get('/_api/call/incoming')).status).toBe(401);

    const p = await callParties(api);
    expect((await p.asSeller.get('/_api/call/incoming')).status).toBe(200);
    const started = api.clock.now().getTime();
    onTestFinished(() => api.clock.advance(started - api.clock.now().getTime()));
    // A session not seen for over an hour is touched, as the session middleware does on other paths.
    const sessionOf = () => api.db.knex('sessions').where({ user_id: p.seller.id }).first();
    api.clock.advance(2 * 3_600_000);
    expect((await p.asSeller.get('/_api/call/incoming')).status).toBe(200);
    const touched = (await sessionOf()) as { last_seen_at: Date; expires_at: Date };
    expect(Math.abs(new Date(touched.last_seen_at).getTime() - api.clock.now().getTime())).toBeLessThan(1000);
    // Past its expiry the same cookie is a visitor's.
    api.clock.advance(new Date(touched.expires_at).getTime() - api.clock.now().getTime() + 1000);
    expect((await p.asSeller.get('/_api/call/incoming')).status).toBe(401);
  });

  it('records presence, lists waiting calls with the caller and marks them ringing', async () => {
    const p = await callParties(api, {}, { appOpen: false });
    await api.db.knex('users').where({ id: p.customer.id }).update({ avatar_url: '/media/a.webp' });
    const before = await api.db.knex('seller_presence').where({ user_id: p.seller.id }).first();
    expect(before).toBeUndefined();
    // Nobody's app open and no push: nothing would ring, so the shop is not rung (issue #40)…
    expect((await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id })).status).toBe(409);
    // …until the seller's app polls: its first poll writes its presence at once (issue #50: no batch to wait
    // for), so the shop is reachable as soon as the poll has answered.
    const empty = await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming');
    expect(empty.body.calls).toEqual([]);
    const callId = await placeCall(p);
    expect((await callRow(callId)).ringing_at).toBeNull();

    const res = await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming');
    await api.handle.background.runNow('calls:presence');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      calls: [
        {
          callId,
          caller: { id: p.customer.id, displayName: p.customer.displayName, avatarUrl: '/media/a.webp' },
          createdAt: expect.any(String),
          product: null,
        },
      ],
    });
    const row = await callRow(callId);
    expect(row.status).toBe('ringing');
    expect(row.ringing_at).not.toBeNull();
    const presence = (await api.db.knex('seller_presence').where({ user_id: p.seller.id }).first()) as {
      last_polled_at: Date;
    };
    expect(Math.abs(new Date(presence.last_polled_at).getTime() - api.clock.now().getTime())).toBeLessThan(
      5000,
    );

    // A poll soon after the last one leaves the stored time alone (no write on the hot path)…
    api.clock.advance(PRESENCE_REFRESH_MS - 1000);
    await p.asSeller.get('/_api/call/incoming');
    await api.handle.background.runNow('calls:presence');
    const unchanged = (await api.db.knex('seller_presence').where({ user_id: p.seller.id }).first()) as {
      last_polled_at: Date;
    };
    expect(new Date(unchanged.last_polled_at).getTime()).toBe(new Date(presence.last_polled_at).getTime());
    // …and one after the refresh interval records the seller again, in the process's next batch of
    // presence writes, well inside the 15 s online window.
    api.clock.advance(4000);
    await p.asSeller.get('/_api/call/incoming');
    const queued = (await api.db.knex('seller_presence').where({ user_id: p.seller.id }).first()) as {
      last_polled_at: Date;
    };
    expect(new Date(queued.last_polled_at).getTime()).toBe(new Date(presence.last_polled_at).getTime());
    await api.handle.background.runNow('calls:presence');
    const again = (await api.db.knex('seller_presence').where({ user_id: p.seller.id }).first()) as {
      last_polled_at: Date;
    };
    expect(new Date(again.last_polled_at).getTime()).toBeGreaterThan(
      new Date(presence.last_polled_at).getTime(),
    );
    // Only this seller's calls.
    const other = await signIn(api, await buildSeller(api.db.knex));
    expect((await other.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toEqual([]);
  });

  it('drops a ringing call once the caller hangs up', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    expect((await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toHaveLength(1);
    const end = await p.asCustomer.post('/_api/call/end', { callId });
    expect(end.status).toBe(200);
    expect(end.body).toMatchObject({ callId, status: 'ended' });
    expect((await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toEqual([]);
    const late = await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    expect(late.status).toBe(409);
    expect(late.body.error).toContain('already been responded to');
  });
});

describe('POST /_api/call/respond', () => {
  it('lets the called seller accept, answering the confirmed call', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    await p.asSeller.get('/_api/call/incoming');
    const res = await p.asSeller.post<RespondCallResponse>('/_api/call/respond', {
      callId,
      response: 'accept',
    });
    expect(res.status).toBe(200);
    // The accepting side's video token comes with the accept (Accept is instant, product-rules §19): the same
    // room and identity as GET /_api/video/token gives that participant.
    expect(res.body).toEqual({
      call: { id: callId, status: 'active', callerId: p.customer.id, sellerId: p.seller.id },
      token: expect.objectContaining({ provider: 'p2p', token: expect.any(String) }),
    });
    const asked = await p.asSeller.get<VideoTokenResponse>(`/_api/video/token?callId=${callId}`);
    expect(asked.status).toBe(200);
    expect(res.body.token).toMatchObject({ roomName: asked.body.roomName, identity: asked.body.identity });
    expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+(\.\d)?$/);
    const row = await callRow(callId);
    expect(row.status).toBe('active');
    expect(row.answered_at).not.toBeNull();
  });

  it('accepts straight from pending (before any poll) and superjson bodies', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const res = await p.asSeller.post('/_api/call/respond', { json: { callId, response: 'accept' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ call: { status: 'active' } });
  });

  it('lets the seller decline', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const res = await p.asSeller.post('/_api/call/respond', { callId, response: 'decline' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ call: { id: callId, status: 'declined' } });
    expect(res.body).not.toHaveProperty('token');
    const row = await callRow(callId);
    expect(row.ended_at).not.toBeNull();
    expect(row.ended_by).toBe(p.seller.id);
    const status = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(status.body.status).toBe('declined');
  });

  it("answers a second response with 'already been responded to'", async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    expect((await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' })).status).toBe(200);
    for (const response of ['accept', 'decline']) {
      const res = await p.asSeller.post('/_api/call/respond', { callId, response });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        error: 'This call has already been responded to.',
        code: 'call_already_responded',
      });
    }
    expect((await callRow(callId)).status).toBe('active');
  });

  it('hides the call from anyone but the called seller', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const otherSeller = await signIn(api, await buildSeller(api.db.knex));
    for (const client of [otherSeller, p.asCustomer]) {
      const res = await client.post('/_api/call/respond', { callId, response: 'accept' });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Call not found.');
    }
    expect(
      (await p.asSeller.post('/_api/call/respond', { callId: 999_999, response: 'accept' })).status,
    ).toBe(404);
    expect((await callRow(callId)).status).toBe('pending');
  });

  it('validates callId and response', async () => {
    const p = await callParties(api);
    const bad = await p.asSeller.post('/_api/call/respond', { callId: 1, response: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(CALL_MESSAGES.invalidResponse);
    const badId = await p.asSeller.post('/_api/call/respond', { callId: 'one', response: 'accept' });
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe(CALL_MESSAGES.invalidCallId);
  });

  it('refuses to accept a second call while the seller is in an active one', async () => {
    const p = await callParties(api);
    await activeCall(p);
    // Placed before the first was accepted would be the realistic path; insert it as such.
    const other = await buildUser(api.db.knex);
    const [{ id: waiting }] = (await api.db
      .knex('calls')
      .insert({ caller_id: other.id, seller_id: p.seller.id, status: 'ringing', created_at: api.clock.now() })
      .returning('id')) as { id: number }[];
    const res = await p.asSeller.post('/_api/call/respond', { callId: waiting, response: 'accept' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'seller_busy' });
    expect(res.body.error).toContain('busy');
    expect((await callRow(waiting)).status).toBe('ringing');
    // Declining it is still possible.
    expect(
      (await p.asSeller.post('/_api/call/respond', { callId: waiting, response: 'decline' })).status,
    ).toBe(200);
  });
});

describe('POST /_api/call/end', () => {
  it('ends an active call for either participant, idempotently', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const res = await p.asSeller.post('/_api/call/end', { callId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      callId,
      status: 'ended',
      call: { id: callId, status: 'ended', callerId: p.customer.id, sellerId: p.seller.id },
    });
    const row = await callRow(callId);
    expect(row.ended_at).not.toBeNull();
    expect(row.ended_by).toBe(p.seller.id);
    for (const client of [p.asSeller, p.asCustomer]) {
      const again = await client.post('/_api/call/end', { callId });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ callId, status: 'ended' });
    }
    expect(new Date((await callRow(callId)).ended_at!).getTime()).toBe(new Date(row.ended_at!).getTime());
  });

  it('keeps a declined call declined', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    await p.asSeller.post('/_api/call/respond', { callId, response: 'decline' });
    const res = await p.asCustomer.post('/_api/call/end', { callId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'declined' });
  });

  it('refuses non-participants', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const stranger = await signIn(api, await buildUser(api.db.knex));
    const res = await stranger.post('/_api/call/end', { callId });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Call not found.');
    expect((await callRow(callId)).status).toBe('active');
    expect((await api.client().post('/_api/call/end', { callId })).status).toBe(401);
  });

  it('accepts exactly what navigator.sendBeacon sends on unload (JSON Blob, cookie, Origin)', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const res = await fetch(`${api.url}/_api/call/end`, {
      method: 'POST',
      headers: {
        Origin: api.url,
        'Content-Type': 'application/json',
        Cookie: p.asCustomer.cookieHeader(),
        'Sec-Fetch-Site': 'same-origin',
        'Sec-Fetch-Mode': 'no-cors',
        'Sec-Fetch-Dest': 'empty',
      },
      body: new Blob([JSON.stringify({ callId })], { type: 'application/json' }),
      keepalive: true,
    });
    expect(res.status).toBe(200);
    expect((await callRow(callId)).status).toBe('ended');
  });

  it('refuses a beacon from another origin', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const res = await fetch(`${api.url}/_api/call/end`, {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        'Content-Type': 'application/json',
        Cookie: p.asCustomer.cookieHeader(),
      },
      body: JSON.stringify({ callId }),
    });
    expect(res.status).toBe(403);
    expect((await callRow(callId)).status).toBe('active');
  });
});

describe('GET /_api/call/status', () => {
  it('describes the call from each side', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const mine = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      callId,
      status: 'pending',
      isIncoming: false,
      participantId: p.seller.id,
      participantName: p.seller.shopName,
      createdAt: expect.any(String),
      answeredAt: null,
      endedAt: null,
      endReason: null,
      shopName: p.seller.shopName,
      product: null,
    });
    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    const theirs = await p.asSeller.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(theirs.body).toMatchObject({
      callId,
      status: 'active',
      isIncoming: true,
      participantId: p.customer.id,
      participantName: p.customer.displayName,
      answeredAt: expect.any(String),
      endedAt: null,
    });
  });

  it('says how an ended call ended: a hang-up by default, or the call ending on its own', async () => {
    for (const reason of [undefined, 'no_route', 'connection_lost'] as const) {
      const p = await callParties(api);
      const callId = await activeCall(p);
      const ended = await p.asCustomer.post('/_api/call/end', reason ? { callId, reason } : { callId });
      expect(ended.status).toBe(200);
      const status = await p.asSeller.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
      expect(status.body).toMatchObject({ status: 'ended', endReason: reason ?? 'hangup' });
      // The second side's end (it noticed too) changes nothing.
      await p.asSeller.post('/_api/call/end', { callId, reason: 'connection_lost' });
      const again = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
      expect(again.body.endReason).toBe(reason ?? 'hangup');
    }
    const p = await callParties(api);
    const callId = await activeCall(p);
    const bad = await p.asCustomer.post('/_api/call/end', { callId, reason: 'bored' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("reason must be 'hangup', 'no_route' or 'connection_lost'.");
  });

  it('is for participants only and validates callId', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const stranger = await signIn(api, await buildSeller(api.db.knex));
    const res = await stranger.get(`/_api/call/status?callId=${callId}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Call not found.');
    for (const q of ['', '?callId=abc', '?callId=0', '?callId=-1']) {
      const bad = await p.asCustomer.get(`/_api/call/status${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(CALL_MESSAGES.invalidCallId);
    }
  });
});

describe('ring timeout (the real 30 s default, on the test clock)', () => {
  it('uses 30 s unless configured', () => {
    expect(api.config.callRingTimeoutMs).toBe(30_000);
  });

  it('keeps a call ringing at 29 s and makes it missed at 31 s, seen on read', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    await p.asSeller.get('/_api/call/incoming');
    api.clock.advance(29_000);
    expect(
      (await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`)).body.status,
    ).toBe('ringing');
    expect((await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toHaveLength(1);
    api.clock.advance(2_000);
    const status = await p.asCustomer.get<CallStatusResponse>(`/_api/call/status?callId=${callId}`);
    expect(status.body.status).toBe('missed');
    expect(status.body.endedAt).not.toBeNull();
    expect((await p.asSeller.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toEqual([]);
    const late = await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    expect(late.status).toBe(409);
    expect(late.body.error).toContain('already been responded to');
    const end = await p.asCustomer.post('/_api/call/end', { callId });
    expect(end.body).toMatchObject({ status: 'missed' });
  });

  it('expires on the incoming poll, on respond and on initiate, not only on status', async () => {
    const a = await callParties(api);
    const first = await placeCall(a);
    api.clock.advance(31_000);
    expect((await a.asSeller.get<IncomingCallsResponse>('/_api/call/incoming')).body.calls).toEqual([]);
    expect((await callRow(first)).status).toBe('missed');

    const b = await callParties(api);
    const second = await placeCall(b);
    api.clock.advance(31_000);
    expect((await b.asSeller.post('/_api/call/respond', { callId: second, response: 'accept' })).status).toBe(
      409,
    );
    expect((await callRow(second)).status).toBe('missed');

    const c = await callParties(api);
    const third = await placeCall(c);
    api.clock.advance(31_000);
    await markAppOpen(api, c.seller.id);
    // The stale call no longer counts as the customer's live call.
    expect((await c.asCustomer.post('/_api/call/initiate', { sellerId: c.seller.id })).status).toBe(201);
    expect((await callRow(third)).status).toBe('missed');
  });

  it('expires through the periodic sweep with nobody polling', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    await sweepCalls(api.handle.deps);
    expect((await callRow(callId)).status).toBe('pending');
    api.clock.advance(31_000);
    const result = await sweepCalls(api.handle.deps);
    expect(result.expired).toBeGreaterThanOrEqual(1);
    const row = await callRow(callId);
    expect(row.status).toBe('missed');
    // Ended when the ringing stopped (created + 30 s), not whenever the sweep ran.
    const created = (await api.db.knex('calls').where({ id: callId }).first('created_at')) as {
      created_at: Date;
    };
    expect(new Date(row.ended_at!).getTime() - new Date(created.created_at).getTime()).toBe(30_000);
  });

  it('does not expire an answered call', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    // Both sides keep polling (as open call screens do), so only the ring timeout could end it — and must not.
    for (let i = 0; i < 4; i++) {
      api.clock.advance(30_000);
      await p.asCustomer.get(`/_api/call/status?callId=${callId}`);
      await p.asSeller.get(`/_api/call/status?callId=${callId}`);
      await sweepCalls(api.handle.deps);
    }
    expect((await callRow(callId)).status).toBe('active');
  });
});

describe('races, decided in order (PGlite runs them one after the other)', () => {
  it('two responses: the first wins', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const [a, b] = [
      await p.asSeller.post('/_api/call/respond', { callId, response: 'decline' }),
      await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' }),
    ];
    expect([a.status, b.status]).toEqual([200, 409]);
    expect((await callRow(callId)).status).toBe('declined');
  });

  it('accept after the expiry loses; expiry after accept changes nothing', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    api.clock.advance(30_000);
    await sweepCalls(api.handle.deps);
    expect((await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' })).status).toBe(409);
    expect((await callRow(callId)).status).toBe('missed');

    const q = await callParties(api);
    const other = await placeCall(q);
    api.clock.advance(29_000);
    expect((await q.asSeller.post('/_api/call/respond', { callId: other, response: 'accept' })).status).toBe(
      200,
    );
    api.clock.advance(2_000);
    await sweepCalls(api.handle.deps);
    expect((await callRow(other)).status).toBe('active');
  });

  it('end before accept: the accept is refused; accept before end: the call ends', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    await p.asCustomer.post('/_api/call/end', { callId });
    expect((await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' })).status).toBe(409);
    const row = await callRow(callId);
    expect(row.status).toBe('ended');
    expect(row.answered_at).toBeNull();

    const q = await callParties(api);
    const other = await placeCall(q);
    await q.asSeller.post('/_api/call/respond', { callId: other, response: 'accept' });
    await q.asCustomer.post('/_api/call/end', { callId: other });
    const after = await callRow(other);
    expect(after.status).toBe('ended');
    expect(after.answered_at).not.toBeNull();
  });
});

describe('GET /_api/calls/history', () => {
  it('shows customers the calls they made and sellers the calls they received, with durations', async () => {
    const p = await callParties(api);
    const answered = await activeCall(p);
    api.clock.advance(65_000);
    await p.asCustomer.post('/_api/call/end', { callId: answered });
    api.clock.advance(1_000);
    await markAppOpen(api, p.seller.id);
    const declined = await placeCall(p);
    await p.asSeller.post('/_api/call/respond', { callId: declined, response: 'decline' });
    api.clock.advance(1_000);
    const missed = await placeCall(p);
    api.clock.advance(31_000);

    const mine = await p.asCustomer.get<CallHistoryResponse>('/_api/calls/history');
    expect(mine.status).toBe(200);
    expect(mine.body.calls.map((c) => [c.callId, c.status, c.durationSeconds])).toEqual([
      [missed, 'missed', 0],
      [declined, 'declined', 0],
      [answered, 'ended', 65],
    ]);
    expect(mine.body.calls[2]).toEqual({
      id: answered,
      callId: answered,
      calleeName: p.seller.shopName,
      participantName: p.seller.shopName,
      participantId: p.seller.id,
      isIncoming: false,
      status: 'ended',
      createdAt: expect.any(String),
      answeredAt: expect.any(String),
      endedAt: expect.any(String),
      durationSeconds: 65,
      product: null,
    });

    const theirs = await p.asSeller.get<CallHistoryResponse>('/_api/calls/history');
    expect(theirs.body.calls.map((c) => c.callId)).toEqual([missed, declined, answered]);
    expect(theirs.body.calls[2]).toMatchObject({
      calleeName: p.seller.shopName,
      participantName: p.customer.displayName,
      participantId: p.customer.id,
      isIncoming: true,
      durationSeconds: 65,
    });

    const stranger = await signIn(api, await buildUser(api.db.knex));
    expect((await stranger.get<CallHistoryResponse>('/_api/calls/history')).body.calls).toEqual([]);
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    const adminHistory = await admin.get<CallHistoryResponse>('/_api/calls/history');
    expect(adminHistory.status).toBe(200);
    expect(adminHistory.body.calls).toEqual([]);
    expect((await api.client().get('/_api/calls/history')).status).toBe(401);
  });
});
