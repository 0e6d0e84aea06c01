import { describe, expect, it } from 'vitest';
import { formatCategory, formatNumber, formatPrice, initials, parsePrice } from '../../pwa/src/lib/format';

describe('formatPrice', () => {
  it('uses Indian digit grouping without decimals for cart, cards, filter and checkout', () => {
    expect(formatPrice('100000')).toBe('₹1,00,000');
    expect(formatPrice(1234567)).toBe('₹12,34,567');
    expect(formatPrice('45999.50', 'whole')).toBe('₹46,000');
    expect(formatPrice('0.00')).toBe('₹0');
  });

  it('shows 2 decimals with Indian grouping on order cards', () => {
    expect(formatPrice('100000', 'order')).toBe('₹1,00,000.00');
    expect(formatPrice('1234567.5', 'order')).toBe('₹12,34,567.50');
  });

  it('uses US-style grouping of INR on the product detail', () => {
    expect(formatPrice('100000', 'detail')).toBe('₹100,000.00');
    expect(formatPrice(1234567.5, 'detail')).toBe('₹1,234,567.50');
  });

  it("shows 'Price not available' (or the caller's translation) for a non-numeric price", () => {
    for (const v of ['abc', '', null, undefined, NaN, '12abc', {}, Infinity])
      expect(formatPrice(v), String(v)).toBe('Price not available');
    expect(formatPrice('abc', 'whole', 'விலை கிடைக்கவில்லை')).toBe('விலை கிடைக்கவில்லை');
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
  });

  it('takes the first two letters of the display name, uppercased, for avatar initials', () => {
    expect(initials('priya sharma')).toBe('PR');
    expect(initials('Ab')).toBe('AB');
    expect(initials('x')).toBe('X');
    expect(initials('')).toBe('?');
  });
});
