import crypto from 'node:crypto';
import type { Next } from 'koa';
import pino, { type Logger } from 'pino';
import type { AppContext } from './context';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'nagai' }, redact: ['req.headers.cookie', 'password'] });
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
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (ctx.path !== '/healthz') {
        logger.info(
          {
            reqId: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(ms * 10) / 10,
            userId: ctx.state.user?.id,
          },
          'request',
        );
      }
    }
  };
}
