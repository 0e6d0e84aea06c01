import type { Knex } from 'knex';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
}

/**
 * Counts one hit against a fixed window kept in the database (so every API process shares it).
 * Returns whether the hit is within the limit.
 */
export async function hitRateLimit(
  db: Knex,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateLimitResult> {
  const windowStartCutoff = new Date(now.getTime() - windowMs);
  const row = (await db
    .raw(
      `insert into rate_limits (key, count, window_start) values (?, 1, ?)
       on conflict (key) do update set
         count = case when rate_limits.window_start <= ? then 1 else rate_limits.count + 1 end,
         window_start = case when rate_limits.window_start <= ? then excluded.window_start else rate_limits.window_start end
       returning count, window_start`,
      [key, now, windowStartCutoff, windowStartCutoff],
    )
    .then((r: { rows: { count: number; window_start: Date }[] }) => r.rows[0])) as {
    count: number;
    window_start: Date;
  };
  const retryAfterMs = Math.max(0, new Date(row.window_start).getTime() + windowMs - now.getTime());
  return { allowed: row.count <= limit, count: row.count, retryAfterMs };
}

/** Reads a window's count without counting a hit. */
export async function peekRateLimit(
  db: Knex,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateLimitResult> {
  const row = (await db('rate_limits').where({ key }).first('count', 'window_start')) as
    { count: number; window_start: Date } | undefined;
  if (!row || new Date(row.window_start).getTime() + windowMs <= now.getTime()) {
    return { allowed: true, count: 0, retryAfterMs: 0 };
  }
  const retryAfterMs = new Date(row.window_start).getTime() + windowMs - now.getTime();
  return { allowed: row.count < limit, count: row.count, retryAfterMs };
}

/** Forgets a window (for example after a successful login). */
export async function resetRateLimit(db: Knex, key: string): Promise<void> {
  await db('rate_limits').where({ key }).delete();
}

export interface ThrottleResult {
  /** False: the caller must wait retryAfterMs before this key may try again. */
  allowed: boolean;
  /** Attempts counted in the window, this one included (0 when refused). */
  count: number;
  retryAfterMs: number;
}

/**
 * A slowing throttle (failed logins): `free` attempts in the window pass at once; from the free-th on, each
 * attempt makes the next one wait, base × 2^(n − free) capped at maxMs (an attempt during the wait is refused
 * and not counted). Checked and counted in one statement (the
 * row lock orders racing attempts), so concurrent guesses cannot slip past a wait. A success calls
 * resetRateLimit. Never a lockout: the wait is only ever as long as the last delay.
 */
export async function throttleAttempt(
  db: Knex,
  key: string,
  policy: { free: number; baseMs: number; maxMs: number; windowMs: number },
  now: Date,
): Promise<ThrottleResult> {
  const cutoff = new Date(now.getTime() - policy.windowMs);
  const next = 'case when rate_limits.window_start <= ? then 1 else rate_limits.count + 1 end';
  const lockAfter = (n: string) =>
    `case when ${n} >= ? then ?::timestamptz + make_interval(secs => least(?, ? * power(2, least(30, ${n} - ?))) / 1000.0) end`;
  // The bindings of lockAfter(n), given those of n itself.
  const lockAfterBindings = (n: Date[]): Knex.Value[] => [
    ...n,
    policy.free,
    now,
    policy.maxMs,
    policy.baseMs,
    ...n,
    policy.free,
  ];
  const rows = (
    (await db.raw(
      `insert into rate_limits (key, count, window_start, locked_until) values (?, 1, ?, ${lockAfter('1')})
       on conflict (key) do update set
         count = ${next},
         window_start = case when rate_limits.window_start <= ? then excluded.window_start
                             else rate_limits.window_start end,
         locked_until = ${lockAfter(`(${next})`)}
       where rate_limits.locked_until is null or rate_limits.locked_until <= ?
       returning count`,
      [
        key,
        now,
        ...lockAfterBindings([]),
        cutoff, // count
        cutoff, // window_start
        ...lockAfterBindings([cutoff]),
        now,
      ],
    )) as { rows: { count: number }[] }
  ).rows;
  if (rows.length === 0) {
    const row = (await db('rate_limits').where({ key }).first('locked_until')) as
      { locked_until: Date | string | null } | undefined;
    const until = row?.locked_until ? new Date(row.locked_until).getTime() : now.getTime() + 1000;
    return { allowed: false, count: 0, retryAfterMs: Math.max(1000, until - now.getTime()) };
  }
  const count = rows[0].count;
  return { allowed: true, count, retryAfterMs: 0 };
}

/** The wait a throttled key has left, in ms (0: it may try now). */
export async function throttleWait(db: Knex, key: string, now: Date): Promise<number> {
  const row = (await db('rate_limits').where({ key }).first('locked_until')) as
    { locked_until: Date | string | null } | undefined;
  if (!row?.locked_until) return 0;
  return Math.max(0, new Date(row.locked_until).getTime() - now.getTime());
}

/**
 * A fixed-window counter in this process's memory, for hot read paths (search) where a database write per
 * request would cost more than the request: a loose outer bound per process (n processes allow n × limit).
 * Keys are forgotten when their window ends; at most maxKeys are kept (the oldest windows go first).
 */
export class MemoryRateLimiter {
  private windows = new Map<string, { count: number; start: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, now: number): RateLimitResult {
    let w = this.windows.get(key);
    if (!w || w.start + this.windowMs <= now) {
      if (w) this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) this.prune(now);
      w = { count: 0, start: now };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { allowed: w.count <= this.limit, count: w.count, retryAfterMs: w.start + this.windowMs - now };
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) {
      if (w.start + this.windowMs <= now) this.windows.delete(key);
    }
    // Still full: drop the oldest entries (a Map iterates in insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/** The longest window any counter uses (failed logins: a day); older rows can only be stale. */
export const RATE_LIMIT_RETENTION_MS = 25 * 3_600_000;

/** Deletes counters whose window ended long ago and that hold no wait (a background sweep keeps the table small). */
export async function sweepRateLimits(db: Knex, now: Date): Promise<number> {
  return db('rate_limits')
    .where('window_start', '<', new Date(now.getTime() - RATE_LIMIT_RETENTION_MS))
    .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now))
    .delete();
}
