import type { Context } from 'koa';
import { z } from 'zod';
import { badRequest } from './errors';

function toAppError(error: z.ZodError) {
  const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  return badRequest(issues[0]?.message ?? 'Invalid request.', 'validation_failed', issues);
}

/** Parses the JSON body with a contract schema; the first issue's message becomes the error text. */
export function parseBody<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const raw = (ctx.request as unknown as { body?: unknown }).body;
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw toAppError(result.error);
  return result.data;
}

/** Parses the query string with a contract schema. */
export function parseQuery<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  const result = schema.safeParse(ctx.query);
  if (!result.success) throw toAppError(result.error);
  return result.data;
}
