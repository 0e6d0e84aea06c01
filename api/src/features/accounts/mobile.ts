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
  type ProfileMobileCodeRequest,
} from '../../../contract/mobile';
import type { AppDeps, SessionUser } from '../../http/context';
import type { Exchange } from '../../http/endpoint';
import { badRequest, conflict } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import { revokeUserSessions, toSessionUser, USER_COLUMNS } from '../../http/session';
import { queueSecurityNotice } from '../notices/service';
import {
  checkCode,
  HOUR,
  MINUTE,
  NO_PASSWORD,
  providerOf,
  sendCode,
  tooMany,
  userByMobile,
  type UserRow,
} from './codes';
import { hashPassword } from './password';
import { proveIdentity } from './proof';
import { withShop, type LoadedUser } from './service';

/**
 * Signing in with a mobile number and a one-time code (issue #37, docs/product-rules.md "Mobile sign-in and
 * notices"), adding a number to an account, and the password reset by code. The codes and their rules are in
 * codes.ts.
 */

/** An account made by mobile sign-in has no e-mail: this reserved, undeliverable address stands in. */
export const mobileOnlyEmail = (mobile: string) => `${mobile.slice(1)}@mobile.nagai.invalid`;

const hashTicket = (t: string) => crypto.createHash('sha256').update(t).digest('base64url');

/** POST /_api/auth/mobile/code: a sign-in (or sign-up) code. */
export function sendSignInCode(deps: AppDeps, client: Exchange, input: MobileCodeRequest) {
  return sendCode(deps, client, input, 'sign_in', { send: 'now' });
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

/**
 * POST /_api/user/mobile/code: a code to add (or change) the signed-in account's number. A new way into the
 * account, so it needs the proof of proveIdentity first (issue #46). The answer is the same whether another
 * account holds the number or not (the limits count first, the code is sent after the answer): a taken number
 * is refused only at the verify step, which needs the code sent to that number.
 */
export async function sendAddMobileCode(
  deps: AppDeps,
  client: Exchange,
  user: SessionUser,
  input: ProfileMobileCodeRequest,
): Promise<CodeSent> {
  providerOf(deps);
  await proveIdentity(deps, user, input);
  return sendCode(deps, client, { mobile: input.mobile, channel: input.channel }, 'add_mobile', {
    userId: user.id,
    send: 'later',
  });
}

/**
 * POST /_api/user/mobile/verify: a correct code makes the number the account's verified mobile. The number it
 * had before is told (a security notice), and every other session of the account ends; this one goes on with
 * a fresh session.
 */
export async function verifyAddMobile(
  deps: AppDeps,
  client: Exchange,
  user: SessionUser,
  input: MobileCodeCheck,
): Promise<void> {
  const row = await checkCode(deps, input, 'add_mobile', user.id);
  if (row.user_id !== user.id) throw badRequest(M.codeExpired, 'code_expired');
  const { db, clock } = deps;
  const now = clock.now();
  try {
    await db.transaction(async (trx) => {
      await trx('mobile_codes').where({ id: row.id }).update({ state: 'used' });
      const before = (await trx('users').where({ id: user.id }).forUpdate().first('mobile')) as
        { mobile: string | null } | undefined;
      await trx('users')
        .where({ id: user.id })
        .update({ mobile: input.mobile, mobile_verified_at: now, updated_at: now });
      if (before?.mobile && before.mobile !== input.mobile) {
        await queueSecurityNotice(
          trx,
          { userId: user.id, kind: 'mobile_changed', subject: `mobile:${row.id}`, to: before.mobile },
          now,
        );
      }
      await revokeUserSessions(trx, user.id);
      await client.startSession(trx, user.id);
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
  // The code goes out after the answer, so the answer's time does not tell either (issue #46).
  return sendCode(deps, client, input, 'reset_password', {
    userId: owner?.id,
    send: owner ? 'later' : false,
  });
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
