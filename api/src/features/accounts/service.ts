import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  ACCOUNT_MESSAGES as M,
  type LoginInput,
  type PasswordChangeInput,
  type ProfileUpdateInput,
  type RegisterInput,
} from '../../../contract/accounts';
import type { AppContext, SessionUser } from '../../http/context';
import { AppError, badRequest, conflict, forbidden, tooManyRequests } from '../../http/errors';
import { hitRateLimit, resetRateLimit, type RateLimitResult } from '../../http/rate-limit';
import { revokeUserSessions, startSession, toSessionUser, USER_COLUMNS } from '../../http/session';
import type { SellerProfileRow } from '../sellers/presenter';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';

const MINUTE = 60_000;

/** Failed-login limits: per account (lower-cased email) and per client IP, in one fixed window. */
export const LOGIN_LIMITS = { perAccount: 5, perIp: 30, windowMs: 15 * MINUTE } as const;
/** Registrations per client IP per hour. */
export const REGISTER_LIMITS = { perIp: 20, windowMs: 60 * MINUTE } as const;
/** Wrong current passwords per user before password change locks (a stolen session must not brute-force it). */
export const PASSWORD_CHANGE_LIMITS = { perUser: 5, windowMs: 15 * MINUTE } as const;

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
 * Checks email and password and starts a new session. Each attempt is counted before the password is
 * checked, so concurrent guesses cannot slip past the limit and a locked account stays locked even with
 * the right password; a success clears the account's count and gives back the IP's.
 */
export async function loginWithPassword(ctx: AppContext, input: LoginInput): Promise<LoadedUser> {
  const { db, clock } = ctx.deps;
  const now = clock.now();
  const ipKey = `login:ip:${ctx.ip}`;
  const accountKey = `login:account:${input.email.toLowerCase()}`;

  // IP first: a client already locked out must not keep burning other people's account counters.
  const ip = await hitRateLimit(db, ipKey, LOGIN_LIMITS.perIp, LOGIN_LIMITS.windowMs, now);
  if (!ip.allowed) throw tooMany(M.tooManyLoginAttempts, ip);
  const account = await hitRateLimit(db, accountKey, LOGIN_LIMITS.perAccount, LOGIN_LIMITS.windowMs, now);
  if (!account.allowed) throw tooMany(M.tooManyLoginAttempts, account);

  const row = (await db('users')
    .whereRaw('lower(email) = ?', [input.email.toLowerCase()])
    .first(...USER_COLUMNS, 'password_hash')) as (UserRow & { password_hash: string }) | undefined;
  let ok = false;
  if (row) ok = await verifyPassword(row.password_hash, input.password);
  else await verifyAgainstDummy(input.password);
  if (!row || !ok) throw new AppError(401, 'invalid_credentials', M.invalidCredentials);

  await resetRateLimit(db, accountKey);
  // The IP limit counts failures only: take this success's hit back.
  await db('rate_limits').where({ key: ipKey }).where('count', '>', 0).decrement('count', 1);
  await startSession(ctx, db, row.id);
  const { password_hash: _hash, ...user } = row;
  return withShop(db, toSessionUser(user));
}

/** Compares the admin signup code in constant time; false when the server has none. */
function adminCodeMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
  return crypto.timingSafeEqual(digest(expected), digest(given));
}

/** Creates an account (customer by default; admin only with the server's signup code) and signs it in. */
export async function registerWithPassword(ctx: AppContext, input: RegisterInput): Promise<LoadedUser> {
  const { db, clock, config } = ctx.deps;
  // Counted before the role check too, so the admin code cannot be guessed at speed.
  const limit = await hitRateLimit(
    db,
    `register:ip:${ctx.ip}`,
    REGISTER_LIMITS.perIp,
    REGISTER_LIMITS.windowMs,
    clock.now(),
  );
  if (!limit.allowed) throw tooMany(M.tooManyRegistrations, limit);

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
  await startSession(ctx, db, row.id);
  return { user: toSessionUser(row), shop: null };
}

/** Updates the given profile fields of a user. */
export async function updateProfile(
  db: Knex,
  userId: number,
  input: ProfileUpdateInput,
  now: Date,
): Promise<LoadedUser> {
  const patch: Record<string, unknown> = { updated_at: now };
  if (input.displayName !== undefined) patch.display_name = input.displayName;
  if (input.email !== undefined) patch.email = input.email.toLowerCase();
  if (input.avatarUrl !== undefined) patch.avatar_url = input.avatarUrl;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.address !== undefined) patch.address = input.address;
  let row: UserRow | undefined;
  try {
    [row] = (await db('users')
      .where({ id: userId })
      .update(patch)
      .returning([...USER_COLUMNS])) as UserRow[];
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(M.emailAlreadyInUse, 'email_in_use');
    throw err;
  }
  if (!row) throw new AppError(404, 'not_found', 'User not found.');
  return withShop(db, toSessionUser(row));
}

/**
 * Changes the password after checking the current one, revokes every session of the user (the one
 * used for this request too) and starts a fresh one, so only this tab stays signed in.
 */
export async function changePassword(
  ctx: AppContext,
  user: SessionUser,
  input: PasswordChangeInput,
): Promise<void> {
  const { db, clock } = ctx.deps;
  const key = `password-change:user:${user.id}`;
  const limit = await hitRateLimit(
    db,
    key,
    PASSWORD_CHANGE_LIMITS.perUser,
    PASSWORD_CHANGE_LIMITS.windowMs,
    clock.now(),
  );
  if (!limit.allowed) throw tooMany(M.tooManyPasswordAttempts, limit);

  const row = (await db('users').where({ id: user.id }).first('password_hash')) as
    { password_hash: string } | undefined;
  if (!row || !(await verifyPassword(row.password_hash, input.currentPassword))) {
    throw badRequest(M.currentPasswordWrong, 'current_password_incorrect');
  }
  await resetRateLimit(db, key);

  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (trx) => {
    await trx('users')
      .where({ id: user.id })
      .update({ password_hash: passwordHash, updated_at: clock.now() });
    await revokeUserSessions(trx, user.id);
    await startSession(ctx, trx, user.id);
  });
}
