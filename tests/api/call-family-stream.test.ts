import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAMILY_GUEST_HEADER,
  FAMILY_GUEST_TICKET_MS,
  FAMILY_MESSAGES,
  type FamilyAskResponse,
  type FamilyGuestEvent,
  type FamilyGuestTicketResponse,
  type FamilyInviteResponse,
  type FamilySignal,
} from '../../api/contract/call-family';
import { buildProduct } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { EventStreamReader, type ReceivedEvent } from '../support/sse';
import { callParties, type CallParties } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

type Err = { error?: string; code?: string };

/** A guest: a client with no session, its token once it asked, and its stream. */
class Guest {
  readonly client: ApiClient = api.client();
  token = '';
  id = 0;
  headers = () => ({ [FAMILY_GUEST_HEADER]: this.token });
  post = <T>(path: string, body: unknown) => this.client.post<T & Err>(path, body, this.headers());
  ticket = () => this.post<FamilyGuestTicketResponse>('/_api/family/guest/ticket', {});
  /** Opens the stream with a fresh ticket (or the one given). */
  async stream(ticket?: string, after = 0): Promise<EventStreamReader> {
    const t = ticket ?? (await this.ticket()).body.ticket;
    return EventStreamReader.open(this.client, {
      path: `/_api/family/guest/events?ticket=${t}&after=${after}`,
    });
  }
}

async function callWithGuest(name: string): Promise<{ p: CallParties; callId: number; guest: Guest }> {
  const p = await callParties(api);
  const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Kasu mala' });
  const call = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
    sellerId: p.seller.id,
    productId: product.id,
  });
  const callId = call.body.callId;
  expect((await p.asSeller.post('/_api/call/respond', { callId, response: 'accept' })).status).toBe(200);
  const link = await p.asCustomer.post<FamilyInviteResponse>('/_api/family/invite', { callId });
  const guest = new Guest();
  const asked = await guest.client.post<FamilyAskResponse>('/_api/family/ask', {
    token: link.body.token,
    name,
  });
  expect(asked.status).toBe(201);
  Object.assign(guest, { token: asked.body.guestToken, id: asked.body.guestId });
  return { p, callId, guest };
}

const decide = (p: CallParties, callId: number, guestId: number, action: string) =>
  p.asSeller.post('/_api/family/decide', { callId, guestId, action });
const isGuest = (state: string) => (e: ReceivedEvent) =>
  e.event === 'guest' && (e.data as FamilyGuestEvent).state === state;

describe("a guest's event stream (§21.2)", () => {
  it('tells a waiting guest of the admission at once, with who is in and the ICE servers, then the signals to it', async () => {
    const { p, callId, guest } = await callWithGuest('Amma');
    const stream = await guest.stream();
    try {
      expect(stream.status).toBe(200);
      const waiting = await stream.waitFor(isGuest('asked'));
      // Waiting: no one, nothing of the call, no ICE servers (§21.6).
      expect(waiting.data).toEqual({
        callId,
        me: `g${guest.id}`,
        state: 'asked',
        callLive: true,
        members: [],
        lastItem: 0,
        lastLike: 0,
      });

      expect((await decide(p, callId, guest.id, 'admit')).status).toBe(200);
      const admitted = (await stream.waitFor(isGuest('admitted'))).data as FamilyGuestEvent;
      expect(admitted.members.map((m) => [m.party, m.role])).toEqual([
        [`u${p.customer.id}`, 'customer'],
        [`u${p.seller.id}`, 'jeweller'],
        [`g${guest.id}`, 'guest'],
      ]);
      expect(admitted.iceServers).toEqual([]);
      // Nothing of the customer beyond the call: their first name only, never their e-mail.
      expect(JSON.stringify(stream.events)).not.toContain(p.customer.email);

      const answer = await p.asCustomer.post<{ id: number }>('/_api/family/signal', {
        callId,
        to: `g${guest.id}`,
        kind: 'answer',
        payload: { type: 'answer', sdp: 'customer-answer' },
      });
      expect(answer.status).toBe(201);
      const signal = await stream.waitFor((e) => e.event === 'signal');
      // The payload in the event itself: no read after it; the event's id is the signal's (a resume point).
      expect(signal.data).toEqual({
        id: answer.body.id,
        from: `u${p.customer.id}`,
        kind: 'answer',
        payload: { type: 'answer', sdp: 'customer-answer' },
      } satisfies FamilySignal);
      expect(signal.id).toBe(String(answer.body.id));

      // Something said in the call: the event says there is news to read.
      const said = await p.asSeller.post<{ items: { id: number }[] }>('/_api/call/message', {
        callId,
        text: 'Namaskaram',
      });
      expect(said.status).toBe(201);
      const itemId = said.body.items[0]!.id;
      await stream.waitFor((e) => e.event === 'guest' && (e.data as FamilyGuestEvent).lastItem === itemId);

      // A photo the jeweller sends is news for the guest too.
      const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#b8862b' } })
        .jpeg()
        .toBuffer();
      const photo = await p.asSeller.post<{ items: { id: number }[] }>('/_api/call/photo', {
        callId,
        image: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
      });
      expect(photo.status).toBe(201);
      const photoId = photo.body.items[0]!.id;
      await stream.waitFor((e) => e.event === 'guest' && (e.data as FamilyGuestEvent).lastItem === photoId);
    } finally {
      stream.close();
    }
  });

  it("carries only the guest's own signals, and resumes after the last one it had", async () => {
    const { p, callId, guest: amma } = await callWithGuest('Amma');
    await decide(p, callId, amma.id, 'admit');
    const link = await p.asCustomer.post<FamilyInviteResponse>('/_api/family/invite', { callId });
    const akka = new Guest();
    const asked = await akka.client.post<FamilyAskResponse>('/_api/family/ask', {
      token: link.body.token,
      name: 'Akka',
    });
    Object.assign(akka, { token: asked.body.guestToken, id: asked.body.guestId });
    await decide(p, callId, akka.id, 'admit');
    const send = (to: string, sdp: string) =>
      p.asSeller.post<{ id: number }>('/_api/family/signal', { callId, to, kind: 'offer', payload: { sdp } });
    const first = await send(`g${amma.id}`, 'to-amma-1');
    await send(`g${akka.id}`, 'to-akka');
    const second = await send(`g${amma.id}`, 'to-amma-2');

    const stream = await amma.stream();
    try {
      await stream.waitFor((e) => e.event === 'signal' && e.id === String(second.body.id));
      const sdps = stream.events
        .filter((e) => e.event === 'signal')
        .map((e) => (e.data as FamilySignal).payload.sdp);
      expect(sdps).toEqual(['to-amma-1', 'to-amma-2']);
    } finally {
      stream.close();
    }
    // Resumed after the first: only the second.
    const resumed = await amma.stream(undefined, first.body.id);
    try {
      await resumed.waitFor(isGuest('admitted'));
      await resumed.waitFor((e) => e.event === 'signal');
      expect(resumed.events.filter((e) => e.event === 'signal').map((e) => e.id)).toEqual([
        String(second.body.id),
      ]);
    } finally {
      resumed.close();
    }
  });

  it('tells a declined or removed guest and ends; their token gets no ticket after', async () => {
    const { p, callId, guest } = await callWithGuest('Amma');
    const stream = await guest.stream();
    await stream.waitFor(isGuest('asked'));
    await decide(p, callId, guest.id, 'decline');
    await stream.waitFor(isGuest('declined'));
    await stream.waitForEnd();
    const refused = await guest.ticket();
    expect([refused.status, refused.body.error]).toEqual([403, FAMILY_MESSAGES.partOver]);

    const other = await callWithGuest('Akka');
    const ticket = (await other.guest.ticket()).body.ticket;
    await decide(other.p, other.callId, other.guest.id, 'admit');
    const inCall = await other.guest.stream(ticket);
    await inCall.waitFor(isGuest('admitted'));
    await decide(other.p, other.callId, other.guest.id, 'remove');
    await inCall.waitFor(isGuest('removed'));
    await inCall.waitForEnd();
    // The ticket it had opens nothing now.
    const again = await other.guest.stream(ticket);
    expect(again.status).toBe(403);
  });

  it("gives the customer a guest's offer in its 'family' event, to answer with no read", async () => {
    const { p, callId, guest } = await callWithGuest('Amma');
    await decide(p, callId, guest.id, 'admit');
    const events = await EventStreamReader.open(p.asCustomer);
    try {
      const offer = await guest.post<{ id: number }>('/_api/family/signal', {
        callId,
        to: `u${p.customer.id}`,
        kind: 'offer',
        payload: { type: 'offer', sdp: 'amma-offer' },
      });
      expect(offer.status).toBe(201);
      const e = await events.waitFor(
        (x) => x.event === 'family' && (x.data as { what: string }).what === 'signal',
      );
      expect(e.data).toEqual({
        callId,
        what: 'signal',
        signal: {
          id: offer.body.id,
          from: `g${guest.id}`,
          kind: 'offer',
          payload: { type: 'offer', sdp: 'amma-offer' },
        },
      });
    } finally {
      events.close();
    }
  });

  it('ends when the call ends', async () => {
    const { p, callId, guest } = await callWithGuest('Amma');
    await decide(p, callId, guest.id, 'admit');
    const stream = await guest.stream();
    await stream.waitFor(isGuest('admitted'));
    await p.asCustomer.post('/_api/call/end', { callId });
    const over = await stream.waitFor((e) => e.event === 'guest' && !(e.data as FamilyGuestEvent).callLive);
    expect((over.data as FamilyGuestEvent).members).toEqual([]);
    await stream.waitForEnd();
  });

  it('refuses a wrong token, a wrong or malformed ticket, and an expired one', async () => {
    const { guest } = await callWithGuest('Amma');
    const nobody = await api
      .client()
      .post<Err>('/_api/family/guest/ticket', {}, { [FAMILY_GUEST_HEADER]: 'A'.repeat(43) });
    expect([nobody.status, nobody.body.error]).toEqual([401, FAMILY_MESSAGES.notAGuest]);
    expect((await api.client().post('/_api/family/guest/ticket', {})).status).toBe(401);
    // The guest's own token is not a ticket.
    expect((await guest.stream(guest.token)).status).toBe(401);
    expect((await guest.stream('short')).status).toBe(400);

    const ticket = await guest.ticket();
    expect(ticket.status).toBe(200);
    expect(ticket.body.ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only its hash is kept.
    const row = await api.db.knex('call_guests').where('id', guest.id).first();
    expect(JSON.stringify(row)).not.toContain(ticket.body.ticket);
    // A new ticket replaces the old one.
    const newer = await guest.ticket();
    expect((await guest.stream(ticket.body.ticket)).status).toBe(401);
    api.clock.advance(FAMILY_GUEST_TICKET_MS + 1_000);
    expect((await guest.stream(newer.body.ticket)).status).toBe(401);
  });
});
