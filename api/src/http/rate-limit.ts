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
