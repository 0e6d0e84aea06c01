import crypto from 'node:crypto';
import type { Next } from 'koa';
import pino, { type Level, type Logger } from 'pino';
import { pathsWhere } from '../../contract/routes';
import type { AppContext } from './context';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'nagai' }, redact: ['req.headers.cookie', 'password'] });
}

/**
 * Endpoints every open tab polls (the route table's `log: 'quiet-poll'`) every few seconds (incoming calls every 4 s for each online seller, call
 * status every 2 s, p2p signals). A successful, fast poll is logged at debug: at info they would be
 * thousands of identical lines a second, each costing CPU on the one process that answers them.
 */
export const QUIET_POLL_PATHS: ReadonlySet<string> = pathsWhere((r) => r.log === 'quiet-poll');

/** A request slower than this is always logged at info, whatever its path. */
export const SLOW_REQUEST_MS = 500;

/** The level of a request's log line: debug for a fast successful poll, info for everything else. */
export function requestLogLevel(method: string, path: string, status: number, ms: number): Level {
  const quiet =
    (method === 'GET' || method === 'HEAD') &&
    status < 400 &&
    ms < SLOW_REQUEST_MS &&
    QUIET_POLL_PATHS.has(path);
  return quiet ? 'debug' : 'info';
}

/** One structured log line per request: id, method, path, status, duration, user. */
export function requestLogger(logger: Logger) {
  return async function log(ctx: AppContext, next: Next) {
    const start = process.hrtime.bigint();
    ctx.state.requestId = ctx.get('X-Request-Id').slice(0, 64) || crypto.randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } finally {
      const path = ctx.path;
      if (path !== '/healthz') {
        const ms = Number(process.hrtime.bigint() - start) / 1e6;
        // The server's own time, for the browser's resource timing (serverTiming) and benches.
        if (!ctx.headerSent) ctx.set('Server-Timing', `app;dur=${Math.round(ms * 10) / 10}`);
        const level = requestLogLevel(ctx.method, path, ctx.status, ms);
        // Checked first so a level that is off (warn in benchmarks, info for polls) builds nothing.
        if (logger.isLevelEnabled(level)) {
          logger[level](
            {
              reqId: ctx.state.requestId,
              method: ctx.method,
              path,
              status: ctx.status,
              ms: Math.round(ms * 10) / 10,
              userId: ctx.state.user?.id,
            },
            'request',
          );
        }
      }
    }
  };
}
