/**
 * An Indian mobile number as the app stores it (docs/product-rules.md §17): `+91` and ten digits starting 6-9.
 * A leaf module, so the sign-in schemas of accounts.ts and mobile.ts both read it without an import cycle.
 */

/** Ten digits starting 6-9, after dropping spaces, dashes, a leading +91, 91 or 0. */
export function normalizeIndianMobile(input: string): string | null {
  let digits = input.replace(/[\s\-().]/g, '');
  if (digits.startsWith('+91')) digits = digits.slice(3);
  else if (digits.length === 12 && digits.startsWith('91')) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith('0')) digits = digits.slice(1);
  return /^[6-9][0-9]{9}$/.test(digits) ? `+91${digits}` : null;
}

/** "+91 98765 43210" for a stored "+919876543210". */
export function formatIndianMobile(e164: string): string {
  const d = e164.replace(/^\+91/, '');
  return `+91 ${d.slice(0, 5)} ${d.slice(5)}`;
}

/** True when what was typed is a phone number (digits with spaces, dashes, brackets or a +), not an e-mail. */
export const looksLikePhone = (input: string): boolean => /^[+\d\s\-().]+$/.test(input) && /\d/.test(input);
