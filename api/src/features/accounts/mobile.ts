import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  MOBILE_MESSAGES as M,
  MOBILE_RULES,
  NOTICE_CONSENT_WORDING,
  type CodeSent,
  type MobileCodeCheck,
  type MobileCodeRequest,
  type MobileSignUpInput,
  type PasswordResetInput,
} from '../../../contract/mobile';
import type { AppDeps, SessionUser } from '../../http/context';
import type { Exchange } from '../../http/endpoint';
import { AppError, badRequest, conflict, tooManyRequests } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import { revokeUserSessions, toSessionUser, USER_COLUMNS } from '../../http/session';
import { hashPassword } from './password';
import { withShop, type LoadedUser } from './service';

/**
 * Signing in with a mobile number and a one-time code (issue #37, docs/product-rules.md "Mobile sign-in and
 * notices"). The provider (Twilio Verify, or its double) makes, sends and checks the code; this server keeps
 * its own record of every code sent (mobile_codes) and holds the rules on it with the app's clock: valid
 * MOBILE_RULES.codeValidMinutes, MOBILE_RULES.maxWrongCodes tries (each counted before the provider is asked,
 * so concurrent guesses cannot slip past), a resend only after MOBILE_RULES.resendAfterSeconds, and at most
 * MOBILE_CODES_PER_NUMBER_PER_HOUR codes per number and MOBILE_CODES_PER_IP_PER_HOUR per address.
 */
type Purpose = 'sign_in' | 'add_mobile' | 'reset_password';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** An account made by mobile sign-in has no e-mail: this reserved, undeliverable address stands in. */
export const mobileOnlyEmail = (mobile: string) => `${mobile.slice(1)}@mobile.nagai.invalid`;
/** A password hash no password matches (argon2 rejects it as malformed): the account signs in by code. */
const NO_PASSWORD = '!no-password';

const hashTicket = (t: string) => crypto.createHash('sha256').update(t).digest('base64url');

interface CodeRow {
  id: string | number;
  user_id: number | null;
  state: 'pending' | 'approved' | 'used' | 'failed';
  wrong_tries: number;
  created_at: Date;
  expires_at: Date;
}

const tooMany = (template: string, retryAfterMs: number) =>
  tooManyRequests(
    template.replace('{minutes}', String(Math.max(1, Math.ceil(retryAfterMs / MINUTE)))),
    retryAfterMs / 1000,
    'too_many_codes',
  );

function providerOf(deps: AppDeps) {
  if (!deps.sms) throw new AppError(503, 'mobile_unavailable', M.unavailable);
  return deps.sms;
}

type UserRow = Parameters<typeof toSessionUser>[0];

async function userByMobile(db: Knex, mobile: string): Promise<UserRow | undefined> {
  return (await db('users')
    .where({ mobile })
    .first(...USER_COLUMNS)) as UserRow | undefined;
}

/**
 * Sends a code for a purpose, after the resend wait and the hourly limits. `send: false` counts and records
 * the request without sending (a reset asked for a number no account has: the answer is the same).
 */
async function sendCode(
  deps: AppDeps,
  client: Exchange,
  input: MobileCodeRequest,
  purpose: Purpose,
  opts: { userId?: number; send?: boolean; locale?: 'en' | 'ta' } = {},
): Promise<CodeSent> {
  const sms = providerOf(deps);
  const { db, clock, config } = deps;
  const now = clock.now();
  const last = (await db('mobile_codes')
    .where({ mobile: input.mobile, purpose })
    .orderBy('created_at', 'desc')
    .first('created_at')) as { created_at: Date } | undefined;
  const waitMs = last
    ? new Date(last.created_at).getTime() + MOBILE_RULES.resendAfterSeconds * 1000 - now.getTime()
    : 0;
  if (waitMs > 0) {
    throw tooManyRequests(
      M.resendTooSoon.replace('{seconds}', String(Math.ceil(waitMs / 1000))),
      Math.ceil(waitMs / 1000),
      'resend_too_soon',
    );
  }
  const ip = await hitRateLimit(db, `mobile-code:ip:${client.ip}`, config.sms.codesPerIpPerHour, HOUR, now);
  if (!ip.allowed) throw tooMany(M.tooManyCodesFromNetwork, ip.retryAfterMs);
  const number = await hitRateLimit(
    db,
    `mobile-code:number:${input.mobile}`,
    config.sms.codesPerNumberPerHour,
    HOUR,
    now,
  );
  if (!number.allowed) throw tooMany(M.tooManyCodesForNumber, number.retryAfterMs);

  let sid: string | null = null;
  if (opts.send !== false) {
    try {
      sid = await sms.startVerification(input.mobile, input.channel, opts.locale ?? 'en');
    } catch (err) {
      deps.logger.warn({ err }, 'sending a sign-in code failed');
      throw new AppError(502, 'code_not_sent', M.sendFailed);
    }
  }
  await db.transaction(async (trx) => {
    // The newest code is the one that counts: earlier ones of the number and purpose end.
    await trx('mobile_codes')
      .where({ mobile: input.mobile, purpose, state: 'pending' })
      .update({ state: 'failed' });
    await trx('mobile_codes').insert({
      mobile: input.mobile,
      purpose,
      user_id: opts.userId ?? null,
      channel: input.channel,
      verification_sid: sid,
      state: opts.send === false ? 'failed' : 'pending',
      ip: client.ip,
      created_at: now,
      expires_at: new Date(now.getTime() + MOBILE_RULES.codeValidMinutes * MINUTE),
    });
  });
  return {
    sent: true,
    resendAfterSeconds: MOBILE_RULES.resendAfterSeconds,
    validMinutes: MOBILE_RULES.codeValidMinutes,
  };
}

/**
 * Checks a code against the newest pending code of the number and purpose: counts the try first, then asks
 * the provider. Answers the approved row; throws 400 wrong_code or code_expired.
 */
async function checkCode(deps: AppDeps, input: MobileCodeCheck, purpose: Purpose): Promise<CodeRow> {
  const sms = providerOf(deps);
  const { db, clock } = deps;
  const now = clock.now();
  const counted = (
    (await db.raw(
      `update mobile_codes set wrong_tries = wrong_tries + 1
        where id = (select id from mobile_codes where mobile = ? and purpose = ? and state = 'pending'
                     order by created_at desc limit 1)
          and expires_at > ? and wrong_tries < ?
        returning id, user_id, state, wrong_tries, created_at, expires_at`,
      [input.mobile, purpose, now, MOBILE_RULES.maxWrongCodes],
    )) as { rows: CodeRow[] }
  ).rows[0];
  if (!counted) throw badRequest(M.codeExpired, 'code_expired');
  let result;
  try {
    result = await sms.checkVerification(input.mobile, input.code);
  } catch (err) {
    deps.logger.warn({ err }, 'checking a sign-in code failed');
    // The try is not held against the person when the provider failed.
    await db('mobile_codes')
      .where({ id: counted.id })
      .update({ wrong_tries: db.raw('greatest(wrong_tries - 1, 0)') });
    throw new AppError(502, 'code_not_checked', M.sendFailed);
  }
  if (result === 'approved') {
    await db('mobile_codes').where({ id: counted.id }).update({ state: 'approved' });
    return { ...counted, state: 'approved' };
  }
  if (result === 'ended' || counted.wrong_tries >= MOBILE_RULES.maxWrongCodes) {
    await db('mobile_codes').where({ id: counted.id }).update({ state: 'failed' });
    throw badRequest(M.codeExpired, 'code_expired');
  }
  throw badRequest(M.wrongCode, 'wrong_code');
}

/** POST /_api/auth/mobile/code: a sign-in (or sign-up) code. */
export function sendSignInCode(deps: AppDeps, client: Exchange, input: MobileCodeRequest) {
  return sendCode(deps, client, input, 'sign_in');
}

/**
 * POST /_api/auth/mobile/verify: a correct code signs in the account with that verified number (any role);
 * for a new number it answers a ticket for the display-name step.
 */
export async function verifySignIn(
  deps: AppDeps,
  client: Exchange,
  input: MobileCodeCheck,
): Promise<{ next: 'signed-in'; loaded: LoadedUser } | { next: 'name'; ticket: string }> {
  const row = await checkCode(deps, input, 'sign_in');
  const { db } = deps;
  const user = await userByMobile(db, input.mobile);
  if (user) {
    await db.transaction(async (trx) => {
      await trx('mobile_codes').where({ id: row.id }).update({ state: 'used' });
      await client.startSession(trx, user.id);
    });
    return { next: 'signed-in', loaded: await withShop(db, toSessionUser(user)) };
  }
  const ticket = crypto.randomBytes(32).toString('base64url');
  await db('mobile_codes')
    .where({ id: row.id })
    .update({ ticket_hash: hashTicket(ticket) });
  return { next: 'name', ticket };
}

/** Records a consent change with its time and wording. */
export async function recordConsent(
  trx: Knex,
  userId: number,
  granted: boolean,
  source: 'profile' | 'sign_up' | 'sms_stop' | 'sms_start',
  locale: 'en' | 'ta',
  now: Date,
  channel: 'sms' | 'whatsapp' = 'sms',
): Promise<void> {
  await trx('users')
    .where({ id: userId })
    .update({ notices: granted, notice_locale: locale, notice_channel: channel });
  await trx('notice_consents').insert({
    user_id: userId,
    granted,
    wording: NOTICE_CONSENT_WORDING[locale],
    source,
    channel,
    created_at: now,
  });
}

/** POST /_api/auth/mobile/sign-up: the display-name step creates a customer account with the verified number. */
export async function signUpWithMobile(
  deps: AppDeps,
  client: Exchange,
  input: MobileSignUpInput,
): Promise<LoadedUser> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const limit = await hitRateLimit(
    db,
    `register:ip:${client.ip}`,
    config.limits.registrationPerIpPerHour,
    HOUR,
    now,
  );
  if (!limit.allowed) throw tooMany(M.tooManyCodesFromNetwork, limit.retryAfterMs);
  const oldest = new Date(now.getTime() - MOBILE_RULES.signUpTicketMinutes * MINUTE);
  return db.transaction(async (trx) => {
    const [code] = (await trx('mobile_codes')
      .where({ ticket_hash: hashTicket(input.ticket), state: 'approved', purpose: 'sign_in' })
      .where('created_at', '>', oldest)
      .update({ state: 'used' })
      .returning(['mobile'])) as { mobile: string }[];
    if (!code) throw badRequest(M.signUpExpired, 'sign_up_expired');
    let row: UserRow;
    try {
      [row] = (await trx('users')
        .insert({
          email: mobileOnlyEmail(code.mobile),
          password_hash: NO_PASSWORD,
          display_name: input.displayName,
          role: 'customer',
          mobile: code.mobile,
          mobile_verified_at: now,
          notice_locale: input.locale,
          ...(input.timeZone ? { time_zone: input.timeZone } : {}),
        })
        .returning([...USER_COLUMNS])) as UserRow[];
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw conflict(M.mobileUnavailable, 'mobile_in_use');
      throw err;
    }
    if (input.notices) await recordConsent(trx, row.id, true, 'sign_up', input.locale, now);
    await client.startSession(trx, row.id);
    return { user: toSessionUser(row), shop: null };
  });
}

/** POST /_api/user/mobile/code: a code to add (or change) the signed-in account's number. */
export async function sendAddMobileCode(
  deps: AppDeps,
  client: Exchange,
  user: SessionUser,
  input: MobileCodeRequest,
): Promise<CodeSent> {
  const owner = await userByMobile(deps.db, input.mobile);
  if (owner && owner.id !== user.id) throw badRequest(M.mobileUnavailable, 'mobile_unavailable');
  return sendCode(deps, client, input, 'add_mobile', { userId: user.id });
}

/** POST /_api/user/mobile/verify: a correct code makes the number the account's verified mobile. */
export async function verifyAddMobile(
  deps: AppDeps,
  user: SessionUser,
  input: MobileCodeCheck,
): Promise<void> {
  const row = await checkCode(deps, input, 'add_mobile');
  if (row.user_id !== user.id) throw badRequest(M.codeExpired, 'code_expired');
  const { db, clock } = deps;
  try {
    await db.transaction(async (trx) => {
      await trx('mobile_codes').where({ id: row.id }).update({ state: 'used' });
      await trx('users')
        .where({ id: user.id })
        .update({ mobile: input.mobile, mobile_verified_at: clock.now(), updated_at: clock.now() });
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505')
      throw badRequest(M.mobileUnavailable, 'mobile_unavailable');
    throw err;
  }
}

/**
 * POST /_api/auth/password-reset/code: a code to the account's verified mobile. A number no account has gets
 * the same answer (and counts against the same limits), so the form does not tell who has an account.
 */
export async function sendResetCode(
  deps: AppDeps,
  client: Exchange,
  input: MobileCodeRequest,
): Promise<CodeSent> {
  const owner = await userByMobile(deps.db, input.mobile);
  return sendCode(deps, client, input, 'reset_password', { userId: owner?.id, send: !!owner });
}

/**
 * POST /_api/auth/password-reset: a correct code sets the new password, ends every session of the account and
 * signs this browser in with a fresh one.
 */
export async function resetPassword(
  deps: AppDeps,
  client: Exchange,
  input: PasswordResetInput,
): Promise<LoadedUser> {
  const row = await checkCode(deps, input, 'reset_password');
  const { db, clock } = deps;
  const user = await userByMobile(db, input.mobile);
  if (!user || user.id !== row.user_id) throw badRequest(M.codeExpired, 'code_expired');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (trx) => {
    await trx('mobile_codes').where({ id: row.id }).update({ state: 'used' });
    await trx('users')
      .where({ id: user.id })
      .update({ password_hash: passwordHash, updated_at: clock.now() });
    await revokeUserSessions(trx, user.id);
    await client.startSession(trx, user.id);
  });
  return withShop(db, toSessionUser(user));
}
