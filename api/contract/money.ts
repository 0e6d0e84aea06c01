/**
 * The one way money is written, in the app and in what the server writes for people (link previews): INR with
 * Indian (lakh) grouping, no paise on whole rupees, two digits of paise otherwise — ₹9,20,786 and ₹9,20,786.50.
 */
const currency = (fractionDigits: 0 | 2) =>
  new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
const wholeRupees = currency(0);
const withPaise = currency(2);

export function formatInr(amount: number): string {
  // Whole rupees are decided in paise, so float noise never shows as ".00".
  const paise = Math.round(amount * 100);
  return paise % 100 === 0 ? wholeRupees.format(paise / 100) : withPaise.format(paise / 100);
}
