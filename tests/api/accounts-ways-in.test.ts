import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { ACCOUNT_MESSAGES as A } from '../../api/contract/accounts';
import { MOBILE_MESSAGES as M, type MobileVerifyResult } from '../../api/contract/mobile';
import type { TwilioDouble } from '../../api/src/doubles/twilio-double';
import { codeSendsSettled } from '../../api/src/features/accounts/codes';
import { buildUser, login } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

/**
 * Issue #46, the accounts' holes (docs/security.md "The attack run's holes"):
 * 2. a session alone cannot add a way into the account (mobile, e-mail, password): the current password, or for
 *    a mobile-only account a code to its number; the old number is told; the other sessions end;
 * 4. asking for a code does not tell whether an account has the number (same answer, limits first, the code
 *    sent after the answer);
 * 5. nobody registers or changes to a mobile-only account's reserved address;
 * 6. a stranger's code requests do not spend the owner's allowance for their number.
 *
 * Each test speaks from a client address of its own through X-Forwarded-For (TRUST_PROXY).
 */
let api: TestApi;
let double: TwilioDouble;
beforeAll(async () => {
  api = await startTestApi({
    env: {
      TRUST_PROXY: 'true',
      MOBILE_CODES_PER_NUMBER_PER_HOUR: '2',
      MOBILE_CODES_PER_IP_PER_HOUR: '3',
    },
  });
  double = (await api.handle.deps.sms!.double())!;
});
afterAll(async () => api?.close());
beforeEach(async () => {
  await api.db.knex('rate_limits').delete();
});

let seq = 0;
const newNumber = () => `7${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
const e164 = (n: string) => `+91${n}`;
let address = 0;
/** A client with its own cookie jar and its own address. */
function browser(): { client: ApiClient; from: Record<string, string> } {
  return { client: api.client(), from: { 'X-Forwarded-For': `198.51.100.${++address}` } };
}
const post = (b: ReturnType<typeof browser>, path: string, body: unknown) =>
  b.client.post(path, body, b.from);
const signedInId = async (b: ReturnType<typeof browser>) =>
  (await b.client.get<{ user: { id: number } | null }>('/_api/auth/session', b.from)).body.user?.id ?? null;
const runNotices = () => api.handle.background.runNow('schedule:jobs');
const messagesTo = (n: string) => double.messages.filter((m) => m.to === e164(n)).map((m) => m.body);

async function giveMobile(userId: number, n: string) {
  await api.db
    .knex('users')
    .where({ id: userId })
    .update({ mobile: e164(n), mobile_verified_at: new Date() });
}

/** Signs up a new mobile-only account with a code; answers its id and its signed-in browser. */
async function mobileOnlyAccount(n: string) {
  const b = browser();
  expect((await post(b, '/_api/auth/mobile/code', { mobile: n })).status).toBe(200);
  const verified = await post(b, '/_api/auth/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
  const made = await post(b, '/_api/auth/mobile/sign-up', {
    ticket: (verified.body as { ticket: string }).ticket,
    displayName: 'Meena',
  });
  expect(made.status).toBe(201);
  return { b, id: (made.body as { user: { id: number } }).user.id };
}

describe('2. a session alone cannot add a way in', () => {
  it('adding a mobile needs the current password; a stolen cookie alone gets 400 and sends no code', async () => {
    const user = await buildUser(api.db.knex);
    const owner = browser();
    await login(owner.client, user);
    // The thief has the owner's cookie, from another address.
    const thief = browser();
    thief.client.cookies.set(...([...owner.client.cookies][0] as [string, string]));
    const n = newNumber();

    const bare = await post(thief, '/_api/user/mobile/code', { mobile: n });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ code: 'current_password_required', error: A.proofNeedsPassword });
    const guessed = await post(thief, '/_api/user/mobile/code', {
      mobile: n,
      currentPassword: 'Guess#2026x',
    });
    expect(guessed.status).toBe(400);
    expect(guessed.body.code).toBe('current_password_incorrect');
    await codeSendsSettled(api.handle.deps);
    expect(double.lastCode(e164(n))).toBeUndefined();
    expect(await api.db.knex('users').where({ id: user.id }).first('mobile')).toEqual({ mobile: null });
  });

  it('changing the mobile with the password tells the old number (updates off too) and ends the other sessions', async () => {
    const user = await buildUser(api.db.knex);
    const old = newNumber();
    await giveMobile(user.id, old);
    const phone = browser();
    const laptop = browser();
    await login(phone.client, user);
    await login(laptop.client, user);
    const n = newNumber();
    const asked = await post(phone, '/_api/user/mobile/code', { mobile: n, currentPassword: user.password });
    expect(asked.status).toBe(200);
    await codeSendsSettled(api.handle.deps);
    const done = await post(phone, '/_api/user/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ mobile: e164(n), notices: false });

    expect(await signedInId(phone)).toBe(user.id);
    expect(await signedInId(laptop)).toBeNull();
    await runNotices();
    expect(messagesTo(old)).toEqual([en.push.sms.mobile_changed]);
  });

  it('a mobile-only account proves itself with a code to its current number, for a new number and a first password', async () => {
    const old = newNumber();
    const { b, id } = await mobileOnlyAccount(old);
    const other = browser();
    const again = await post(other, '/_api/auth/mobile/code', { mobile: old });
    expect(again.status).toBe(200);
    await post(other, '/_api/auth/mobile/verify', { mobile: old, code: double.lastCode(e164(old)) });
    expect(await signedInId(other)).toBe(id);

    const n = newNumber();
    const bare = await post(b, '/_api/user/mobile/code', { mobile: n });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ code: 'current_code_required', error: A.proofNeedsCode });
    // A code to the current number is the proof.
    api.clock.advance(31_000);
    expect((await post(b, '/_api/user/reauth/code', {})).status).toBe(200);
    const reauth = double.lastCode(e164(old))!;
    const wrong = reauth === '000000' ? '111111' : '000000';
    expect((await post(b, '/_api/user/mobile/code', { mobile: n, currentCode: wrong })).body.code).toBe(
      'wrong_code',
    );
    expect((await post(b, '/_api/user/mobile/code', { mobile: n, currentCode: reauth })).status).toBe(200);
    await codeSendsSettled(api.handle.deps);
    const done = await post(b, '/_api/user/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
    expect(done.status).toBe(200);
    expect(await signedInId(other)).toBeNull();
    expect(await signedInId(b)).toBe(id);
    await runNotices();
    expect(messagesTo(old)).toEqual([en.push.sms.mobile_changed]);

    // An hour on, a first password, with a code to the (new) number: the number is told, the other sessions end.
    api.clock.advance(60 * 60_000);
    const other2 = browser();
    await post(other2, '/_api/auth/mobile/code', { mobile: n });
    await post(other2, '/_api/auth/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
    const noProof = await post(b, '/_api/user/password/change', {
      newPassword: 'Kolam#Morning9',
      confirmNewPassword: 'Kolam#Morning9',
    });
    expect(noProof.status).toBe(400);
    api.clock.advance(31_000);
    expect((await post(b, '/_api/user/reauth/code', {})).status).toBe(200);
    const set = await post(b, '/_api/user/password/change', {
      currentCode: double.lastCode(e164(n)),
      newPassword: 'Kolam#Morning9',
      confirmNewPassword: 'Kolam#Morning9',
    });
    expect(set.status).toBe(200);
    expect(await signedInId(other2)).toBeNull();
    expect(await signedInId(b)).toBe(id);
    await runNotices();
    expect(messagesTo(n)).toContain(en.push.sms.password_changed);
    // From now on the account has a password: a code is no longer its proof.
    api.clock.advance(31_000);
    await post(b, '/_api/user/reauth/code', {});
    const byCode = await post(b, '/_api/user/mobile/code', {
      mobile: newNumber(),
      currentCode: double.lastCode(e164(n)),
    });
    expect(byCode.body.code).toBe('current_password_required');
  });

  it('a new e-mail needs the proof, tells the number and ends the other sessions', async () => {
    const user = await buildUser(api.db.knex);
    const n = newNumber();
    await giveMobile(user.id, n);
    const phone = browser();
    const laptop = browser();
    await login(phone.client, user);
    await login(laptop.client, user);
    const wrong = await post(phone, '/_api/user/profile/update', {
      email: `new-${n}@example.com`,
      currentPassword: 'Wrong#Pass1',
    });
    expect(wrong.body.code).toBe('current_password_incorrect');
    const ok = await post(phone, '/_api/user/profile/update', {
      email: `new-${n}@example.com`,
      currentPassword: user.password,
    });
    expect(ok.status).toBe(200);
    expect(await signedInId(phone)).toBe(user.id);
    expect(await signedInId(laptop)).toBeNull();
    await runNotices();
    expect(messagesTo(n)).toEqual([en.push.sms.email_changed]);

    // A password change tells the number too.
    await login(laptop.client, { ...user, email: `new-${n}@example.com` });
    const changed = await post(phone, '/_api/user/password/change', {
      currentPassword: user.password,
      newPassword: 'Kolam#Morning9',
      confirmNewPassword: 'Kolam#Morning9',
    });
    expect(changed.status).toBe(200);
    expect(await signedInId(laptop)).toBeNull();
    await runNotices();
    expect(messagesTo(n)).toEqual([en.push.sms.email_changed, en.push.sms.password_changed]);
  });
});

describe('4. a code request does not tell who has a number', () => {
  it('answers a taken and a free number alike, and the limits count first for both', async () => {
    const holder = await buildUser(api.db.knex);
    const taken = newNumber();
    await giveMobile(holder.id, taken);
    const user = await buildUser(api.db.knex);
    const b = browser();
    await login(b.client, user);
    const ask = (mobile: string) =>
      post(b, '/_api/user/mobile/code', { mobile, channel: 'sms', currentPassword: user.password });

    const free = newNumber();
    const a1 = await ask(taken);
    const a2 = await ask(free);
    expect([a1.status, a2.status]).toEqual([200, 200]);
    expect(a1.body).toEqual(a2.body);
    // The address's limit (3 an hour) is spent alike: a taken number gets the same 429 as a free one.
    expect((await ask(newNumber())).status).toBe(200);
    api.clock.advance(31_000);
    const b1 = await ask(newNumber());
    const b2 = await ask(taken);
    expect([b1.status, b2.status]).toEqual([429, 429]);
    expect(b1.body).toEqual(b2.body);
    // A taken number is refused only at the verify step, with the code its holder received.
    await codeSendsSettled(api.handle.deps);
    const refused = await post(b, '/_api/user/mobile/verify', {
      mobile: taken,
      code: double.lastCode(e164(taken)),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'mobile_unavailable', error: M.mobileUnavailable });
  });

  it('the code goes out after the answer: a slow provider does not slow the answer, known number or not', async () => {
    const user = await buildUser(api.db.knex);
    const known = newNumber();
    await giveMobile(user.id, known);
    const signedIn = browser();
    await login(signedIn.client, user);
    for (const [path, b, body] of [
      ['/_api/auth/password-reset/code', browser(), { mobile: known }],
      ['/_api/auth/password-reset/code', browser(), { mobile: newNumber() }],
      ['/_api/user/mobile/code', signedIn, { mobile: newNumber(), currentPassword: user.password }],
    ] as const) {
      const release = double.holdVerifications();
      // The provider answers nothing until the request has its answer (or after 10 s, so a request that waits
      // for the provider fails this test instead of hanging).
      let answeredFirst = true;
      const guard = setTimeout(() => {
        answeredFirst = false;
        release();
      }, 10_000);
      const res = await post(b, path, body);
      clearTimeout(guard);
      release();
      expect(answeredFirst, path).toBe(true);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ sent: true, resendAfterSeconds: 30, validMinutes: 10 });
    }
    // Released, the known number's code arrives and resets the password.
    await codeSendsSettled(api.handle.deps);
    const code = double.lastCode(e164(known));
    expect(code).toMatch(/^\d{6}$/);
  });
});

describe('5. the reserved addresses of mobile-only accounts', () => {
  it('cannot be registered or changed to, in any letter case; the number then signs up', async () => {
    const n = newNumber();
    for (const email of [
      `91${n}@mobile.nagai.invalid`,
      `91${n}@MOBILE.Nagai.INVALID`,
      `x@sub.mobile.nagai.invalid`,
    ]) {
      const res = await post(browser(), '/_api/auth/register_with_password', {
        email,
        password: 'Kolam#Morning9',
        displayName: 'Squatter',
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'email_reserved', error: A.emailReserved });
    }
    expect(await api.db.knex('users').where({ display_name: 'Squatter' })).toEqual([]);
    const { id } = await mobileOnlyAccount(n);
    expect(id).toBeGreaterThan(0);

    const user = await buildUser(api.db.knex);
    const b = browser();
    await login(b.client, user);
    const change = await post(b, '/_api/user/profile/update', {
      email: `91${newNumber()}@Mobile.Nagai.Invalid`,
      currentPassword: user.password,
    });
    expect(change.status).toBe(400);
    expect(change.body).toMatchObject({ code: 'email_reserved', error: A.emailReserved });
  });
});

describe("6. a stranger cannot spend the owner's codes", () => {
  it("a stranger's requests for a number leave its owner's allowance whole", async () => {
    const n = newNumber();
    const { id } = await mobileOnlyAccount(n);
    await api.db.knex('rate_limits').delete();
    const stranger = browser();
    // Two codes a number an hour (MOBILE_CODES_PER_NUMBER_PER_HOUR), then 429: for the stranger only.
    expect((await post(stranger, '/_api/auth/mobile/code', { mobile: n })).status).toBe(200);
    api.clock.advance(31_000);
    expect((await post(stranger, '/_api/auth/mobile/code', { mobile: n })).status).toBe(200);
    api.clock.advance(31_000);
    for (const path of ['/_api/auth/mobile/code', '/_api/auth/password-reset/code']) {
      const refused = await post(stranger, path, { mobile: n });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('too_many_codes');
    }
    await codeSendsSettled(api.handle.deps);
    // The owner, from their own address, still signs in by code and may still reset.
    const owner = browser();
    expect((await post(owner, '/_api/auth/mobile/code', { mobile: n })).status).toBe(200);
    const res = await post(owner, '/_api/auth/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
    expect(res.body as MobileVerifyResult).toMatchObject({ next: 'signed-in', user: { id } });
    expect((await post(owner, '/_api/auth/password-reset/code', { mobile: n })).status).toBe(200);
  });
});
