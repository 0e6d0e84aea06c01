/** How a price is shown; the spec names a grouping and precision per place. */
export type PriceStyle =
  /** Cart, product cards, price filter, checkout: Indian grouping, no decimals — ₹1,00,000. */
  | 'whole'
  /** Order cards and invoices: Indian grouping, 2 decimals — ₹1,00,000.00. */
  | 'order'
  /** Product detail: US-style grouping of INR, 2 decimals — ₹100,000.00. */
  | 'detail';

const formatters: Record<PriceStyle, Intl.NumberFormat> = {
  whole: new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }),
  order: new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
  detail: new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
};

/** A price as a number, or null when it is not numeric (money arrives as a decimal string). */
export function parsePrice(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/**
 * Formats an INR amount for display. A non-numeric value gives `notAvailable`; pass the translated
 * `t('common.priceNotAvailable')` from a component.
 */
export function formatPrice(
  value: unknown,
  style: PriceStyle = 'whole',
  notAvailable = 'Price not available',
): string {
  const n = parsePrice(value);
  if (n === null) return notAvailable;
  return formatters[style].format(n);
}

/** A plain number with Indian digit grouping: 100000 → 1,00,000. */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en-IN').format(value);
}

/** Category or material value as displayed: underscores become spaces (bridal_sets → bridal sets). */
export function formatCategory(value: string): string {
  return value.replace(/_/g, ' ');
}

/** Two-letter initials of a display name for avatars: the first two letters, uppercased. */
export function initials(displayName: string | null | undefined): string {
  const letters = Array.from((displayName ?? '').replace(/\s+/g, ''));
  return letters.slice(0, 2).join('').toUpperCase() || '?';
}
