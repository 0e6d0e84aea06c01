import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FAMILY_GUEST_HEADER,
  FAMILY_MESSAGES,
  type FamilyAskResponse,
  type FamilyGuestStateResponse,
  type FamilyInviteResponse,
  type FamilyOpenResponse,
  type FamilyStateResponse,
} from '../../api/contract/call-family';
import type { MobileVerifyResult } from '../../api/contract/mobile';
import type { TwilioDouble } from '../../api/src/doubles/twilio-double';
import { buildProduct } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { callParties, signIn, type CallParties } from './calls-support';

/**
 * A guest who signs in (issue #52, docs/product-rules.md §21.2): by a mobile code on the join page (through
 * the Twilio double), or with the session the browser already had. The row keeps the account; the guest joins
 * under its first name; the call's own customer and jeweller are refused; one account is one guest at a time.
 */
let api: TestApi;
let double: TwilioDouble;
beforeAll(async () => {
  api = await startTestApi();
  double = (await api.handle.deps.sms!.double())!;
});
afterAll(async () => api?.close());
beforeEach(async () => {
  await api.db.knex('rate_limits').delete();
});

type Err = { error?: string; code?: string };
let seq = 0;
const newNumber = () => `8${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;

/** A new account made by a mobile code on `client` (as the join page's sign-in does), signed in there. */
async function signUpByCode(client: ApiClient, displayName: string): Promise<number> {
  const mobile = newNumber();
  expect((await client.post('/_api/auth/mobile/code', { mobile, channel: 'sms' })).status).toBe(200);
  const code = double.lastCode(`+91${mobile}`)!;
  const verified = await client.post<MobileVerifyResult>('/_api/auth/mobile/verify', { mobile, code });
  expect(verified.body.next).toBe('name');
  const made = await client.post<{ user: { id: number } }>('/_api/auth/mobile/sign-up', {
    ticket: (verified.body as { ticket: string }).ticket,
    displayName,
  });
  expect(made.status).toBe(201);
  return made.body.user.id;
}

async function liveCall(): Promise<{ p: CallParties; callId: number }> {
  const p = await callParties(api);
  const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Mango mala' });
  const res = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
    sellerId: p.seller.id,
    productId: product.id,
  });
  expect(res.status).toBe(201);
  const accepted = await p.asSeller.post('/_api/call/respond', {
    callId: res.body.callId,
    response: 'accept',
  });
  expect(accepted.status).toBe(200);
  return { p, callId: res.body.callId };
}

async function link(p: CallParties, callId: number): Promise<string> {
  const res = await p.asCustomer.post<FamilyInviteResponse>('/_api/family/invite', { callId });
  expect(res.status).toBe(201);
  return res.body.token;
}

const ask = (client: ApiClient, token: string, body: { name?: string; asAccount?: boolean }) =>
  client.post<FamilyAskResponse & Err>('/_api/family/ask', { token, ...body });

const linkState = async (token: string) =>
  (await api.client().post<FamilyOpenResponse>('/_api/family/open', { token })).body.link;

const accountOf = async (guestId: number) =>
  ((await api.db.knex('call_guests').where('id', guestId).first('user_id', 'name')) as {
    user_id: number | null;
    name: string;
  }) ?? null;

describe('a guest who signs in (§21.2)', () => {
  it('signs in by a mobile code and joins under the first name; the row keeps the account, the call shows only the name', async () => {
    const { p, callId } = await liveCall();
    const token = await link(p, callId);
    const phone = api.client();
    const userId = await signUpByCode(phone, 'Meenakshi Sundaram');

    const asked = await ask(phone, token, { asAccount: true, name: 'ignored' });
    expect(asked.status).toBe(201);
    expect(await accountOf(asked.body.guestId)).toEqual({ user_id: userId, name: 'Meenakshi' });

    // The jeweller sees the first name only and admits; the guest reads the call by the guest token, as any.
    const seen = await p.asSeller.get<FamilyStateResponse>(`/_api/family/state?callId=${callId}`);
    const guest = seen.body.guests.find((g) => g.id === asked.body.guestId)!;
    expect(guest.name).toBe('Meenakshi');
    expect(JSON.stringify(seen.body)).not.toContain('Sundaram');
    expect(
      (await p.asSeller.post('/_api/family/decide', { callId, guestId: guest.id, action: 'admit' })).status,
    ).toBe(200);
    const state = await phone.get<FamilyGuestStateResponse>('/_api/family/guest', {
      [FAMILY_GUEST_HEADER]: asked.body.guestToken,
    });
    expect(state.status).toBe(200);
    expect(state.body.members.find((m) => m.party === guest.party)?.name).toBe('Meenakshi');
    // Nothing of the customer beyond the call: their first name, never their e-mail.
    expect(JSON.stringify(state.body)).not.toContain(p.customer.email);

    // The guest's own session is no way into the call: its details and items stay the participants'.
    expect((await phone.get(`/_api/call/detail?callId=${callId}`)).status).toBe(404);
    expect((await phone.get(`/_api/call/items?callId=${callId}`)).status).toBe(404);
  });

  it('a signed-in guest who gives a name joins as a plain guest: no account kept', async () => {
    const { p, callId } = await liveCall();
    const token = await link(p, callId);
    const phone = api.client();
    await signUpByCode(phone, 'Lalitha Raman');
    const asked = await ask(phone, token, { name: 'Paati' });
    expect(asked.status).toBe(201);
    expect(await accountOf(asked.body.guestId)).toEqual({ user_id: null, name: 'Paati' });
  });

  it('joining as an account needs a session: 401, and the link stays open', async () => {
    const { p, callId } = await liveCall();
    const token = await link(p, callId);
    const res = await ask(api.client(), token, { asAccount: true });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: FAMILY_MESSAGES.signInFirst, code: 'family_sign_in_first' });
    expect(await linkState(token)).toBe('open');
    // Without asAccount a name is still needed.
    const nameless = await ask(api.client(), token, {});
    expect(nameless.status).toBe(400);
    expect(nameless.body.error).toBe(FAMILY_MESSAGES.invalidName);
  });

  it("the call's own customer and jeweller cannot join as its guests, whichever way they ask", async () => {
    const { p, callId } = await liveCall();
    const token = await link(p, callId);
    for (const [who, client] of [
      ['customer', p.asCustomer],
      ['jeweller', p.asSeller],
    ] as const) {
      for (const body of [{ asAccount: true }, { name: 'Someone else' }]) {
        const res = await ask(client, token, body);
        expect(res.status, `${who} ${JSON.stringify(body)}`).toBe(409);
        expect(res.body).toMatchObject({ error: FAMILY_MESSAGES.ownCall, code: 'family_own_call' });
      }
    }
    // Nothing was used up: someone else may still join with the link.
    expect(await linkState(token)).toBe('open');
    expect((await ask(api.client(), token, { name: 'Amma' })).status).toBe(201);
  });

  it('one account is one guest of a call at a time; after leaving it may come back by a new link', async () => {
    const { p, callId } = await liveCall();
    const phone = api.client();
    const userId = await signUpByCode(phone, 'Kamala');
    const first = await ask(phone, await link(p, callId), { asAccount: true });
    expect(first.status).toBe(201);

    const second = await link(p, callId);
    const again = await ask(phone, second, { asAccount: true });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: FAMILY_MESSAGES.alreadyGuest, code: 'family_already_guest' });
    expect(await linkState(second)).toBe('open');
    // Still waiting when the jeweller admits; then the guest leaves and comes back.
    expect(
      (await p.asSeller.post('/_api/family/decide', { callId, guestId: first.body.guestId, action: 'admit' }))
        .status,
    ).toBe(200);
    expect(
      (await phone.post('/_api/family/leave', {}, { [FAMILY_GUEST_HEADER]: first.body.guestToken })).status,
    ).toBe(200);
    const back = await ask(phone, second, { asAccount: true });
    expect(back.status).toBe(201);
    expect((await accountOf(back.body.guestId))?.user_id).toBe(userId);
  });

  it('two asks at once by one account with two links: exactly one is let in', async () => {
    const { p, callId } = await liveCall();
    const phone = api.client();
    const userId = await signUpByCode(phone, 'Valli');
    const [one, two] = [await link(p, callId), await link(p, callId)];
    const results = await Promise.all([
      ask(phone, one, { asAccount: true }),
      ask(await signIn(api, { id: userId }), two, { asAccount: true }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = (await api.db
      .knex('call_guests')
      .where({ call_id: callId, user_id: userId })
      .select('state')) as { state: string }[];
    expect(rows).toEqual([{ state: 'asked' }]);
  });
});
