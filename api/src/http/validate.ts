import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from './context';
import { BAD_INPUT_MESSAGE, badRequest } from './errors';

function toAppError(error: z.ZodError) {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return badRequest(issues[0]?.message ?? 'Invalid request.', 'validation_failed', issues);
}

/**
 * Applies a schema. A validator that throws instead of reporting an issue has met a value no contract accepts
 * (zod's min/max length checks compare a non-string's own `length` with a number, which throws a TypeError when
 * that `length` cannot be converted, e.g. `{"length": [{"toString": 1}]}`): a 400 like any refused value, never
 * a 500. The input guard refuses the keys that make such values; this is the net under it.
 */
function safeParse<S extends z.ZodType>(ctx: Context, schema: S, value: unknown) {
  try {
    return schema.safeParse(value);
  } catch (err) {
    if (!(err instanceof TypeError || err instanceof RangeError)) throw err;
    (ctx as { deps?: AppDeps }).deps?.logger.warn({ err, path: ctx.path }, 'a validator threw on the input');
    throw badRequest(BAD_INPUT_MESSAGE, 'invalid_value');
  }
}

/** Parses the JSON body with a contract schema; the first issue's message becomes the error text. */
export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const raw = (ctx.request as unknown as { body?: unknown }).body;
  const result = safeParse(ctx, schema, raw ?? {});
  if (!result.success) throw toAppError(result.error);
  return result.data;
}

/** Parses the query string with a contract schema. */
export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const result = safeParse(ctx, schema, ctx.query);
  if (!result.success) throw toAppError(result.error);
  return result.data;
}
