import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';
import { formatIndianMobile, MOBILE_MESSAGES, normalizeIndianMobile } from '../../api/contract/mobile';
import { noticeText, noticeVariables, sendableAt } from '../../api/src/features/notices/service';

describe('Indian mobile numbers (issue #37)', () => {
  it('accepts ten digits from 6-9 with or without +91, 91, 0, spaces and dashes', () => {
    for (const v of ['9876543210', '+91 98765 43210', '91-98765-43210', '098765 43210', '+919876543210'])
      expect(normalizeIndianMobile(v)).toBe('+919876543210');
    for (const v of ['5876543210', '987654321', '98765432100', '+1 415 555 0100', 'abcdefghij'])
      expect(normalizeIndianMobile(v)).toBeNull();
  });
  it('shows a number as +91 98765 43210', () => {
    expect(formatIndianMobile('+919876543210')).toBe('+91 98765 43210');
  });
  it('keeps every mobile message, English word for word, under messages.mobile in both languages', () => {
    const texts = en.messages.mobile as Record<string, string>;
    for (const [id, text] of Object.entries(MOBILE_MESSAGES)) {
      if (id === 'nameMax' || id === 'nameHiddenCharacters') continue; // shared with accounts
      expect([id, texts[id]]).toEqual([id, text]);
      expect((ta.messages.mobile as Record<string, string>)[id]).toMatch(/[\u0B80-\u0BFF]/);
    }
  });
});

describe('notice texts and quiet hours', () => {
  it('fills a notice in English and Tamil', () => {
    expect(noticeText('callback_soon', 'en', { shop: 'Lakshmi Jewellers' })).toBe(
      'Nagai: Lakshmi Jewellers will call you in a few minutes. Keep Nagai open to answer.',
    );
    expect(noticeText('order_paid', 'ta', { order: 12, shop: 'லட்சுமி' })).toContain('#12');
  });
  it('holds a non-call notice from 21:00 to 09:00 in the zone, and never a call notice', () => {
    const ist = (h: number, m = 0) => new Date(Date.UTC(2026, 0, 10, h, m) - 5.5 * 3_600_000);
    expect(sendableAt('order_paid', ist(12), 'Asia/Kolkata')).toEqual(ist(12));
    expect(sendableAt('order_paid', ist(20, 59), 'Asia/Kolkata')).toEqual(ist(20, 59));
    expect(sendableAt('order_paid', ist(21), 'Asia/Kolkata')).toEqual(
      new Date(ist(9).getTime() + 86_400_000),
    );
    expect(sendableAt('order_paid', ist(3), 'Asia/Kolkata')).toEqual(ist(9));
    expect(sendableAt('missed_call', ist(23), 'Asia/Kolkata')).toEqual(ist(23));
    // Another zone: 22:00 in London is 03:30 the next day in India, but the person's zone decides.
    const london22 = new Date(Date.UTC(2026, 0, 10, 22));
    expect(sendableAt('order_shipped', london22, 'Europe/London')).toEqual(
      new Date(Date.UTC(2026, 0, 11, 9)),
    );
  });
});

describe('WhatsApp template variables', () => {
  it("number the names in the order each language's text uses them", () => {
    const params = { order: 41, shop: 'Lakshmi Jewellers' };
    // "…your order #{order} from {shop}…" and "{shop} கடையில் … #{order}…".
    expect(noticeVariables('order_paid', 'en', params)).toEqual({ '1': '41', '2': 'Lakshmi Jewellers' });
    expect(noticeVariables('order_paid', 'ta', params)).toEqual({ '1': 'Lakshmi Jewellers', '2': '41' });
    expect(noticeVariables('appointment_reminder', 'en', { shop: 'X' })).toEqual({ '1': 'X' });
  });
});
