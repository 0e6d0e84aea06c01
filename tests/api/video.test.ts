import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VIDEO_CONNECTION_MESSAGES,
  VIDEO_ERRORS,
  mapVideoError,
  type P2pVideoTokenResponse,
  type TwilioVideoTokenResponse,
} from '../../api/contract/video';
import { buildSeller, buildUser } from '../factories';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startTestApi, type TestApi } from '../support/api';
import { activeCall, callParties, placeCall, signIn } from './calls-support';

const TWILIO = {
  TWILIO_ACCOUNT_SID: `AC${crypto.randomBytes(16).toString('hex')}`,
  TWILIO_API_KEY_SID: `SK${crypto.randomBytes(16).toString('hex')}`,
  TWILIO_API_KEY_SECRET: crypto.randomBytes(24).toString('hex'),
};
const ICE = [{ urls: 'stun:stun.example.test:3478' }];

// Two servers on one database, as two deployments would be: p2p (with ICE servers) and Twilio.
let db: TestDatabase;
let p2p: TestApi;
let twilio: TestApi;
beforeAll(async () => {
  db = await createTestDatabase();
  p2p = await startTestApi({ db, env: { ICE_SERVERS: JSON.stringify(ICE) } });
  twilio = await startTestApi({ db, env: TWILIO });
});
afterAll(async () => {
  // Each close also closes the shared database; the second one finds it closed already.
  await twilio?.close().catch(() => undefined);
  await p2p?.close().catch(() => undefined);
});

const b64urlJson = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('GET /_api/video/token (p2p)', () => {
  it('gives each participant of an active call the room, identity and ICE servers', async () => {
    const p = await callParties(p2p);
    const callId = await activeCall(p);
    const mine = await p.asCustomer.get<P2pVideoTokenResponse>(`/_api/video/token?callId=${callId}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      provider: 'p2p',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      roomName: `nagai-call-${callId}`,
      identity: `user-${p.customer.id}`,
      iceServers: ICE,
    });
    const theirs = await p.asSeller.get<P2pVideoTokenResponse>(`/_api/video/token?callId=${callId}`);
    expect(theirs.body).toMatchObject({ roomName: `nagai-call-${callId}`, identity: `user-${p.seller.id}` });
  });

  it('gives no token to strangers, to calls that are not active, or without a session', async () => {
    const p = await callParties(p2p);
    const callId = await placeCall(p);
    const ringing = await p.asCustomer.get(`/_api/video/token?callId=${callId}`);
    expect(ringing.status).toBe(409);
    expect(ringing.body).toEqual({
      error: 'Video is only available while the call is active.',
      code: 'call_not_active',
    });

    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    const stranger = await signIn(p2p, await buildUser(db.knex));
    const otherSeller = await signIn(p2p, await buildSeller(db.knex));
    for (const client of [stranger, otherSeller]) {
      const res = await client.get(`/_api/video/token?callId=${callId}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: 'Call not found.' });
      expect(res.body).not.toHaveProperty('token');
    }
    expect((await p2p.client().get(`/_api/video/token?callId=${callId}`)).status).toBe(401);

    await p.asCustomer.post('/_api/call/end', { callId });
    const ended = await p.asSeller.get(`/_api/video/token?callId=${callId}`);
    expect(ended.status).toBe(409);
    expect(ended.body).not.toHaveProperty('token');
  });

  it('coerces callId from a number and refuses anything else', async () => {
    const p = await callParties(p2p);
    const callId = await activeCall(p);
    expect((await p.asCustomer.get(`/_api/video/token?callId=${callId}.0`)).status).toBe(200);
    for (const q of ['', '?callId=', '?callId=x', '?callId=0', '?callId=2.5']) {
      const res = await p.asCustomer.get(`/_api/video/token${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('callId must be a positive integer.');
    }
  });

  it('cannot serve a Twilio call without Twilio credentials', async () => {
    const p = await callParties(twilio);
    const callId = await activeCall(p);
    const res = await p.asCustomer.get(`/_api/video/token?callId=${callId}`);
    expect(res.status).toBe(200);
    const viaP2p = await (await signIn(p2p, p.customer)).get(`/_api/video/token?callId=${callId}`);
    expect(viaP2p.status).toBe(503);
    expect(viaP2p.body.error).toBe('Video calling is not configured on this server.');
  });
});

describe('GET /_api/video/token (twilio)', () => {
  it('chooses Twilio when the credentials are configured', () => {
    expect(twilio.config.video.provider).toBe('twilio');
    expect(p2p.config.video.provider).toBe('p2p');
  });

  it('issues an HS256 AccessToken JWT with a VideoGrant for the call room, per-user identity, short TTL', async () => {
    const p = await callParties(twilio);
    const callId = await activeCall(p);
    expect((await db.knex('calls').where({ id: callId }).first('provider')).provider).toBe('twilio');
    const res = await p.asCustomer.get<TwilioVideoTokenResponse>(`/_api/video/token?callId=${callId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'twilio',
      roomName: `nagai-call-${callId}`,
      identity: `user-${p.customer.id}`,
    });

    const [h, pl, sig] = res.body.token.split('.');
    const header = b64urlJson(h);
    expect(header).toMatchObject({ alg: 'HS256', typ: 'JWT', cty: 'twilio-fpa;v=1' });
    const expected = crypto.createHmac('sha256', TWILIO.TWILIO_API_KEY_SECRET).update(`${h}.${pl}`).digest();
    expect(crypto.timingSafeEqual(Buffer.from(sig, 'base64url'), expected)).toBe(true);
    const wrong = crypto.createHmac('sha256', 'not-the-secret').update(`${h}.${pl}`).digest();
    expect(Buffer.from(sig, 'base64url').equals(wrong)).toBe(false);

    const payload = b64urlJson(pl) as {
      iss: string;
      sub: string;
      iat: number;
      exp: number;
      jti: string;
      grants: { identity: string; video: { room: string } };
    };
    expect(payload.iss).toBe(TWILIO.TWILIO_API_KEY_SID);
    expect(payload.sub).toBe(TWILIO.TWILIO_ACCOUNT_SID);
    expect(payload.grants).toEqual({
      identity: `user-${p.customer.id}`,
      video: { room: `nagai-call-${callId}` },
    });
    expect(payload.exp - payload.iat).toBeGreaterThan(0);
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(3600);
    expect(Math.abs(payload.iat - Date.now() / 1000)).toBeLessThan(60);
    expect(res.body.ttlSeconds).toBe(payload.exp - payload.iat);

    const seller = await p.asSeller.get<TwilioVideoTokenResponse>(`/_api/video/token?callId=${callId}`);
    const sellerGrants = (b64urlJson(seller.body.token.split('.')[1]) as typeof payload).grants;
    expect(sellerGrants).toEqual({
      identity: `user-${p.seller.id}`,
      video: { room: `nagai-call-${callId}` },
    });
  });

  it('gives no Twilio token to non-participants or to calls that are not active', async () => {
    const p = await callParties(twilio);
    const callId = await placeCall(p);
    const ringing = await p.asCustomer.get(`/_api/video/token?callId=${callId}`);
    expect(ringing.status).toBe(409);
    expect(ringing.body).not.toHaveProperty('token');
    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    const stranger = await signIn(twilio, await buildUser(db.knex));
    const res = await stranger.get(`/_api/video/token?callId=${callId}`);
    expect(res.status).toBe(404);
    expect(res.body).not.toHaveProperty('token');
    await p.asSeller.post('/_api/call/end', { callId });
    expect((await p.asCustomer.get(`/_api/video/token?callId=${callId}`)).status).toBe(409);
  });
});

describe('video error table (contract)', () => {
  it('holds the product rules codes with their exact messages and retry rules', () => {
    expect(Object.keys(VIDEO_ERRORS).map(Number).sort()).toEqual([
      20101, 20104, 53000, 53106, 53113, 53117, 53118, 53405,
    ]);
    expect(VIDEO_ERRORS[20104]).toMatchObject({
      message: 'Your connection token has expired. Attempting to refresh...',
      retryable: true,
      refetchToken: true,
    });
    expect(VIDEO_ERRORS[53113].retryable).toBe(false);
    expect(VIDEO_ERRORS[20101].retryable).toBe(false);
    expect(VIDEO_ERRORS[53117].retryable).toBe(false);
    expect(VIDEO_ERRORS[53405].retryable).toBe(true);
    expect(VIDEO_ERRORS[53000].retryable).toBe(true);
    expect(VIDEO_CONNECTION_MESSAGES.tokenFailed.replace('{reason}', 'x')).toBe(
      'Failed to get video call token: x',
    );
  });

  it('maps provider failures onto the table', () => {
    expect(mapVideoError({ code: 53117, message: 'Room full' })).toMatchObject({
      message: 'The video call is currently full. Please try again later.',
      retryable: false,
    });
    expect(mapVideoError({ message: 'network unreachable' })).toEqual({
      message: 'Network connection issue. Please check your internet connection and try again.',
      retryable: true,
      refetchToken: false,
    });
    expect(mapVideoError({ message: 'ICE gathering timeout' })).toMatchObject({
      message: 'Video call connection failed: ICE gathering timeout',
      retryable: true,
    });
    expect(mapVideoError({ message: 'Permission denied' })).toMatchObject({
      message: 'Video call connection failed: Permission denied',
      retryable: false,
    });
  });
});
