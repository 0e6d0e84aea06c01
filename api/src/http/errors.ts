import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** A failure meant for the client: its message is shown to a person, its code is stable for programs. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly issues?: { path: string; message: string }[],
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'validation_failed', issues?: AppError['issues']) =>
  new AppError(400, code, message, issues);
export const unauthorized = (message = 'Authentication required. Please log in.', code = 'unauthenticated') =>
  new AppError(401, code, message);
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message: string, code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number, code = 'rate_limited') =>
  new AppError(429, code, message, undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable. Please try again in a moment.';

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
  '53300', // too_many_connections
]);

/**
 * Database refusals that can only come from a value the client sent (a NUL character, a number out of
 * range, text that is not a number, a nesting too deep for jsonb): the validators refuse these first; this
 * is the net under them, so bad input is a 400 and never a 500.
 */
const BAD_INPUT_CODES = new Set([
  '22001', // string_data_right_truncation
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire (NUL in text)
  '22P02', // invalid_text_representation
  '22P05', // untranslatable_character (NUL in jsonb)
  '54001', // statement_too_complex (stack depth)
]);

export const BAD_INPUT_MESSAGE = 'The request contains a value that cannot be accepted.';

/** True when an error means the database cannot be reached or answered too slowly. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_ERROR_CODES.has(e.code) || e.code.startsWith('08')))
    return true;
  if (e.name === 'KnexTimeoutError') return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    msg,
  );
}

/** The one error middleware: every failure becomes { error, code, issues? } with the right status. */
export function errorMiddleware(logger: Logger) {
  return async function errors(ctx: Context, next: Next) {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/_api/')) {
        throw new AppError(404, 'route_not_found', 'This API endpoint does not exist.');
      }
    } catch (err) {
      const e = err as {
        status?: number;
        statusCode?: number;
        expose?: boolean;
        type?: string;
        message?: string;
      };
      if (err instanceof AppError) {
        ctx.status = err.status;
        ctx.body = { error: err.message, code: err.code, ...(err.issues ? { issues: err.issues } : {}) };
        if (err.headers) ctx.set(err.headers);
        return;
      }
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && BAD_INPUT_CODES.has(code)) {
        logger.warn({ err, path: ctx.path }, 'bad input reached the database');
        ctx.status = 400;
        ctx.body = { error: BAD_INPUT_MESSAGE, code: 'invalid_value' };
        return;
      }
      if (isDatabaseUnavailable(err)) {
        logger.warn({ err, path: ctx.path }, 'database unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', '2');
        ctx.body = { error: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' };
        return;
      }
      // Errors raised by body parsing and other http-errors: known, safe statuses.
      const status = e.status ?? e.statusCode;
      if (status && status >= 400 && status < 500) {
        ctx.status = status;
        if (status === 413) ctx.body = { error: 'The request is too large.', code: 'payload_too_large' };
        else if (status === 415)
          ctx.body = { error: 'Requests must be sent as JSON.', code: 'unsupported_media_type' };
        else if (e.type === 'entity.parse.failed' || status === 400)
          ctx.body = { error: 'The request body is not valid JSON.', code: 'invalid_json' };
        else
          ctx.body = {
            error: e.expose && e.message ? e.message : 'The request was refused.',
            code: 'bad_request',
          };
        return;
      }
      logger.error({ err, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Something went wrong on our side. Please try again.', code: 'internal_error' };
    }
  };
}
