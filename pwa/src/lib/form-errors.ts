import type { z } from 'zod';
import { ApiError } from './api-client';
import { translateMessage } from './i18n';

/** A form's messages by field (`form` for the form as a whole). */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** The first message per field of a list of issues (a failed zod parse, a server 400), translated. */
export function fieldErrors<K extends string>(
  issues: readonly { path?: readonly PropertyKey[] | string; message: string }[],
): FieldErrors<K> {
  const out: FieldErrors<K> = {};
  for (const issue of issues) {
    // A zod issue's path is a list; the server sends it dotted ('customerPhone', 'items.0.quantity').
    const first = typeof issue.path === 'string' ? issue.path.split('.')[0] || undefined : issue.path?.[0];
    const key = String(first ?? 'form') as K;
    if (out[key] === undefined) out[key] = translateMessage(issue.message);
  }
  return out;
}

/** The first message per field of a failed zod parse, translated for display. */
export const zodFieldErrors = <K extends string>(error: z.ZodError): FieldErrors<K> =>
  fieldErrors<K>(error.issues);

/**
 * Field messages of a failed request: the issues of a 400, plus refusals without issues that belong to one
 * field (`codeFields`: the error code → the field it is shown on, e.g. a taken store URL on urlSlug), so the
 * person sees which field to change.
 */
export function apiFieldErrors<K extends string>(
  err: unknown,
  codeFields: Partial<Record<string, K>> = {},
): FieldErrors<K> {
  if (!(err instanceof ApiError)) return {};
  const field = err.code === undefined ? undefined : codeFields[err.code];
  const out: FieldErrors<K> = field ? ({ [field]: translateMessage(err.message) } as FieldErrors<K>) : {};
  return { ...fieldErrors<K>(err.issues ?? []), ...out };
}

/** Moves focus to the first invalid field of a form (or any container) once the errors have rendered. */
export function focusFirstInvalid(container: HTMLElement | null) {
  requestAnimationFrame(() => container?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
