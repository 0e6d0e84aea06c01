import type { z } from 'zod';
import { ApiError } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';

export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per field of a failed zod parse, translated for display. */
export function zodFieldErrors<K extends string>(error: z.ZodError): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form') as K;
    if (out[key] === undefined) out[key] = translateMessage(issue.message);
  }
  return out;
}

/**
 * Field messages of a failed request: the issues of a 400, plus the store-URL conflict (a 409 without issues)
 * shown on the urlSlug field, so the seller sees which field to change.
 */
export function apiFieldErrors<K extends string>(err: unknown): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  if (!(err instanceof ApiError)) return out;
  if (err.code === 'url_slug_taken') out['urlSlug' as K] = translateMessage(err.message);
  for (const issue of err.issues ?? []) {
    const key = String(issue.path?.[0] ?? 'form') as K;
    if (out[key] === undefined) out[key] = translateMessage(issue.message);
  }
  return out;
}

/** Moves focus to the first invalid field of a container once the errors have rendered. */
export function focusFirstInvalid(container: HTMLElement | null) {
  requestAnimationFrame(() => container?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
