import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, type UserResponse } from '../../api/contract/accounts';
import { MOBILE_MESSAGES as M, type MobileVerifyResult } from '../../api/contract/mobile';
import pino from 'pino';
import { loadConfig } from '../../api/src/config';
import type { TwilioDouble } from '../../api/src/doubles/twilio-double';
import { codeSendsSettled } from '../../api/src/features/accounts/codes';
import { createSmsProvider } from '../../api/src/features/notices/provider';
import { buildSeller, buildUser, login } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

/**
 * Mobile sign-in (issue #37) through the Twilio test double: the app speaks Verify's HTTP API to it with the
 * `twilio` package, and the tests read the code the double "sent".
 */
let api: TestApi;
let double: TwilioDouble;
beforeAll(async () => {
  api = await startTestApi({
    env: { MOBILE_CODES_PER_NUMBER_PER_HOUR: '4', MOBILE_CODES_PER_IP_PER_HOUR: '50' },
  });
  double = (await api.handle.deps.sms!.double())!;
});
afterAll(async () => api?.close());
beforeEach(async () => {
  await api.db.knex('rate_limits').delete();
});

let seq = 0;
/** A fresh valid number per test: 9 then nine digits. */
const newNumber = () => `9${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
const e164 = (n: string) => `+91${n}`;

async function askCode(
  client: ApiClient,
  mobile: string,
  path = '/_api/auth/mobile/code',
  proof: { currentPassword?: string; currentCode?: string } = {},
) {
  const res = await client.post(path, { mobile, channel: 'sms', ...proof });
  // The profile's and the reset's codes go out after the answer.
  await codeSendsSettled(api.handle.deps);
  return res;
}

describe('mobile sign-in', () => {
  it('is offered while the double runs', async () => {
    const res = await api.client().get('/_api/auth/mobile');
    expect(res.body).toEqual({ available: true, channels: ['sms', 'whatsapp'] });
  });

  it('signs up a new number after the display-name step, then signs it in again with a new code', async () => {
    const n = newNumber();
    const client = api.client();
    const sent = await askCode(client, `+91 ${n.slice(0, 5)} ${n.slice(5)}`);
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ sent: true, resendAfterSeconds: 30, validMinutes: 10 });
    const code = double.lastCode(e164(n))!;
    expect(code).toMatch(/^\d{6}$/);

    const verified = await client.post<MobileVerifyResult>('/_api/auth/mobile/verify', { mobile: n, code });
    expect(verified.status).toBe(200);
    expect(verified.body.next).toBe('name');
    // No account and no session yet.
    expect((await client.get<{ user: unknown }>('/_api/auth/session')).body.user).toBeNull();

    const ticket = (verified.body as { ticket: string }).ticket;
    const made = await client.post<UserResponse>('/_api/auth/mobile/sign-up', {
      ticket,
      displayName: 'Meena',
      notices: true,
      locale: 'ta',
      timeZone: 'Asia/Dubai',
    });
    expect(made.status).toBe(201);
    expect(made.body.user.role).toBe('customer');
    expect(made.body.user.displayName).toBe('Meena');
    expect((await client.get<{ user: { id: number } }>('/_api/auth/session')).body.user.id).toBe(
      made.body.user.id,
    );
    const consent = await api.db.knex('notice_consents').where({ user_id: made.body.user.id }).first();
    expect(consent).toMatchObject({ granted: true, source: 'sign_up' });
    expect(consent.wording).toContain('STOP');
    // Its quiet hours are kept in the browser's time zone.
    expect(
      await api.db.knex('users').where({ id: made.body.user.id }).first('time_zone', 'notice_locale'),
    ).toEqual({ time_zone: 'Asia/Dubai', notice_locale: 'ta' });
    // The ticket is spent.
    const again = await api.client().post('/_api/auth/mobile/sign-up', { ticket, displayName: 'Other' });
    expect(again.status).toBe(400);

    // Later, another browser: the same number signs straight in.
    api.clock.advance(31_000);
    const other = api.client();
    expect((await askCode(other, n)).status).toBe(200);
    const signedIn = await other.post<MobileVerifyResult>('/_api/auth/mobile/verify', {
      mobile: n,
      code: double.lastCode(e164(n)),
    });
    expect(signedIn.body).toMatchObject({ next: 'signed-in', user: { id: made.body.user.id } });
  });

  it('refuses numbers that are not Indian mobiles', async () => {
    for (const mobile of ['12345', '+91 58765 43210', '+1 415 555 0100', '98765432101']) {
      const res = await askCode(api.client(), mobile);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(M.invalidMobile);
    }
  });

  it('a wrong code is refused; five wrong codes end the code, even the right one after them', async () => {
    const n = newNumber();
    const client = api.client();
    await askCode(client, n);
    const code = double.lastCode(e164(n))!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      const res = await client.post('/_api/auth/mobile/verify', { mobile: n, code: wrong });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'wrong_code', error: M.wrongCode });
    }
    const fifth = await client.post('/_api/auth/mobile/verify', { mobile: n, code: wrong });
    expect(fifth.body).toMatchObject({ code: 'code_expired', error: M.codeExpired });
    const right = await client.post('/_api/auth/mobile/verify', { mobile: n, code });
    expect(right.status).toBe(400);
    expect(right.body.code).toBe('code_expired');
  });

  it('a code expires after 10 minutes', async () => {
    const n = newNumber();
    const client = api.client();
    await askCode(client, n);
    const code = double.lastCode(e164(n))!;
    api.clock.advance(10 * 60_000 + 1000);
    const res = await client.post('/_api/auth/mobile/verify', { mobile: n, code });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('code_expired');
  });

  it('a new code waits 30 seconds, and a number gets at most MOBILE_CODES_PER_NUMBER_PER_HOUR codes', async () => {
    const n = newNumber();
    const client = api.client();
    expect((await askCode(client, n)).status).toBe(200);
    const soon = await askCode(client, n);
    expect(soon.status).toBe(429);
    expect(soon.body.code).toBe('resend_too_soon');
    for (let i = 1; i < 4; i++) {
      api.clock.advance(30_000);
      expect((await askCode(api.client(), n)).status).toBe(200);
    }
    api.clock.advance(30_000);
    const fifth = await askCode(api.client(), n);
    expect(fifth.status).toBe(429);
    expect(fifth.body.code).toBe('too_many_codes');
    // Exactly the four codes allowed reached the number (a resend of a pending code counts as a send).
    const sends = double.verifications.filter((v) => v.to === e164(n)).flatMap((v) => v.sendAttempts);
    expect(sends).toHaveLength(4);
  });

  it('an address gets at most MOBILE_CODES_PER_IP_PER_HOUR codes', async () => {
    const limited = await startTestApi({ env: { MOBILE_CODES_PER_IP_PER_HOUR: '2' } });
    try {
      const client = limited.client();
      expect((await askCode(client, newNumber())).status).toBe(200);
      expect((await askCode(client, newNumber())).status).toBe(200);
      const third = await askCode(client, newNumber());
      expect(third.status).toBe(429);
      expect(third.body.error).toMatch(/Too many codes were asked for from this network/);
    } finally {
      await limited.close();
    }
  });

  it('a seller adds and verifies a number in the profile, then signs in with it', async () => {
    const seller = await buildSeller(api.db.knex);
    const n = newNumber();
    const client = api.client();
    await login(client, seller);
    const proof = { currentPassword: seller.password };
    expect((await askCode(client, n, '/_api/user/mobile/code', proof)).status).toBe(200);
    const verified = await client.post('/_api/user/mobile/verify', {
      mobile: n,
      code: double.lastCode(e164(n)),
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ mobile: e164(n), notices: false });

    // Another account cannot take the number: refused at the verify step, with the code sent to it.
    const other = api.client();
    const otherUser = await buildUser(api.db.knex);
    await login(other, otherUser);
    api.clock.advance(31_000);
    const asked = await askCode(other, n, '/_api/user/mobile/code', { currentPassword: otherUser.password });
    expect(asked.status).toBe(200);
    const taken = await other.post('/_api/user/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
    expect(taken.status).toBe(400);
    expect(taken.body).toMatchObject({ code: 'mobile_unavailable', error: M.mobileUnavailable });
    api.clock.advance(31_000);

    const phone = api.client();
    await askCode(phone, n);
    const res = await phone.post<MobileVerifyResult>('/_api/auth/mobile/verify', {
      mobile: n,
      code: double.lastCode(e164(n)),
    });
    expect(res.body).toMatchObject({ next: 'signed-in', user: { id: seller.id, role: 'seller' } });
  });
});

describe('forgot password', () => {
  it('a code to the verified mobile sets a new password and ends every other session', async () => {
    const user = await buildUser(api.db.knex);
    const n = newNumber();
    const phone = api.client();
    const laptop = api.client();
    await login(phone, user);
    await login(laptop, user);
    await askCode(phone, n, '/_api/user/mobile/code', { currentPassword: user.password });
    await phone.post('/_api/user/mobile/verify', { mobile: n, code: double.lastCode(e164(n)) });
    // Adding the number ended the laptop's session: sign it in again.
    await login(laptop, user);

    const forgetful = api.client();
    expect((await askCode(forgetful, n, '/_api/auth/password-reset/code')).status).toBe(200);
    const code = double.lastCode(e164(n))!;
    const reset = await forgetful.post<UserResponse>('/_api/auth/password-reset', {
      mobile: n,
      code,
      newPassword: 'Kolam#Morning9',
      confirmNewPassword: 'Kolam#Morning9',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.user.id).toBe(user.id);
    // The other sessions are gone; this browser is signed in.
    expect((await phone.get<{ user: unknown }>('/_api/auth/session')).body.user).toBeNull();
    expect((await laptop.get<{ user: unknown }>('/_api/auth/session')).body.user).toBeNull();
    expect((await forgetful.get<{ user: { id: number } }>('/_api/auth/session')).body.user.id).toBe(user.id);
    // The new password works, the old one does not.
    const fresh = api.client();
    const ok = await fresh.post('/_api/auth/login_with_password', {
      email: user.email,
      password: 'Kolam#Morning9',
    });
    expect(ok.status).toBe(200);
    const old = await api.client().post('/_api/auth/login_with_password', {
      email: user.email,
      password: user.password,
    });
    expect(old.status).toBe(401);
  });

  it('a mobile-only account that set a password signs in with its number and that password (issue #49)', async () => {
    const n = newNumber();
    const client = api.client();
    await askCode(client, n);
    const verified = await client.post<MobileVerifyResult>('/_api/auth/mobile/verify', {
      mobile: n,
      code: double.lastCode(e164(n)),
    });
    const made = await client.post<UserResponse>('/_api/auth/mobile/sign-up', {
      ticket: (verified.body as { ticket: string }).ticket,
      displayName: 'Selvi',
    });
    expect(made.status).toBe(201);
    // Its password, set by a code to its number.
    api.clock.advance(31_000);
    await askCode(api.client(), n, '/_api/auth/password-reset/code');
    const reset = await api.client().post('/_api/auth/password-reset', {
      mobile: n,
      code: double.lastCode(e164(n)),
      newPassword: 'Kolam#Evening7',
      confirmNewPassword: 'Kolam#Evening7',
    });
    expect(reset.status).toBe(200);

    // The number in any form mobile sign-in takes, with the password: signed in as that account.
    for (const typed of [n, `+91 ${n.slice(0, 5)} ${n.slice(5)}`, `0${n}`, `91-${n}`]) {
      const browser = api.client();
      const res = await browser.post<UserResponse>('/_api/auth/login_with_password', {
        email: typed,
        password: 'Kolam#Evening7',
      });
      expect(res.status, typed).toBe(200);
      expect(res.body.user.id).toBe(made.body.user.id);
      expect((await browser.get<{ user: { id: number } }>('/_api/auth/session')).body.user.id).toBe(
        made.body.user.id,
      );
    }
    // A wrong password is the same refusal as for an e-mail; a number that is no Indian mobile says so.
    const wrong = await api.client().post('/_api/auth/login_with_password', { email: n, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: ACCOUNT_MESSAGES.invalidCredentials, code: 'invalid_credentials' });
    const bad = await api.client().post('/_api/auth/login_with_password', { email: '12345', password: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: ACCOUNT_MESSAGES.loginMobileInvalid,
      issues: [{ path: 'email', message: ACCOUNT_MESSAGES.loginMobileInvalid }],
    });
    // A number no account has verified signs nobody in.
    const unknown = await api.client().post('/_api/auth/login_with_password', {
      email: newNumber(),
      password: 'Kolam#Evening7',
    });
    expect(unknown.status).toBe(401);
  });

  it('a number without an account gets the same answer and no code', async () => {
    const n = newNumber();
    const before = double.verifications.length;
    const res = await api.client().post('/_api/auth/password-reset/code', { mobile: n });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sent: true, resendAfterSeconds: 30, validMinutes: 10 });
    expect(double.verifications.length).toBe(before);
  });
});

describe('the test double', () => {
  it('lists the codes and messages it "sent" on its development page', async () => {
    const n = newNumber();
    expect((await askCode(api.client(), n)).status).toBe(200);
    const page = await fetch(`${double.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('development only');
    expect(html).toContain(e164(n));
    expect(html).toContain(`<strong>${double.lastCode(e164(n))}</strong>`);
  });
});

describe('production without TWILIO_* settings', () => {
  it('starts no double, offers no mobile sign-in, sends no code and offers no notice channel', async () => {
    const config = loadConfig({ NODE_ENV: 'production', PAN_ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(config.sms).toMatchObject({ twilio: undefined, useDouble: false });
    expect(createSmsProvider(config, pino({ level: 'silent' }))).toBeUndefined();
    const prod = await startTestApi({ config: { sms: config.sms } });
    try {
      const client = prod.client();
      expect((await client.get('/_api/auth/mobile')).body).toEqual({ available: false, channels: [] });
      const code = await client.post('/_api/auth/mobile/code', { mobile: newNumber(), channel: 'sms' });
      expect(code.status).toBe(503);
      expect(code.body).toMatchObject({ error: M.unavailable });
      expect((await client.post('/_api/auth/password-reset/code', { mobile: newNumber() })).status).toBe(503);
      const user = await buildUser(prod.db.knex);
      await login(client, user);
      expect((await client.get('/_api/user/notices')).body).toMatchObject({ channels: [] });
      expect((await client.post('/_api/user/mobile/code', { mobile: newNumber() })).status).toBe(503);
    } finally {
      await prod.close();
    }
  });
});
