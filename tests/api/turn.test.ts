import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILY_GUEST_HEADER, type FamilyAskResponse } from '../../api/contract/call-family';
import type { IceServersResponse, P2pVideoTokenResponse } from '../../api/contract/video';
import { loadConfig } from '../../api/src/config';
import { buildUser } from '../factories';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { startTestApi, type TestApi } from '../support/api';
import { activeCall, callParties, placeCall, signIn } from './calls-support';

const SECRET = crypto.randomBytes(24).toString('hex');
const TURN_URLS = ['turn:relay.nagai.test:3478?transport=udp', 'turns:relay.nagai.test:5349?transport=tcp'];
const STUN = [{ urls: 'stun:relay.nagai.test:3478' }];

interface Credential {
  urls: string[];
  username: string;
  credential: string;
}

let db: TestDatabase;
let api: TestApi;
beforeAll(async () => {
  db = await createTestDatabase();
  api = await startTestApi({
    db,
    env: {
      ICE_SERVERS: JSON.stringify(STUN),
      TURN_URLS: TURN_URLS.join(', '),
      TURN_SECRET: SECRET,
      TURN_CREDENTIAL_TTL_SECONDS: '900',
    },
  });
});
afterAll(async () => {
  await api?.close();
});

const relayOf = (token: P2pVideoTokenResponse) => {
  expect(token.iceServers).toHaveLength(2);
  expect(token.iceServers[0]).toEqual(STUN[0]);
  return token.iceServers[1] as Credential;
};

describe('TURN credentials for our own relay', () => {
  it('gives each participant of an active call their own credential in the TURN REST scheme', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const before = Math.floor(api.clock.now().getTime() / 1000);
    const mine = relayOf(
      (await p.asCustomer.get<P2pVideoTokenResponse>(`/_api/video/token?callId=${callId}`)).body,
    );
    const theirs = relayOf(
      (await p.asSeller.get<P2pVideoTokenResponse>(`/_api/video/token?callId=${callId}`)).body,
    );

    for (const [cred, userId] of [
      [mine, p.customer.id],
      [theirs, p.seller.id],
    ] as const) {
      expect(cred.urls).toEqual(TURN_URLS);
      const [expiry, user] = cred.username.split(':');
      expect(user).toBe(`c${callId}u${userId}`);
      // Valid for the configured life from now, no longer.
      expect(Number(expiry) - before).toBeGreaterThanOrEqual(900);
      expect(Number(expiry) - before).toBeLessThanOrEqual(902);
      // coturn's use-auth-secret check: base64(HMAC-SHA1(secret, username)).
      expect(cred.credential).toBe(crypto.createHmac('sha1', SECRET).update(cred.username).digest('base64'));
      expect(cred.credential).not.toBe(
        crypto.createHmac('sha1', 'another-secret-entirely').update(cred.username).digest('base64'),
      );
    }
    expect(mine.username).not.toBe(theirs.username);
  });

  it('follows the server clock, so a credential minted later expires later', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const first = relayOf(
      (await p.asCustomer.get<P2pVideoTokenResponse>(`/_api/video/token?callId=${callId}`)).body,
    );
    api.clock.advance(120_000);
    const later = relayOf(
      (await p.asCustomer.get<P2pVideoTokenResponse>(`/_api/video/token?callId=${callId}`)).body,
    );
    const expiryOf = (c: Credential) => Number(c.username.split(':')[0]);
    expect(expiryOf(later) - expiryOf(first)).toBeGreaterThanOrEqual(119);
    expect(expiryOf(later) - expiryOf(first)).toBeLessThanOrEqual(122);
  });

  it('mints nothing for strangers, ringing or ended calls', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const ringing = await p.asCustomer.get(`/_api/video/token?callId=${callId}`);
    expect(ringing.status).toBe(409);
    expect(JSON.stringify(ringing.body)).not.toContain('credential');
    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    const stranger = await signIn(api, await buildUser(db.knex));
    const res = await stranger.get(`/_api/video/token?callId=${callId}`);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('credential');
    await p.asCustomer.post('/_api/call/end', { callId });
    const ended = await p.asSeller.get(`/_api/video/token?callId=${callId}`);
    expect(ended.status).toBe(409);
    expect(JSON.stringify(ended.body)).not.toContain('credential');
  });
});

describe('TURN configuration', () => {
  it('needs nothing by default, a secret with relay URLs, and turn: or turns: URLs only', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).video.turn).toBeUndefined();
    expect(() => loadConfig({ NODE_ENV: 'test', TURN_URLS: 'turn:relay.nagai.test:3478' })).toThrow(
      /TURN_SECRET/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'test', TURN_URLS: 'http://relay.nagai.test', TURN_SECRET: SECRET }),
    ).toThrow(/TURN_URLS/);
    expect(() =>
      loadConfig({ NODE_ENV: 'test', TURN_URLS: 'turn:relay.nagai.test', TURN_SECRET: 'short' }),
    ).toThrow(/TURN_SECRET/);
    expect(
      loadConfig({ NODE_ENV: 'test', TURN_URLS: 'turn:relay.nagai.test:3478', TURN_SECRET: SECRET }).video
        .turn,
    ).toEqual({ urls: ['turn:relay.nagai.test:3478'], secret: SECRET, ttlSeconds: 3600 });
  });
});

describe('GET /_api/video/ice-servers: both sides prepare while the call rings', () => {
  it('gives each participant of a ringing call its own relay credential, and nobody else', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const res = await p.asCustomer.get<{ iceServers: unknown[] }>(`/_api/video/ice-servers?callId=${callId}`);
    expect(res.status).toBe(200);
    expect(res.body.iceServers[0]).toEqual(STUN[0]);
    const relay = res.body.iceServers[1] as Credential;
    expect(relay.urls).toEqual(TURN_URLS);
    expect(relay.username).toMatch(new RegExp(`^\\d+:c${callId}u${p.customer.id}$`));
    expect(relay.credential).toBe(crypto.createHmac('sha1', SECRET).update(relay.username).digest('base64'));

    // The seller whose phone rings allocates its relay before picking up, with a credential of its own, for
    // the ring only; strangers get nothing at all.
    const seller = await p.asSeller.get<{ iceServers: unknown[]; ttlSeconds: number }>(
      `/_api/video/ice-servers?callId=${callId}`,
    );
    expect(seller.status).toBe(200);
    const sellerRelay = seller.body.iceServers[1] as Credential;
    expect(sellerRelay.username).toMatch(new RegExp(`^\\d+:c${callId}u${p.seller.id}$`));
    expect(sellerRelay.credential).toBe(
      crypto.createHmac('sha1', SECRET).update(sellerRelay.username).digest('base64'),
    );
    expect(seller.body.ttlSeconds).toBeLessThanOrEqual(46);
    // Another seller's phone is not ringing with it.
    const otherSeller = await callParties(api);
    expect((await otherSeller.asSeller.get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(404);
    const stranger = await signIn(api, await buildUser(db.knex));
    expect((await stranger.get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(404);
    expect((await api.client().get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(401);

    // Answered: both participants; over: nobody.
    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    expect((await p.asSeller.get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(200);
    await p.asCustomer.post('/_api/call/end', { callId });
    for (const client of [p.asCustomer, p.asSeller]) {
      const over = await client.get(`/_api/video/ice-servers?callId=${callId}`);
      expect(over.status).toBe(409);
      expect(over.body).toEqual({ error: 'This call is over.', code: 'call_not_active' });
    }
    expect((await p.asCustomer.get('/_api/video/ice-servers?callId=abc')).status).toBe(400);
  });

  it('hands the caller its ring-time servers with the call itself', async () => {
    const p = await callParties(api);
    const res = await p.asCustomer.post<{ callId: number; iceServers?: unknown[] }>('/_api/call/initiate', {
      sellerId: p.seller.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.iceServers?.[0]).toEqual(STUN[0]);
    const relay = res.body.iceServers?.[1] as Credential;
    expect(relay.username).toMatch(new RegExp(`^\\d+:c${res.body.callId}u${p.customer.id}$`));
    expect(relay.credential).toBe(crypto.createHmac('sha1', SECRET).update(relay.username).digest('base64'));
    const expiry = Number(relay.username.split(':')[0]);
    expect(expiry - Math.floor(api.clock.now().getTime() / 1000)).toBeLessThanOrEqual(46);
  });

  it('gives nothing for a call whose ring timed out, though nobody marked it missed yet', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    api.clock.advance(31_000);
    for (const client of [p.asCustomer, p.asSeller]) {
      const late = await client.get(`/_api/video/ice-servers?callId=${callId}`);
      expect(late.status).toBe(409);
      expect(late.body).toEqual({ error: 'This call is over.', code: 'call_not_active' });
    }
  });
});

describe('relay credentials live no longer than their purpose (#34)', () => {
  const expiryOf = (body: { iceServers: unknown[] }) =>
    Number((body.iceServers[1] as Credential).username.split(':')[0]);

  it('gives a ringing call’s caller credentials for the rest of the ring only; an accepted call’s participants the configured life, renewed while it lives', async () => {
    const p = await callParties(api);
    const callId = await placeCall(p);
    const now = () => Math.floor(api.clock.now().getTime() / 1000);
    const ringing = await p.asCustomer.get<{ iceServers: unknown[]; ttlSeconds?: number }>(
      `/_api/video/ice-servers?callId=${callId}`,
    );
    expect(ringing.status).toBe(200);
    // The ring lasts CALL_RING_TIMEOUT_MS (30 s): the credential lives about that long (plus 15 s), not an hour.
    const ringLife = expiryOf(ringing.body) - now();
    expect(ringLife).toBeGreaterThan(0);
    expect(ringLife).toBeLessThanOrEqual(46);
    expect(ringing.body.ttlSeconds).toBeLessThanOrEqual(46);

    await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' });
    for (const client of [p.asCustomer, p.asSeller]) {
      const live = await client.get<{ iceServers: unknown[]; ttlSeconds?: number }>(
        `/_api/video/ice-servers?callId=${callId}`,
      );
      expect(live.status).toBe(200);
      expect(live.body.ttlSeconds).toBe(900);
      expect(expiryOf(live.body) - now()).toBeGreaterThanOrEqual(899);
    }
    // Later in the call, a renewal runs from then.
    api.clock.advance(600_000);
    const renewed = await p.asCustomer.get<{ iceServers: unknown[] }>(
      `/_api/video/ice-servers?callId=${callId}`,
    );
    expect(expiryOf(renewed.body) - now()).toBeGreaterThanOrEqual(899);
    await p.asCustomer.post('/_api/call/end', { callId });
    expect((await p.asCustomer.get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(409);
  });

  it('bounds the ICE endpoint per user (ICE_SERVERS_LIMIT_PER_USER_PER_MINUTE, default 20)', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    let ok = 0;
    let refused: { status: number; body: { code?: string } } | undefined;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await p.asCustomer.get<{ code?: string }>(`/_api/video/ice-servers?callId=${callId}`);
      if (res.status === 200) ok++;
      else refused = res;
    }
    expect(ok).toBe(20);
    expect(refused?.status).toBe(429);
    expect(refused?.body.code).toBe('too_many_ice_requests');
    // The other participant has their own bound.
    expect((await p.asSeller.get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(200);
    api.clock.advance(61_000);
    expect((await p.asCustomer.get(`/_api/video/ice-servers?callId=${callId}`)).status).toBe(200);
  });
});

describe('GET /_api/family/ice-servers: a family guest’s own relay credential (§21.6)', () => {
  /** An active call, a guest who asked with a link, and the guest's token. */
  async function guestOfCall() {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const link = await p.asCustomer.post<{ token: string }>('/_api/family/invite', { callId });
    expect(link.status).toBe(201);
    const asked = await api
      .client()
      .post<FamilyAskResponse>('/_api/family/ask', { token: link.body.token, name: 'Amma' });
    expect(asked.status).toBe(201);
    const guest = api.client();
    const headers = { [FAMILY_GUEST_HEADER]: asked.body.guestToken };
    const ice = () => guest.get<IceServersResponse & { code?: string }>('/_api/family/ice-servers', headers);
    const admit = () =>
      p.asSeller.post('/_api/family/decide', { callId, guestId: asked.body.guestId, action: 'admit' });
    return { p, callId, guestId: asked.body.guestId, ice, admit };
  }

  it('gives an admitted guest the static servers and a credential of their own, for this call, expiring', async () => {
    const { callId, guestId, ice, admit } = await guestOfCall();
    // Before the jeweller's Admit: nothing.
    const early = await ice();
    expect([early.status, early.body.code]).toEqual([403, 'family_not_admitted']);
    expect((await admit()).status).toBe(200);
    const before = Math.floor(api.clock.now().getTime() / 1000);
    const res = await ice();
    expect(res.status).toBe(200);
    expect(res.body.ttlSeconds).toBe(900);
    expect(res.body.iceServers[0]).toEqual(STUN[0]);
    const cred = res.body.iceServers[1] as Credential;
    expect(cred.urls).toEqual(TURN_URLS);
    const [expiry, who] = cred.username.split(':');
    expect(who).toBe(`c${callId}g${guestId}`);
    expect(Number(expiry) - before).toBeGreaterThanOrEqual(900);
    expect(Number(expiry) - before).toBeLessThanOrEqual(902);
    expect(cred.credential).toBe(crypto.createHmac('sha1', SECRET).update(cred.username).digest('base64'));
  });

  it('mints nothing without a guest’s token, once the guest is out, or once the call is over', async () => {
    expect((await api.client().get('/_api/family/ice-servers')).status).toBe(401);
    expect(
      (await api.client().get('/_api/family/ice-servers', { [FAMILY_GUEST_HEADER]: 'A'.repeat(43) })).status,
    ).toBe(401);

    const removed = await guestOfCall();
    await removed.admit();
    expect((await removed.ice()).status).toBe(200);
    await removed.p.asSeller.post('/_api/family/decide', {
      callId: removed.callId,
      guestId: removed.guestId,
      action: 'remove',
    });
    expect((await removed.ice()).body.code).toBe('family_not_admitted');

    const ended = await guestOfCall();
    await ended.admit();
    await ended.p.asCustomer.post('/_api/call/end', { callId: ended.callId });
    const over = await ended.ice();
    expect([over.status, over.body.code]).toEqual([409, 'family_call_not_live']);
  });

  it('bounds a guest like a participant (ICE_SERVERS_LIMIT_PER_USER_PER_MINUTE)', async () => {
    const { ice, admit } = await guestOfCall();
    await admit();
    let ok = 0;
    let refused: { status: number; body: { code?: string } } | undefined;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await ice();
      if (res.status === 200) ok++;
      else refused = res;
    }
    expect(ok).toBe(20);
    expect([refused?.status, refused?.body.code]).toEqual([429, 'too_many_ice_requests']);
    api.clock.advance(61_000);
    expect((await ice()).status).toBe(200);
  });
});
