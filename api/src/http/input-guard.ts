import type { Context, Next } from 'koa';
import { badRequest } from './errors';

/** How deeply a JSON body may nest; no contract goes beyond a handful of levels. */
export const MAX_BODY_DEPTH = 32;

export const INPUT_MESSAGES = {
  nul: 'Text must not contain NUL (\\u0000) characters.',
  tooDeep: `The request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels).`,
  reservedName:
    'The request body uses a field name that is not allowed (toString, valueOf, constructor, __proto__ and the like).',
} as const;

const hasNul = (s: string) => s.includes('\u0000');

/**
 * The names of Object.prototype's members (toString, valueOf, constructor, hasOwnProperty, __proto__, …). A JSON
 * key with one of them shadows the member on the object the parser builds: `{"toString": 1}` can no longer be
 * turned into text or a number, so String(v), `${v}` or a comparison such as `v >= 1` throws a TypeError (zod's
 * length checks compare a non-string's own `length` that way: `{"length": [{"toString": 1}]}`), and
 * `v.hasOwnProperty(k)` is no longer a function. No contract has a field of these names.
 */
const RESERVED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Refuses, with a 400 and a clear message, input no handler should ever see: NUL characters (PostgreSQL text
 * cannot hold them; the database would fail the statement) in any string or key of the JSON body, the query
 * string or the path, JSON nested deeper than MAX_BODY_DEPTH (recursive validators and jsonb would exhaust
 * their stacks), and JSON keys that shadow Object.prototype's members (RESERVED_NAMES) at any depth of the body.
 * The walk is iterative, so a deep body cannot overflow this check either. The query string needs no such key
 * check: Koa parses it into flat string values, which always convert.
 */
export function inputGuard() {
  return async function inputGuard(ctx: Context, next: Next) {
    if (ctx.path.startsWith('/_api/') || ctx.path.startsWith('/media/')) {
      if (/%00/.test(ctx.path) || hasNul(ctx.path) || /%00/.test(ctx.querystring)) {
        throw badRequest(INPUT_MESSAGES.nul, 'invalid_characters');
      }
      for (const [k, v] of Object.entries(ctx.query)) {
        if (hasNul(k) || (Array.isArray(v) ? v.some(hasNul) : typeof v === 'string' && hasNul(v))) {
          throw badRequest(INPUT_MESSAGES.nul, 'invalid_characters');
        }
      }
      checkBody((ctx.request as unknown as { body?: unknown }).body);
    }
    return next();
  };
}

function checkBody(body: unknown): void {
  if (body === null || typeof body !== 'object') {
    if (typeof body === 'string' && hasNul(body)) throw badRequest(INPUT_MESSAGES.nul, 'invalid_characters');
    return;
  }
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > MAX_BODY_DEPTH) throw badRequest(INPUT_MESSAGES.tooDeep, 'too_deep');
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value as Record<string, unknown>);
    for (const [k, v] of entries) {
      if (hasNul(k)) throw badRequest(INPUT_MESSAGES.nul, 'invalid_characters');
      if (RESERVED_NAMES.has(k)) throw badRequest(INPUT_MESSAGES.reservedName, 'reserved_name');
      if (typeof v === 'string') {
        if (hasNul(v)) throw badRequest(INPUT_MESSAGES.nul, 'invalid_characters');
      } else if (v !== null && typeof v === 'object') stack.push([v, depth + 1]);
    }
  }
}
