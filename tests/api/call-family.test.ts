import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAMILY_GUEST_GONE_MS,
  FAMILY_GUEST_HEADER,
  FAMILY_GUEST_SEEN_EVERY_MS,
  FAMILY_MAX_INVITES_PER_CALL,
  FAMILY_MAX_INVITES_PER_DAY,
  FAMILY_MESSAGES,
  type FamilyAskResponse,
  type FamilyGuestResponse,
  type FamilyGuestStateResponse,
  type FamilyInviteResponse,
  type FamilyLikeResponse,
  type FamilyOpenResponse,
  type FamilyStateResponse,
} from '../../api/contract/call-family';
import { buildProduct, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { EventStreamReader } from '../support/sse';
import { activeCall, callParties, placeCall, signIn, type CallParties } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

type Err = { error?: string; code?: string };

const invite = (p: CallParties, callId: number) =>
  p.asCustomer.post<FamilyInviteResponse & Err>('/_api/family/invite', { callId });

/** A guest: a client with no session, and the guest's token once they asked. */
class Guest {
  readonly client: ApiClient = api.client();
  token = '';
  id = 0;
  headers = () => ({ [FAMILY_GUEST_HEADER]: this.token });
  async ask(inviteToken: string, name: string) {
    const res = await this.client.post<FamilyAskResponse & Err>('/_api/family/ask', {
      token: inviteToken,
      name,
    });
    if (res.status === 201) Object.assign(this, { token: res.body.guestToken, id: res.body.guestId });
    return res;
  }
  state = (after = 0, afterItem = 0, afterLike = 0) =>
    this.client.get<FamilyGuestStateResponse & Err>(
      `/_api/family/guest?after=${after}&afterItem=${afterItem}&afterLike=${afterLike}`,
      this.headers(),
    );
  post = <T>(path: string, body: unknown) => this.client.post<T & Err>(path, body, this.headers());
}

/** An active call about a piece, a guest invited and asked, and the jeweller's decision. */
async function withGuest(p: CallParties, callId: number, name: string, admit = true): Promise<Guest> {
  const link = await invite(p, callId);
  expect(link.status).toBe(201);
  const guest = new Guest();
  expect((await guest.ask(link.body.token, name)).status).toBe(201);
  if (admit) {
    const res = await decide(p, callId, guest.id, 'admit');
    expect(res.status).toBe(200);
  }
  return guest;
}
const decide = (p: CallParties, callId: number, guestId: number, action: string) =>
  p.asSeller.post<FamilyGuestResponse & Err>('/_api/family/decide', { callId, guestId, action });

async function callAboutPiece(): Promise<{ p: CallParties; callId: number; productId: number }> {
  const p = await callParties(api);
  const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Kasu mala' });
  const res = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
    sellerId: p.seller.id,
    productId: product.id,
  });
  expect(res.status).toBe(201);
  expect(
    (await p.asSeller.post('/_api/call/respond', { callId: res.body.callId, response: 'accept' })).status,
  ).toBe(200);
  return { p, callId: res.body.callId, productId: product.id };
}

describe('inviting family into a call (§21)', () => {
  it('gives the customer a single-use link that names the shop and the piece, and nothing of the customer', async () => {
    const { p, callId } = await callAboutPiece();
    const link = await invite(p, callId);
    expect(link.status).toBe(201);
    expect(link.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.body.path).toBe(`/family/${link.body.token}`);
    expect(link.body.productName).toBe('Kasu mala');
    // Only the hash is stored.
    const row = await api.db.knex('call_guests').where('id', link.body.guestId).first();
    expect(JSON.stringify(row)).not.toContain(link.body.token);

    const opened = await api
      .client()
      .post<FamilyOpenResponse>('/_api/family/open', { token: link.body.token });
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({ shopName: link.body.shopName, productName: 'Kasu mala', link: 'open' });

    const first = new Guest();
    expect((await first.ask(link.body.token, '  Amma  ')).status).toBe(201);
    const second = new Guest();
    const again = await second.ask(link.body.token, 'Someone else');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(FAMILY_MESSAGES.linkUsed);
    expect(
      (await api.client().post<FamilyOpenResponse>('/_api/family/open', { token: link.body.token })).body
        .link,
    ).toBe('used');
    // A guessed token is not found; a malformed one is a bad request.
    const guessed = await api.client().post<Err>('/_api/family/open', { token: 'A'.repeat(43) });
    expect(guessed.status).toBe(404);
    expect((await api.client().post('/_api/family/open', { token: 'short' })).status).toBe(400);

    // Waiting, the guest sees no one and nothing of the call.
    const waiting = await first.state();
    expect(waiting.body).toMatchObject({
      state: 'asked',
      callLive: true,
      members: [],
      items: [],
      signals: [],
    });
    expect(JSON.stringify(waiting.body)).not.toContain(p.customer.email);
  });

  it('lets only the call’s customer invite, only while the call is on, within the limits', async () => {
    const p = await callParties(api);
    const ringing = await placeCall(p);
    expect((await invite(p, ringing)).body.code).toBe('family_call_not_live');
    await p.asSeller.post('/_api/call/respond', { callId: ringing, response: 'accept' });
    expect((await p.asSeller.post('/_api/family/invite', { callId: ringing })).status).toBe(403);
    const other = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    expect((await other.post('/_api/family/invite', { callId: ringing })).status).toBe(404);
    expect((await api.client().post('/_api/family/invite', { callId: ringing })).status).toBe(401);

    for (let i = 0; i < FAMILY_MAX_INVITES_PER_CALL; i++) expect((await invite(p, ringing)).status).toBe(201);
    const over = await invite(p, ringing);
    expect([over.status, over.body.error]).toEqual([409, FAMILY_MESSAGES.tooManyInvites]);

    // Per customer per day, over all calls.
    const made = FAMILY_MAX_INVITES_PER_CALL;
    const calls: number[] = [];
    await p.asCustomer.post('/_api/call/end', { callId: ringing });
    let left = FAMILY_MAX_INVITES_PER_DAY - made;
    while (left > 0) {
      const callId = await activeCall(p);
      calls.push(callId);
      for (let i = 0; i < Math.min(left, FAMILY_MAX_INVITES_PER_CALL); i++)
        expect((await invite(p, callId)).status).toBe(201);
      left -= Math.min(left, FAMILY_MAX_INVITES_PER_CALL);
      if (left > 0) await p.asCustomer.post('/_api/call/end', { callId });
    }
    const today = await invite(p, calls[calls.length - 1]!);
    expect([today.status, today.body.error]).toEqual([429, FAMILY_MESSAGES.tooManyToday]);
  });

  it('keeps a guest out until the jeweller admits, and lets the jeweller decline or remove', async () => {
    const { p, callId } = await callAboutPiece();
    const events = await EventStreamReader.open(p.asSeller);
    try {
      const amma = await withGuest(p, callId, 'Amma', false);
      await events.waitFor((e) => e.event === 'family' && (e.data as { what: string }).what === 'guest');
      const list = await p.asSeller.get<FamilyStateResponse>(`/_api/family/state?callId=${callId}`);
      expect(list.body.guests).toEqual([
        expect.objectContaining({ id: amma.id, name: 'Amma', state: 'asked' }),
      ]);
      // Not admitted: no signalling, no likes.
      const early = await amma.post('/_api/family/signal', {
        callId,
        to: `u${p.seller.id}`,
        kind: 'offer',
        payload: { sdp: 'x' },
      });
      expect(early.status).toBe(403);
      // Only the call's jeweller decides; the customer cannot let anyone in.
      expect(
        (await p.asCustomer.post('/_api/family/decide', { callId, guestId: amma.id, action: 'admit' }))
          .status,
      ).toBe(403);
      expect((await decide(p, callId, amma.id, 'admit')).body.guest.state).toBe('admitted');
      expect((await decide(p, callId, amma.id, 'admit')).status).toBe(409);
      const sister = await withGuest(p, callId, 'Akka', false);
      expect((await decide(p, callId, sister.id, 'decline')).body.guest.state).toBe('declined');
      expect((await sister.state()).body).toMatchObject({ state: 'declined', members: [] });
      expect((await decide(p, callId, amma.id, 'remove')).body.guest.state).toBe('removed');
      expect((await amma.state()).body).toMatchObject({ state: 'removed', members: [] });
    } finally {
      events.close();
    }
  });

  it('holds five people at most: three guests', async () => {
    const { p, callId } = await callAboutPiece();
    for (const name of ['Amma', 'Akka', 'Anna']) await withGuest(p, callId, name);
    const fourth = await withGuest(p, callId, 'Chithi', false);
    const full = await decide(p, callId, fourth.id, 'admit');
    expect([full.status, full.body.error]).toEqual([409, FAMILY_MESSAGES.callFull]);
  });
});

describe('a guest in the call (§21)', () => {
  it('sees everyone and what is shown, likes a shown piece for the customer and the jeweller, and cannot buy', async () => {
    const { p, callId, productId } = await callAboutPiece();
    const amma = await withGuest(p, callId, 'Amma');
    const akka = await withGuest(p, callId, 'Akka');
    const shown = await buildProduct(api.db.knex, p.seller.id, { name: 'Jhumka' });
    expect((await p.asSeller.post('/_api/call/share', { callId, productIds: [shown.id] })).status).toBe(201);

    const seen = await amma.state();
    expect(seen.status).toBe(200);
    expect(seen.body.members.map((m) => [m.role, m.party])).toEqual([
      ['customer', `u${p.customer.id}`],
      ['jeweller', `u${p.seller.id}`],
      ['guest', `g${amma.id}`],
      ['guest', `g${akka.id}`],
    ]);
    // The customer's first name only; no e-mail, no address, no orders.
    expect(seen.body.members[0]!.name).toBe(p.customer.displayName.split(' ')[0]);
    expect(JSON.stringify(seen.body)).not.toContain(p.customer.email);
    expect(seen.body.items.map((i) => i.kind === 'product' && i.product.name)).toEqual(['Jhumka']);

    const customerEvents = await EventStreamReader.open(p.asCustomer);
    try {
      const like = await amma.post<FamilyLikeResponse>('/_api/family/like', {
        productId: shown.id,
        kind: 'like',
      });
      expect(like.status).toBe(201);
      expect(like.body.like).toMatchObject({ guestName: 'Amma', productName: 'Jhumka', kind: 'like' });
      await customerEvents.waitFor(
        (e) => e.event === 'family' && (e.data as { what: string }).what === 'like',
      );
      for (const who of [p.asCustomer, p.asSeller]) {
        const state = await who.get<FamilyStateResponse>(`/_api/family/state?callId=${callId}`);
        expect(state.body.likes.map((l) => [l.guestName, l.productId, l.kind])).toEqual([
          ['Amma', shown.id, 'like'],
        ]);
      }
      // The call's own piece can be liked too; a piece never shown cannot.
      expect((await akka.post('/_api/family/like', { productId, kind: 'heart' })).status).toBe(201);
      const never = await buildProduct(api.db.knex, p.seller.id);
      expect(
        (await akka.post<Err>('/_api/family/like', { productId: never.id, kind: 'like' })).body.error,
      ).toBe(FAMILY_MESSAGES.notShown);
    } finally {
      customerEvents.close();
    }
    // The sale stays with the customer: a guest holds nothing, adds nothing to a cart, buys nothing.
    expect((await amma.post('/_api/holds', { callId, productId: shown.id })).status).toBe(401);
    expect((await amma.post('/_api/cart/add', { productId: shown.id, quantity: 1 })).status).toBe(401);
    expect((await amma.post('/_api/checkout/create', {})).status).toBe(401);
    expect((await amma.client.get('/_api/orders/customer')).status).toBe(401);
    // Nor reads the participants' own routes.
    expect((await amma.client.get(`/_api/family/state?callId=${callId}`)).status).toBe(401);
  });

  it('relays mesh signals to one party of the same call only, by the event stream to the customer', async () => {
    const { p, callId } = await callAboutPiece();
    const amma = await withGuest(p, callId, 'Amma');
    const akka = await withGuest(p, callId, 'Akka');
    const events = await EventStreamReader.open(p.asCustomer);
    try {
      const sent = await amma.post<{ id: number }>('/_api/family/signal', {
        callId,
        to: `u${p.customer.id}`,
        kind: 'offer',
        payload: { sdp: 'amma-offer' },
      });
      expect(sent.status).toBe(201);
      await events.waitFor((e) => e.event === 'family' && (e.data as { what: string }).what === 'signal');
      const mine = await p.asCustomer.get<FamilyStateResponse>(`/_api/family/state?callId=${callId}`);
      expect(mine.body.me).toBe(`u${p.customer.id}`);
      expect(mine.body.signals).toEqual([
        { id: sent.body.id, from: `g${amma.id}`, kind: 'offer', payload: { sdp: 'amma-offer' } },
      ]);
      // Not to the jeweller, not doubled after the cursor.
      expect(
        (await p.asSeller.get<FamilyStateResponse>(`/_api/family/state?callId=${callId}`)).body.signals,
      ).toEqual([]);
      expect(
        (
          await p.asCustomer.get<FamilyStateResponse>(
            `/_api/family/state?callId=${callId}&after=${sent.body.id}`,
          )
        ).body.signals,
      ).toEqual([]);
      // The customer answers; guest to guest goes through too.
      await p.asCustomer.post('/_api/family/signal', {
        callId,
        to: `g${amma.id}`,
        kind: 'answer',
        payload: { a: 1 },
      });
      await akka.post('/_api/family/signal', { callId, to: `g${amma.id}`, kind: 'offer', payload: { b: 2 } });
      const got = await amma.state();
      expect(got.body.signals.map((s) => [s.from, s.kind])).toEqual([
        [`u${p.customer.id}`, 'answer'],
        [`g${akka.id}`, 'offer'],
      ]);
      // Nobody outside the call: another call's guest, a party not in this call, the customer–jeweller link.
      const other = await callAboutPiece();
      const stranger = await withGuest(other.p, other.callId, 'Stranger');
      const outside = await stranger.post('/_api/family/signal', {
        callId,
        to: `g${amma.id}`,
        kind: 'offer',
        payload: {},
      });
      expect(outside.status).toBe(404);
      const notIn = await amma.post('/_api/family/signal', {
        callId,
        to: `g${stranger.id}`,
        kind: 'offer',
        payload: {},
      });
      expect(notIn.status).toBe(400);
      const direct = await p.asCustomer.post('/_api/family/signal', {
        callId,
        to: `u${p.seller.id}`,
        kind: 'offer',
        payload: {},
      });
      expect(direct.status).toBe(400);
    } finally {
      events.close();
    }
  });

  it('a guest leaving or going silent leaves the others in; the customer ending ends every guest’s part', async () => {
    const { p, callId } = await callAboutPiece();
    const amma = await withGuest(p, callId, 'Amma');
    const akka = await withGuest(p, callId, 'Akka');
    const anna = await withGuest(p, callId, 'Anna');
    expect((await akka.post<FamilyGuestResponse>('/_api/family/leave', {})).body.guest.state).toBe('left');
    // Anna's network is lost: after the silence she has left; Amma, whose page still asks, is in.
    api.clock.advance(FAMILY_GUEST_GONE_MS / 2);
    await amma.state();
    api.clock.advance(FAMILY_GUEST_GONE_MS / 2 + 1_000);
    const left = await amma.state();
    expect(left.body.members.map((m) => m.name)).toEqual([expect.any(String), expect.any(String), 'Amma']);
    const states = (await p.asSeller.get<FamilyStateResponse>(`/_api/family/state?callId=${callId}`)).body
      .guests;
    expect(states.map((g) => [g.name, g.state])).toEqual([
      ['Amma', 'admitted'],
      ['Akka', 'left'],
      ['Anna', 'left'],
    ]);
    expect((await anna.state()).body.state).toBe('left');
    // The customer ends the call: the guest's part is over, and the link too.
    expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
    const over = await amma.state();
    expect(over.body).toMatchObject({ callLive: false, members: [], items: [] });
    expect((await amma.post('/_api/family/like', { productId: 1, kind: 'like' })).status).toBe(409);
  });
});

describe('a guest’s poll (§21.5)', () => {
  /** The statements the API runs while `run` does. */
  async function statements(run: () => Promise<unknown>): Promise<string[]> {
    const db = api.handle.deps.db;
    const seen: string[] = [];
    const onQuery = (q: { sql: string }) => seen.push(q.sql);
    db.on('query', onQuery);
    try {
      await run();
    } finally {
      db.removeListener('query', onQuery);
    }
    return seen;
  }

  it('answers only what is new since the page’s cursors, in one statement when nothing is', async () => {
    const { p, callId, productId } = await callAboutPiece();
    const amma = await withGuest(p, callId, 'Amma');
    const akka = await withGuest(p, callId, 'Akka');
    const shown = await buildProduct(api.db.knex, p.seller.id, { name: 'Jhumka' });
    await p.asSeller.post('/_api/call/share', { callId, productIds: [shown.id] });
    await p.asCustomer.post('/_api/call/message', { callId, text: 'Amma, this one?' });
    await akka.post('/_api/family/like', { productId: shown.id, kind: 'heart' });
    await p.asCustomer.post('/_api/family/signal', {
      callId,
      to: `g${amma.id}`,
      kind: 'offer',
      payload: { sdp: 'x' },
    });

    const first = await amma.state();
    expect(first.body.piece?.id).toBe(productId);
    expect(first.body.items.map((i) => i.kind)).toEqual(['product', 'message']);
    expect(first.body.likes.map((l) => l.guestName)).toEqual(['Akka']);
    expect(first.body.signals.map((s) => s.payload)).toEqual([{ sdp: 'x' }]);
    const cursors = [
      Math.max(...first.body.signals.map((s) => s.id)),
      Math.max(...first.body.items.map((i) => i.id)),
      Math.max(...first.body.likes.map((l) => l.id)),
    ] as const;

    // Idle: nothing new, the members and the piece as before, one statement a poll.
    const polls = 10;
    const idle: FamilyGuestStateResponse[] = [];
    const sql = await statements(async () => {
      for (let i = 0; i < polls; i++) idle.push((await amma.state(...cursors)).body);
    });
    expect(sql.length).toBeLessThanOrEqual(polls);
    for (const body of idle) {
      expect(body).toMatchObject({ state: 'admitted', callLive: true, items: [], likes: [], signals: [] });
      expect(body.members.map((m) => m.name)).toEqual(first.body.members.map((m) => m.name));
      expect(body.piece?.id).toBe(productId);
    }

    // Something new: only that comes, and only its reading is added.
    await akka.post('/_api/family/like', { productId, kind: 'like' });
    let next: FamilyGuestStateResponse | undefined;
    const onLike = await statements(async () => (next = (await amma.state(...cursors)).body));
    expect(next!.likes.map((l) => [l.guestName, l.kind])).toEqual([['Akka', 'like']]);
    expect(next!.items).toEqual([]);
    expect(onLike.length).toBe(2);
    await p.asSeller.post('/_api/call/message', { callId, text: 'Twenty-two carat' });
    const onItem = await amma.state(...cursors);
    expect(onItem.body.items.map((i) => i.kind === 'message' && i.text)).toEqual(['Twenty-two carat']);
  });

  it('marks the guest still there at most every few seconds, not every poll', async () => {
    const { p, callId } = await callAboutPiece();
    const amma = await withGuest(p, callId, 'Amma');
    await amma.state();
    const seenAt = async () =>
      new Date(
        ((await api.db.knex('call_guests').where('id', amma.id).first('seen_at')) as { seen_at: Date })
          .seen_at,
      ).getTime();
    const before = await seenAt();
    api.clock.advance(FAMILY_GUEST_SEEN_EVERY_MS - 1_000);
    const quiet = await statements(() => amma.state());
    expect(quiet.filter((s) => s.startsWith('update'))).toEqual([]);
    expect(await seenAt()).toBe(before);
    api.clock.advance(1_000);
    const marked = await statements(() => amma.state());
    expect(marked.filter((s) => s.startsWith('update')).length).toBe(2);
    expect(await seenAt()).toBeGreaterThanOrEqual(before + FAMILY_GUEST_SEEN_EVERY_MS);
  });
});
