/**
 * The one way money is written, in the app and in what the server writes for people (link previews): INR with
 * Indian (lakh) grouping, no paise on whole rupees, two digits of paise otherwise — ₹9,20,786 and ₹9,20,786.50.
 *
 * Written out here rather than with Intl.NumberFormat('en-IN', { style: 'currency' }): building that formatter
 * loads the locale's data and took about 70 ms of a phone's start-up (4× slower CPU), inside the task that
 * hydrates the first page. The output is the same as Intl's, which the unit tests check for any amount.
 *
 * Also the conversions between decimal amounts and integer paise. Nothing here imports zod: the app's pages use
 * this module without loading the API's schemas.
 */

/** Digits of a whole number grouped the Indian way: the last three, then pairs (12,34,567). */
export function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits;
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',');
  return `${head},${digits.slice(-3)}`;
}

export function formatInr(amount: number): string {
  // Whole rupees are decided in paise, so float noise never shows as ".00".
  const paise = Math.round(amount * 100);
  const abs = Math.abs(paise);
  const rupees = groupIndian(String(Math.floor(abs / 100)));
  const rest = abs % 100;
  return `${paise < 0 ? '-' : ''}₹${rupees}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`;
}

/** Decimal string ("1234.50", "12", "-3.4") to integer paise, without floats. */
export function toPaise(value: string | number): number {
  const s = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const m = /^(-?)(\d+)(?:\.(\d{0,2})\d*)?$/.exec(s);
  if (!m) throw new Error(`Not a money amount: ${s}`);
  const paise = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -paise : paise;
}

/** Integer paise to a two-decimal string. */
export function fromPaise(paise: number): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
