import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInr } from '../../api/contract/money';
import { formatCategory, formatNumber, formatPrice, initials, parsePrice } from '../../pwa/src/lib/format';

describe('formatPrice', () => {
  it('writes whole rupees with Indian (lakh) grouping and no paise', () => {
    expect(formatPrice('100000')).toBe('₹1,00,000');
    expect(formatPrice(1234567)).toBe('₹12,34,567');
    expect(formatPrice('920786.00')).toBe('₹9,20,786');
    expect(formatPrice('0.00')).toBe('₹0');
    expect(formatPrice('999')).toBe('₹999');
  });

  it('shows two digits of paise only when the amount is not whole', () => {
    expect(formatPrice('920786.50')).toBe('₹9,20,786.50');
    expect(formatPrice('920786.5')).toBe('₹9,20,786.50');
    expect(formatPrice(1234567.05)).toBe('₹12,34,567.05');
    expect(formatPrice('0.20')).toBe('₹0.20');
    // Float noise that rounds to whole paise is not paise.
    expect(formatPrice(0.1 + 0.2)).toBe('₹0.30');
    expect(formatPrice(100.001)).toBe('₹100');
  });

  it('gives every former style the same answer, so no page writes money its own way', () => {
    for (const v of ['100000', '920786.5', '45999.50', '0'])
      for (const style of ['whole', 'order', 'detail'] as const)
        expect(formatPrice(v, style), `${v} ${style}`).toBe(formatPrice(v));
    expect(formatPrice('45999.50', 'whole')).toBe('₹45,999.50');
    expect(formatPrice('100000', 'detail')).toBe('₹1,00,000');
  });

  it("shows 'Price not available' (or the caller's translation) for a non-numeric price", () => {
    for (const v of ['abc', '', null, undefined, NaN, '12abc', {}, Infinity])
      expect(formatPrice(v), String(v)).toBe('Price not available');
    expect(formatPrice('abc', 'விலை கிடைக்கவில்லை')).toBe('விலை கிடைக்கவில்லை');
    expect(formatPrice('abc', 'whole', 'விலை கிடைக்கவில்லை')).toBe('விலை கிடைக்கவில்லை');
    expect(formatPrice(null, undefined, 'n/a')).toBe('n/a');
  });

  it("writes any amount exactly as Intl's en-IN currency format would, without building it", () => {
    const intl = (digits: 0 | 2) =>
      new Intl.NumberFormat('en-IN', {
        style: 'currency',
        currency: 'INR',
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    const [whole, withPaise] = [intl(0), intl(2)];
    fc.assert(
      fc.property(
        // Any amount up to ₹1 lakh crore, in paise (beyond that a double no longer holds every paisa).
        fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: -1e13, max: 1e13 })),
        (paise) => {
          const expected = paise % 100 === 0 ? whole.format(paise / 100) : withPaise.format(paise / 100);
          expect(formatInr(paise / 100)).toBe(expected);
        },
      ),
      { numRuns: 5000 },
    );
    expect(formatInr(-1234567.5)).toBe('-₹12,34,567.50');
    expect(formatInr(12345678901234.25)).toBe('₹1,23,45,67,89,01,234.25');
  });

  it('parses the decimal strings money arrives as', () => {
    expect(parsePrice(' 2500.75 ')).toBe(2500.75);
    expect(parsePrice('1e5')).toBeNull();
  });
});

describe('other display helpers', () => {
  it('shows categories with underscores as spaces', () => {
    expect(formatCategory('bridal_sets')).toBe('bridal sets');
    expect(formatCategory('hair_accessories')).toBe('hair accessories');
    expect(formatCategory('rings')).toBe('rings');
  });

  it('groups plain numbers the Indian way', () => {
    expect(formatNumber(250000)).toBe('2,50,000');
    for (const n of [0, 7, 999, 1000, 99999, 100000, -1234567, 9007199254740991, 2.5])
      expect(formatNumber(n), String(n)).toBe(new Intl.NumberFormat('en-IN').format(n));
  });

  it('takes the first two letters of the display name, uppercased, for avatar initials', () => {
    expect(initials('priya sharma')).toBe('PR');
    expect(initials('Ab')).toBe('AB');
    expect(initials('x')).toBe('X');
    expect(initials('')).toBe('?');
  });
});
