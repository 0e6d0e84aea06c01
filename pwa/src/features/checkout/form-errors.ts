import type { z } from 'zod';
import { ApiError } from '../../lib/api-client';
import { translateMessage } from '../../lib/i18n';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per field of a failed zod parse (or of a server 400 with issues), translated. */
export function fieldErrors<K extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? 'form') as K;
    if (out[key] === undefined) out[key] = translateMessage(issue.message);
  }
  return out;
}

export const zodFieldErrors = <K extends string>(error: z.ZodError) => fieldErrors<K>(error.issues);

export const apiFieldErrors = <K extends string>(err: unknown): FieldErrors<K> =>
  err instanceof ApiError && err.issues ? fieldErrors<K>(err.issues) : {};
