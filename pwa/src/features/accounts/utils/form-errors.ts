import type { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per field of a failed zod parse, translated for display. */
export function zodFieldErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = (issue.path[0] ?? 'form') as K;
    if (out[key] === undefined) out[key] = translateMessage(issue.message);
  }
  return out;
}

/** Field messages of a server validation failure (400 with issues), translated. */
export function apiFieldErrors<K extends string>(err: unknown): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  if (!(err instanceof ApiError) || !err.issues) return out;
  for (const issue of err.issues) {
    const key = String(issue.path?.[0] ?? 'form') as K;
    if (out[key] === undefined) out[key] = translateMessage(issue.message);
  }
  return out;
}
