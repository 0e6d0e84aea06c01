import type { Knex } from 'knex';
import {
  MOBILE_MESSAGES as M,
  MOBILE_RULES,
  type CodeChannel,
  type CodeSent,
  type MobileCodeCheck,
} from '../../../contract/mobile';
import type { AppDeps } from '../../http/context';
import type { Exchange } from '../../http/endpoint';
import { AppError, badRequest, tooManyRequests } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import { toSessionUser, USER_COLUMNS } from '../../http/session';

/**
 * One-time codes to a mobile number (issue #37, docs/product-rules.md "Mobile sign-in and notices"). The
 * provider (Twilio Verify, or its double) makes, sends and checks the code; this server keeps its own record
 * of every code sent (mobile_codes) and holds the rules on it with the app's clock: valid
 * MOBILE_RULES.codeValidMinutes, MOBILE_RULES.maxWrongCodes tries (each counted before the provider is asked,
 * so concurrent guesses cannot slip past), a resend only after MOBILE_RULES.resendAfterSeconds, and at most
 * MOBILE_CODES_PER_IP_PER_HOUR per address.
 *
 * The per-number allowance (MOBILE_CODES_PER_NUMBER_PER_HOUR) and the resend wait are kept per number AND
 * requesting address (issue #46, docs/security.md "6."): a stranger asking for codes to someone's number spends
 * only their own allowance for it, never the owner's, so they cannot lock the owner out of sign-in or reset.
 */
export type Purpose = 'sign_in' | 'add_mobile' | 'reset_password' | 'reauth';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A password hash no password matches (argon2 rejects it as malformed): the account signs in by code. */
export const NO_PASSWORD = '!no-password';

export interface CodeRow {
  id: string | number;
  user_id: number | null;
  state: 'pending' | 'approved' | 'used' | 'failed';
  wrong_tries: number;
  created_at: Date;
  expires_at: Date;
}

export const tooMany = (template: string, retryAfterMs: number) =>
  tooManyRequests(
    template.replace('{minutes}', String(Math.max(1, Math.ceil(retryAfterMs / MINUTE)))),
    retryAfterMs / 1000,
    'too_many_codes',
  );

export function providerOf(deps: AppDeps) {
  if (!deps.sms) throw new AppError(503, 'mobile_unavailable', M.unavailable);
  return deps.sms;
}

export type UserRow = Parameters<typeof toSessionUser>[0];

export async function userByMobile(db: Knex, mobile: string): Promise<UserRow | undefined> {
  return (await db('users')
    .where({ mobile })
    .first(...USER_COLUMNS)) as UserRow | undefined;
}

/** Code sends still running after their request was answered (send 'later'), per provider. */
const inFlight = new WeakMap<object, Set<Promise<void>>>();

/**
 * Resolves when every code send started after its answer (send 'later') has ended: for tests, and for a
 * process that stops.
 */
export async function codeSendsSettled(deps: Pick<AppDeps, 'sms'>): Promise<void> {
  const sends = deps.sms ? inFlight.get(deps.sms) : undefined;
  while (sends?.size) await Promise.all([...sends]);
}

/**
 * How a code goes out. 'now': the provider is asked before the answer, which says whether it sent (502
 * otherwise). 'later': the answer comes first and the provider is asked after it, so neither the answer nor
 * its time depends on the number (whether an account has it); a failed send ends the code (the person asks
 * again). false: counted and recorded, nothing sent.
 */
export type SendMode = 'now' | 'later' | false;

/** Sends a code for a purpose, after the resend wait and the hourly limits (see the header). */
export async function sendCode(
  deps: AppDeps,
  client: Exchange,
  input: { mobile: string; channel: CodeChannel },
  purpose: Purpose,
  opts: { userId?: number; send: SendMode; locale?: 'en' | 'ta' },
): Promise<CodeSent> {
  const sms = providerOf(deps);
  const { db, clock, config } = deps;
  const now = clock.now();
  // The wait between two codes is per number, purpose and address: another address's request does not hold
  // this one up.
  const last = (await db('mobile_codes')
    .where({ mobile: input.mobile, purpose, ip: client.ip })
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
    `mobile-code:number:${input.mobile}:ip:${client.ip}`,
    config.sms.codesPerNumberPerHour,
    HOUR,
    now,
  );
  if (!number.allowed) throw tooMany(M.tooManyCodesForNumber, number.retryAfterMs);

  let sid: string | null = null;
  if (opts.send === 'now') {
    try {
      sid = await sms.startVerification(input.mobile, input.channel, opts.locale ?? 'en');
    } catch (err) {
      deps.logger.warn({ err }, 'sending a sign-in code failed');
      throw new AppError(502, 'code_not_sent', M.sendFailed);
    }
  }
  const id = await db.transaction(async (trx) => {
    // The newest code is the one that counts: earlier ones of the number and purpose end.
    await trx('mobile_codes')
      .where({ mobile: input.mobile, purpose, state: 'pending' })
      .update({ state: 'failed' });
    const [row] = (await trx('mobile_codes')
      .insert({
        mobile: input.mobile,
        purpose,
        user_id: opts.userId ?? null,
        channel: input.channel,
        verification_sid: sid,
        state: opts.send === false ? 'failed' : 'pending',
        ip: client.ip,
        created_at: now,
        expires_at: new Date(now.getTime() + MOBILE_RULES.codeValidMinutes * MINUTE),
      })
      .returning(['id'])) as { id: string | number }[];
    return row!.id;
  });
  if (opts.send === 'later') {
    const sends = inFlight.get(sms) ?? new Set<Promise<void>>();
    inFlight.set(sms, sends);
    const send: Promise<void> = sms
      .startVerification(input.mobile, input.channel, opts.locale ?? 'en')
      .then(
        async (verificationSid) => {
          await db('mobile_codes').where({ id }).update({ verification_sid: verificationSid });
        },
        async (err: unknown) => {
          deps.logger.warn({ err }, 'sending a code failed');
          await db('mobile_codes').where({ id, state: 'pending' }).update({ state: 'failed' });
        },
      )
      .catch((err: unknown) => deps.logger.warn({ err }, 'recording a code send failed'))
      .finally(() => sends.delete(send));
    sends.add(send);
  }
  return {
    sent: true,
    resendAfterSeconds: MOBILE_RULES.resendAfterSeconds,
    validMinutes: MOBILE_RULES.codeValidMinutes,
  };
}

/**
 * Checks a code against the newest pending code of the number and purpose (of that user, when given): counts
 * the try first, then asks the provider. Answers the approved row; throws 400 wrong_code or code_expired.
 */
export async function checkCode(
  deps: AppDeps,
  input: MobileCodeCheck,
  purpose: Purpose,
  userId?: number,
): Promise<CodeRow> {
  const sms = providerOf(deps);
  const { db, clock } = deps;
  const now = clock.now();
  const counted = (
    (await db.raw(
      `update mobile_codes set wrong_tries = wrong_tries + 1
        where id = (select id from mobile_codes where mobile = ? and purpose = ? and state = 'pending'
                       and (?::int is null or user_id = ?::int)
                     order by created_at desc limit 1)
          and expires_at > ? and wrong_tries < ?
        returning id, user_id, state, wrong_tries, created_at, expires_at`,
      [input.mobile, purpose, userId ?? null, userId ?? null, now, MOBILE_RULES.maxWrongCodes],
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
