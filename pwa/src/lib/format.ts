import { formatInr, groupIndian } from '../../../api/contract/money';

/**
 * The price styles of earlier releases. They no longer change anything: every price in the app is written one way
 * (see `formatPrice`). Kept so a call that still names one compiles; new code leaves the style out.
 * @deprecated
 */
export type PriceStyle = 'whole' | 'order' | 'detail';

const PRICE_STYLES: ReadonlySet<string> = new Set<PriceStyle>(['whole', 'order', 'detail']);

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
 * The one way the app writes money (docs/product-rules.md): INR with Indian (lakh) grouping, no paise on a whole
 * rupee amount, two digits of paise otherwise — ₹9,20,786 and ₹9,20,786.50. A non-numeric value gives
 * `notAvailable`; pass the translated `t('common.priceNotAvailable')` from a component.
 */
export function formatPrice(value: unknown, notAvailable?: string): string;
/** @deprecated The style no longer changes anything; leave it out. */
export function formatPrice(value: unknown, style: PriceStyle | undefined, notAvailable?: string): string;
export function formatPrice(value: unknown, styleOrNotAvailable?: string, notAvailable?: string): string {
  const fallback =
    styleOrNotAvailable !== undefined && !PRICE_STYLES.has(styleOrNotAvailable)
      ? styleOrNotAvailable
      : (notAvailable ?? 'Price not available');
  const n = parsePrice(value);
  return n === null ? fallback : formatInr(n);
}

/** A plain number with Indian digit grouping: 100000 → 1,00,000. */
export function formatNumber(value: number): string {
  if (Number.isSafeInteger(value)) return `${value < 0 ? '-' : ''}${groupIndian(String(Math.abs(value)))}`;
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

/** The locale numbers are written in for a UI language (Indian grouping in both). */
export function numberLocale(language: string): 'ta-IN' | 'en-IN' {
  return language === 'ta' ? 'ta-IN' : 'en-IN';
}
