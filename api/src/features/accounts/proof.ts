import { ACCOUNT_MESSAGES as A, type ProofInput } from '../../../contract/accounts';
import { MOBILE_MESSAGES as M, type CodeSent, type ReauthCodeRequest } from '../../../contract/mobile';
import type { AppDeps, SessionUser } from '../../http/context';
import type { Exchange } from '../../http/endpoint';
import { badRequest, tooManyRequests } from '../../http/errors';
import { hitRateLimit, resetRateLimit } from '../../http/rate-limit';
import { checkCode, MINUTE, NO_PASSWORD, sendCode } from './codes';
import { verifyPassword } from './password';

/** Wrong current passwords are counted per user in this window (a stolen session must not brute-force it). */
export const PASSWORD_CHANGE_WINDOW_MS = 15 * MINUTE;

/**
 * Checks the user's current password, with wrong guesses counted per user
 * (PASSWORD_CHANGE_ATTEMPTS_PER_USER in PASSWORD_CHANGE_WINDOW_MS): a stolen session must not brute-force it.
 */
export async function checkCurrentPassword(
  deps: AppDeps,
  user: SessionUser,
  password: string,
): Promise<void> {
  const { db, clock, config } = deps;
  const key = `password-change:user:${user.id}`;
  const limit = await hitRateLimit(
    db,
    key,
    config.limits.passwordChangeAttemptsPerUser,
    PASSWORD_CHANGE_WINDOW_MS,
    clock.now(),
  );
  if (!limit.allowed) {
    throw tooManyRequests(
      A.tooManyPasswordAttempts.replace(
        '{minutes}',
        String(Math.max(1, Math.ceil(limit.retryAfterMs / MINUTE))),
      ),
      limit.retryAfterMs / 1000,
      'too_many_attempts',
    );
  }
  const row = (await db('users').where({ id: user.id }).first('password_hash')) as
    { password_hash: string } | undefined;
  if (!row || !password || !(await verifyPassword(row.password_hash, password))) {
    throw badRequest(A.currentPasswordWrong, 'current_password_incorrect');
  }
  await resetRateLimit(db, key);
}

/** What a proven user had before the change: the number to tell, and whether a password was set. */
export interface Proven {
  mobile: string | null;
  hadPassword: boolean;
}

/**
 * The proof a change that gives a new way into the account needs (issue #46, docs/security.md "2."): the
 * current password; or, for a mobile-only account (no password), a code sent to its current number
 * (sendReauthCode), which is spent. A session alone is never enough: a stolen cookie must not add a way in.
 */
export async function proveIdentity(deps: AppDeps, user: SessionUser, proof: ProofInput): Promise<Proven> {
  const row = (await deps.db('users').where({ id: user.id }).first('password_hash', 'mobile')) as
    { password_hash: string; mobile: string | null } | undefined;
  const hadPassword = !!row && row.password_hash !== NO_PASSWORD;
  const mobile = row?.mobile ?? null;
  if (hadPassword || !mobile) {
    if (!proof.currentPassword) throw badRequest(A.proofNeedsPassword, 'current_password_required');
    await checkCurrentPassword(deps, user, proof.currentPassword);
    return { mobile, hadPassword };
  }
  if (!proof.currentCode) throw badRequest(A.proofNeedsCode, 'current_code_required');
  const code = await checkCode(deps, { mobile, code: proof.currentCode }, 'reauth', user.id);
  await deps.db('mobile_codes').where({ id: code.id }).update({ state: 'used' });
  return { mobile, hadPassword };
}

/** POST /_api/user/reauth/code: a code to the signed-in account's own verified number (its proof). */
export async function sendReauthCode(
  deps: AppDeps,
  client: Exchange,
  user: SessionUser,
  input: ReauthCodeRequest,
): Promise<CodeSent> {
  const row = (await deps.db('users').where({ id: user.id }).first('mobile')) as
    { mobile: string | null } | undefined;
  if (!row?.mobile) throw badRequest(M.noVerifiedMobile, 'no_verified_mobile');
  return sendCode(deps, client, { mobile: row.mobile, channel: input.channel }, 'reauth', {
    userId: user.id,
    send: 'now',
  });
}
