import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  ACCOUNT_MESSAGES as M,
  isReservedEmail,
  type LoginInput,
  type PasswordChangeInput,
  type ProfileUpdateInput,
  type RegisterInput,
} from '../../../contract/accounts';
import type { AppDeps, SessionUser } from '../../http/context';
import type { Exchange } from '../../http/endpoint';
import { AppError, badRequest, conflict, forbidden, tooManyRequests } from '../../http/errors';
import {
  hitRateLimit,
  peekRateLimit,
  resetRateLimit,
  throttleAttempt,
  type RateLimitResult,
} from '../../http/rate-limit';
import { revokeUserSessions, toSessionUser, USER_COLUMNS } from '../../http/session';
import { queueSecurityNotice } from '../notices/service';
import type { SellerProfileRow } from '../sellers/presenter';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';
import { proveIdentity } from './proof';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Failed logins are remembered per account and address for this long (the growing wait restarts after). */
export const LOGIN_FAILURE_WINDOW_MS = 24 * HOUR;
export { PASSWORD_CHANGE_WINDOW_MS } from './proof';

type UserRow = Parameters<typeof toSessionUser>[0];

/** A user together with their shop row, ready for presentUser. */
export interface LoadedUser {
  user: SessionUser;
  shop: SellerProfileRow | null;
}

const isUniqueViolation = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '23505';

const fill = (template: string, retryAfterMs: number) =>
  template.replace('{minutes}', String(Math.max(1, Math.ceil(retryAfterMs / MINUTE))));

/** 429 for a short wait, told in seconds. */
const tooManySeconds = (template: string, retryAfterMs: number) =>
  tooManyRequests(
    template.replace('{seconds}', String(Math.max(1, Math.ceil(retryAfterMs / 1000)))),
    retryAfterMs / 1000,
    'too_many_attempts',
  );

const tooMany = (template: string, limit: RateLimitResult) =>
  tooManyRequests(fill(template, limit.retryAfterMs), limit.retryAfterMs / 1000, 'too_many_attempts');

/** Adds the user's shop (if any) to an already loaded user. */
export async function withShop(db: Knex, user: SessionUser): Promise<LoadedUser> {
  const shop = (await db('seller_profiles').where({ user_id: user.id }).first()) as
    SellerProfileRow | undefined;
  return { user, shop: shop ?? null };
}

/** Loads a user by id with their shop. */
export async function loadUser(db: Knex, id: number): Promise<LoadedUser> {
  const row = (await db('users')
    .where({ id })
    .first(...USER_COLUMNS)) as UserRow | undefined;
  if (!row) throw new AppError(404, 'not_found', 'User not found.');
  return withShop(db, toSessionUser(row));
}

/**
 * Checks email and password and starts a new session. Never locks an account: a guesser is slowed per account
 * and address (LOGIN_FREE_ATTEMPTS at once, then a wait that doubles with each failure), so the owner coming
 * from another address is never held up by a stranger's guesses. The attempt is counted before the password is
 * checked, so concurrent guesses cannot slip past the wait; a success clears its account-and-address count.
 * Per address alone only a loose bound applies (a carrier NAT puts thousands of customers behind one address).
 * Failures against an existing account are recorded on it, for the owner to see at their next sign-in.
 */
export async function loginWithPassword(
  deps: AppDeps,
  client: Exchange,
  input: LoginInput,
): Promise<LoadedUser> {
  const { db, clock, config } = deps;
  const limits = config.limits;
  const now = clock.now();
  const email = input.email.toLowerCase();
  const ipKey = `login:ip:${client.ip}`;
  const pairKey = `login:pair:${client.ip}:${email}`;

  const ip = await peekRateLimit(db, ipKey, limits.loginFailuresPerIpPerHour, HOUR, now);
  if (!ip.allowed) throw tooMany(M.tooManyLoginAttempts, ip);
  const pair = await throttleAttempt(
    db,
    pairKey,
    {
      free: limits.loginFreeAttempts,
      baseMs: limits.loginDelayBaseMs,
      maxMs: limits.loginDelayMaxMs,
      windowMs: LOGIN_FAILURE_WINDOW_MS,
    },
    now,
  );
  if (!pair.allowed) throw tooManySeconds(M.loginSlowDown, pair.retryAfterMs);

  // An e-mail, or a verified mobile number (+91…, as LoginSchema normalised it: issue #49).
  const byMobile = email.startsWith('+');
  const row = (await (
    byMobile
      ? db('users').where({ mobile: email }).whereNotNull('mobile_verified_at')
      : db('users').whereRaw('lower(email) = ?', [email])
  ).first(...USER_COLUMNS, 'password_hash')) as (UserRow & { password_hash: string }) | undefined;
  let ok = false;
  if (row) ok = await verifyPassword(row.password_hash, input.password);
  else await verifyAgainstDummy(input.password);
  if (!row || !ok) {
    await hitRateLimit(db, ipKey, limits.loginFailuresPerIpPerHour, HOUR, now);
    if (row) {
      await db('users')
        .where({ id: row.id })
        .update({ failed_logins: db.raw('failed_logins + 1'), failed_login_at: now });
    }
    throw new AppError(401, 'invalid_credentials', M.invalidCredentials);
  }

  await resetRateLimit(db, pairKey);
  await client.startSession(db, row.id);
  const { password_hash: _hash, ...user } = row;
  return withShop(db, toSessionUser(user));
}

/** The owner has seen the notice of failed sign-ins: forget them. */
export async function dismissLoginNotice(db: Knex, userId: number): Promise<void> {
  await db('users').where({ id: userId }).update({ failed_logins: 0, failed_login_at: null });
}

/** Compares the admin signup code in constant time; false when the server has none. */
function adminCodeMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
  return crypto.timingSafeEqual(digest(expected), digest(given));
}

/** Creates an account (customer by default; admin only with the server's signup code) and signs it in. */
export async function registerWithPassword(
  deps: AppDeps,
  client: Exchange,
  input: RegisterInput,
): Promise<LoadedUser> {
  const { db, clock, config } = deps;
  // Counted before the role check too, so the admin code cannot be guessed at speed.
  const limit = await hitRateLimit(
    db,
    `register:ip:${client.ip}`,
    config.limits.registrationPerIpPerHour,
    HOUR,
    clock.now(),
  );
  if (!limit.allowed) throw tooMany(M.tooManyRegistrations, limit);

  // The stand-in addresses of mobile-only accounts: taking one would block that number's sign-up (issue #46).
  if (isReservedEmail(input.email)) throw badRequest(M.emailReserved, 'email_reserved');

  const role = input.role ?? 'customer';
  if (role === 'admin' && !adminCodeMatches(config.adminSignupCode, input.adminSignupCode)) {
    throw forbidden(M.adminSignupRefused, 'admin_signup_refused');
  }

  const passwordHash = await hashPassword(input.password);
  let row: UserRow;
  try {
    [row] = (await db('users')
      .insert({
        email: input.email.toLowerCase(),
        password_hash: passwordHash,
        display_name: input.displayName,
        full_name: input.fullName || null,
        role,
      })
      .returning([...USER_COLUMNS])) as UserRow[];
  } catch (err) {
    // The unique index on lower(email) decides, so two racing sign-ups cannot both win.
    if (isUniqueViolation(err)) throw conflict(M.emailAlreadyInUse, 'email_in_use');
    throw err;
  }
  await client.startSession(db, row.id);
  return { user: toSessionUser(row), shop: null };
}

/**
 * Updates the given profile fields of a user. A new email is a new way into the account (issue #46): it needs
 * the proof of proveIdentity (the current password, or for a mobile-only account a code to its number), it may
 * not be a reserved stand-in address, the account's verified number is told, and every other session ends
 * (this one goes on with a fresh session). An email that is taken gets the same 400 as any email that cannot
 * be used: the answer never says that another account has it.
 */
export async function updateProfile(
  deps: AppDeps,
  client: Exchange,
  user: SessionUser,
  input: ProfileUpdateInput,
): Promise<{ loaded: LoadedUser; sessionsEnded: boolean }> {
  const { db, clock } = deps;
  const now = clock.now();
  const patch: Record<string, unknown> = { updated_at: now };
  if (input.displayName !== undefined) patch.display_name = input.displayName;
  let notify: string | null | undefined;
  if (input.email !== undefined && input.email.toLowerCase() !== user.email.toLowerCase()) {
    if (isReservedEmail(input.email)) throw badRequest(M.emailReserved, 'email_reserved');
    notify = (await proveIdentity(deps, user, input)).mobile;
    patch.email = input.email.toLowerCase();
  }
  if (input.avatarUrl !== undefined) {
    if (input.avatarUrl !== null) {
      const key = input.avatarUrl.slice('/media/'.length);
      if (!(await db('media').where({ key }).first('key'))) throw badRequest(M.invalidAvatarUrl);
    }
    patch.avatar_url = input.avatarUrl;
  }
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.address !== undefined) patch.address = input.address;
  const emailChanged = patch.email !== undefined;
  let row: UserRow | undefined;
  try {
    row = await db.transaction(async (trx) => {
      const [updated] = (await trx('users')
        .where({ id: user.id })
        .update(patch)
        .returning([...USER_COLUMNS])) as UserRow[];
      if (updated && emailChanged) {
        if (notify) {
          await queueSecurityNotice(
            trx,
            { userId: user.id, kind: 'email_changed', subject: `email:${now.getTime()}`, to: notify },
            now,
          );
        }
        await revokeUserSessions(trx, user.id);
        await client.startSession(trx, user.id);
      }
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw badRequest(M.emailUnavailable, 'email_unavailable');
    throw err;
  }
  if (!row) throw new AppError(404, 'not_found', 'User not found.');
  return { loaded: await withShop(db, toSessionUser(row)), sessionsEnded: emailChanged };
}

/**
 * Changes the password, or sets the first one of a mobile-only account, after the proof of proveIdentity (the
 * current password, or a code to the account's number). The account's verified number is told, every session
 * of the user ends (the one used for this request too) and a fresh one starts, so only this tab stays signed in.
 */
export async function changePassword(
  deps: AppDeps,
  client: Exchange,
  user: SessionUser,
  input: PasswordChangeInput,
): Promise<void> {
  const { db, clock } = deps;
  const { mobile } = await proveIdentity(deps, user, input);

  const passwordHash = await hashPassword(input.newPassword);
  const now = clock.now();
  await db.transaction(async (trx) => {
    await trx('users').where({ id: user.id }).update({ password_hash: passwordHash, updated_at: now });
    if (mobile) {
      await queueSecurityNotice(
        trx,
        { userId: user.id, kind: 'password_changed', subject: `password:${now.getTime()}`, to: mobile },
        now,
      );
    }
    await revokeUserSessions(trx, user.id);
    await client.startSession(trx, user.id);
  });
}
