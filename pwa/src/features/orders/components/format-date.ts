import { i18n } from '../../../lib/i18n';

/** An order date in the reader's language: 12 Mar 2026 (en-IN) or its Tamil form. */
export function formatOrderDate(iso: string, withTime = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(date);
}
