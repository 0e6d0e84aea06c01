/**
 * Money arithmetic of issue #25, stated once and shared by the server, the PWA and the tests
 * (docs/product-rules.md §10 "Pricing, hallmark and the GST invoice").
 *
 * Every amount is an integer number of paise; weights are integer milligrams; a percentage or a per-gram
 * making charge is an integer number of hundredths (12.50 % → 1250, ₹450.00/g → 45000). No floats are used
 * for money: products of large values go through BigInt.
 *
 * THE ROUNDING RULE (the only one): every division rounds half up to the whole paisa (all amounts are
 * non-negative, so this is also PostgreSQL's `round(numeric, 2)`, which the repricing UPDATE uses — the two
 * agree, tests/api/pricing.test.ts checks it):
 *
 * - metal value  = round(rate per gram × net weight)
 * - making       = round(metal value × percent / 100)      or round(per-gram charge × net weight)
 * - stones       = the stone value as entered (whole paise)
 * - subtotal     = metal value + making + stones            (the unit's taxable value)
 * - GST          = round(subtotal × 3 / 100)                 on the whole subtotal, per unit
 * - price        = subtotal + GST                           (what the catalogue shows and the cart charges)
 *
 * On the invoice a line's unit taxable value is read back from the GST-inclusive unit price that was locked at
 * checkout: taxable = round(price × 100 / 103), GST = price − taxable. For a rate-linked product this gives back
 * exactly the subtotal and GST above (|rounding error| ≤ ½ paisa × 100/103 < ½), and a fixed-price product's
 * price is read as GST-inclusive the same way. A line's taxable value and GST are quantity × the unit's, so the
 * invoice adds up to exactly what was charged. The invoice's total GST is split for an intra-state supply into
 * CGST 1.5 % and SGST 1.5 % with the odd paisa going to CGST (CGST = ⌈GST / 2⌉, SGST = ⌊GST / 2⌋), so
 * CGST + SGST always equals the GST; an inter-state supply is IGST 3 %.
 */

/** GST on jewellery (HSN 7113 and 7117), percent. */
export const GST_PERCENT = 3;

export const METALS = ['gold', 'silver', 'platinum'] as const;
export type Metal = (typeof METALS)[number];

/** The purities a shop keeps a rate for, per metal. */
export const METAL_PURITIES = {
  gold: ['24K', '22K', '18K'],
  silver: ['999', '925'],
  platinum: ['950'],
} as const satisfies Record<Metal, readonly string[]>;
export type MetalPurity = (typeof METAL_PURITIES)[Metal][number];
export const ALL_PURITIES = [...new Set(Object.values(METAL_PURITIES).flat())] as MetalPurity[];

export const PRICING_MODES = ['fixed', 'rate'] as const;
export type PricingMode = (typeof PRICING_MODES)[number];
export const MAKING_TYPES = ['percent', 'per_gram'] as const;
export type MakingType = (typeof MAKING_TYPES)[number];

/** A gold piece of this many milligrams or more must carry a HUID (BIS hallmarking). */
export const HUID_REQUIRED_FROM_MG = 2000;
export const HUID_PATTERN = /^[A-Z0-9]{6}$/;

/** Materials sold as imitation jewellery (HSN 7117); everything else is jewellery of precious metal (7113). */
export const IMITATION_MATERIALS = ['artificial', 'brass', 'copper'] as const;
export const HSN_JEWELLERY = '7113';
export const HSN_IMITATION = '7117';
export const hsnFor = (material: string): string =>
  (IMITATION_MATERIALS as readonly string[]).includes(material) ? HSN_IMITATION : HSN_JEWELLERY;

/** a / b rounded half up, for a ≥ 0 and b > 0, exact for any size. */
export function divRoundHalfUp(a: bigint, b: bigint): bigint {
  return (a * 2n + b) / (b * 2n);
}
const n = (v: number) => BigInt(v);

/** "12.345" grams (at most 3 decimals) to milligrams. */
export function gramsToMg(value: string | number): number {
  const s = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(\d+)(?:\.(\d{0,3}))?$/.exec(s);
  if (!m) throw new Error(`Not a weight in grams: ${s}`);
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
}

/** Milligrams to a 3-decimal gram string. */
export const mgToGrams = (mg: number) => `${Math.floor(mg / 1000)}.${String(mg % 1000).padStart(3, '0')}`;

export const metalValuePaise = (ratePaisePerGram: number, netWeightMg: number): number =>
  Number(divRoundHalfUp(n(ratePaisePerGram) * n(netWeightMg), 1000n));

/** makingHundredths: basis points for 'percent', paise per gram for 'per_gram'. */
export function makingPaise(
  type: MakingType,
  makingHundredths: number,
  metalValue: number,
  netWeightMg: number,
): number {
  return type === 'percent'
    ? Number(divRoundHalfUp(n(metalValue) * n(makingHundredths), 10_000n))
    : Number(divRoundHalfUp(n(makingHundredths) * n(netWeightMg), 1000n));
}

export const gstOn = (taxablePaise: number): number =>
  Number(divRoundHalfUp(n(taxablePaise) * n(GST_PERCENT), 100n));

/** The unit's taxable value inside a GST-inclusive price. */
export const taxableFromInclusive = (inclusivePaise: number): number =>
  Number(divRoundHalfUp(n(inclusivePaise) * 100n, n(100 + GST_PERCENT)));

/**
 * The GST inside a GST-inclusive unit price, as the tax invoice reads it back (price − taxable). The one GST
 * figure: the product page, the cart, the order summary and the invoice all show this (issue #40).
 */
export const gstInInclusive = (inclusivePaise: number): number =>
  inclusivePaise - taxableFromInclusive(inclusivePaise);

export interface RateLinkedInput {
  ratePaisePerGram: number;
  netWeightMg: number;
  makingType: MakingType;
  makingHundredths: number;
  stonePaise: number;
}

/** The breakdown the product page, the cart and the invoice show, in paise. */
export interface PriceBreakdown {
  metalValue: number;
  making: number;
  stones: number;
  subtotal: number;
  gst: number;
  total: number;
}

export function priceBreakdown(p: RateLinkedInput): PriceBreakdown {
  const metalValue = metalValuePaise(p.ratePaisePerGram, p.netWeightMg);
  const making = makingPaise(p.makingType, p.makingHundredths, metalValue, p.netWeightMg);
  const subtotal = metalValue + making + p.stonePaise;
  const gst = gstOn(subtotal);
  return { metalValue, making, stones: p.stonePaise, subtotal, gst, total: subtotal + gst };
}

/** A fixed (GST-inclusive) price read as a breakdown: no metal or making part. */
export function inclusiveBreakdown(pricePaise: number): PriceBreakdown {
  const subtotal = taxableFromInclusive(pricePaise);
  return {
    metalValue: 0,
    making: 0,
    stones: 0,
    subtotal,
    gst: pricePaise - subtotal,
    total: pricePaise,
  };
}

export interface TaxSplit {
  kind: 'intra' | 'inter';
  cgst: number;
  sgst: number;
  igst: number;
}

/** CGST + SGST (odd paisa to CGST) within the seller's state, IGST across states. */
export function splitGst(gstPaise: number, intraState: boolean): TaxSplit {
  if (!intraState) return { kind: 'inter', cgst: 0, sgst: 0, igst: gstPaise };
  const sgst = Math.floor(gstPaise / 2);
  return { kind: 'intra', cgst: gstPaise - sgst, sgst, igst: 0 };
}

export interface InvoiceLineMoney {
  unitPrice: number;
  quantity: number;
  unitTaxable: number;
  unitGst: number;
  taxable: number;
  gst: number;
  total: number;
}

export function invoiceLineMoney(unitPricePaise: number, quantity: number): InvoiceLineMoney {
  const unitTaxable = taxableFromInclusive(unitPricePaise);
  const unitGst = unitPricePaise - unitTaxable;
  return {
    unitPrice: unitPricePaise,
    quantity,
    unitTaxable,
    unitGst,
    taxable: unitTaxable * quantity,
    gst: unitGst * quantity,
    total: unitPricePaise * quantity,
  };
}

export interface InvoiceMoney {
  lines: InvoiceLineMoney[];
  taxable: number;
  gst: number;
  split: TaxSplit;
  total: number;
}

export function invoiceMoney(
  lines: { unitPrice: number; quantity: number }[],
  intraState: boolean,
): InvoiceMoney {
  const out = lines.map((l) => invoiceLineMoney(l.unitPrice, l.quantity));
  const taxable = out.reduce((s, l) => s + l.taxable, 0);
  const gst = out.reduce((s, l) => s + l.gst, 0);
  return { lines: out, taxable, gst, split: splitGst(gst, intraState), total: taxable + gst };
}

// ---------------------------------------------------------------------------------------------------------
// Amount in words, Indian system (thousand, lakh, crore).

const ONES = [
  'Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve',
  'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen',
]; // prettier-ignore
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function belowHundred(v: number): string {
  if (v < 20) return ONES[v];
  const t = TENS[Math.floor(v / 10)];
  return v % 10 ? `${t} ${ONES[v % 10]}` : t;
}

function belowThousand(v: number): string {
  const h = Math.floor(v / 100);
  const rest = v % 100;
  const parts: string[] = [];
  if (h) parts.push(`${ONES[h]} Hundred`);
  if (rest) parts.push(belowHundred(rest));
  return parts.join(' ');
}

/** A whole number in words, Indian grouping: 12,34,56,789 → "Twelve Crore Thirty Four Lakh …". */
export function numberInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`Not a whole amount: ${value}`);
  if (value === 0) return 'Zero';
  const crore = Math.floor(value / 10_000_000);
  const lakh = Math.floor((value % 10_000_000) / 100_000);
  const thousand = Math.floor((value % 100_000) / 1000);
  const rest = value % 1000;
  const parts: string[] = [];
  if (crore) parts.push(`${numberInWords(crore)} Crore`);
  if (lakh) parts.push(`${belowHundred(lakh)} Lakh`);
  if (thousand) parts.push(`${belowHundred(thousand)} Thousand`);
  if (rest) parts.push(belowThousand(rest));
  return parts.join(' ');
}

/** "Rupees One Lakh Twenty Three Thousand and Forty Five Paise Only". */
export function amountInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const p = paise % 100;
  const base = `Rupees ${numberInWords(rupees)}`;
  return p ? `${base} and ${belowHundred(p)} Paise Only` : `${base} Only`;
}

// ---------------------------------------------------------------------------------------------------------
// Invoice numbers and the financial year.

/** India Standard Time has no daylight saving: UTC + 5:30. */
const IST_OFFSET_MS = 330 * 60_000;

/** The Indian financial year (April–March, in IST) of a moment: "2026-27". */
export function financialYear(at: Date): string {
  const ist = new Date(at.getTime() + IST_OFFSET_MS);
  const y = ist.getUTCFullYear();
  const start = ist.getUTCMonth() >= 3 ? y : y - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

export const INVOICE_SEQ_DIGITS = 6;
export const INVOICE_PREFIX_PATTERN = /^[A-Z]{2,6}$/;
export const DEFAULT_INVOICE_PREFIX = 'NGI';

/** A shop's default prefix: the first three Latin letters of its name, upper-cased ("Lakshmi" → "LAK"). */
export function defaultInvoicePrefix(shopName: string): string {
  const letters = shopName
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, 3);
  return letters.length >= 2 ? letters : DEFAULT_INVOICE_PREFIX;
}

/** LAK/2026-27/000042; a credit note: LAK/CN/2026-27/000001 (its own series). */
export function documentNumber(
  kind: 'invoice' | 'credit_note',
  prefix: string,
  fy: string,
  seq: number,
): string {
  const digits = String(seq).padStart(INVOICE_SEQ_DIGITS, '0');
  return kind === 'invoice' ? `${prefix}/${fy}/${digits}` : `${prefix}/CN/${fy}/${digits}`;
}

// ---------------------------------------------------------------------------------------------------------
// GST state codes and GSTINs.

/** The GST state codes (the first two characters of a GSTIN) and the names of the states and territories. */
export const GST_STATES: Record<string, string> = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
};

/**
 * The GST state codes in code order, 01 first. An object's own keys are not in that order: "10"–"38" are
 * integer keys and come before "01"–"09", so a list drawn from the object put Jammu and Kashmir (01) last.
 */
export const GST_STATE_CODES: readonly string[] = Object.keys(GST_STATES).sort();

const STATE_ALIASES: Record<string, string> = {
  orissa: '21',
  pondicherry: '34',
  'new delhi': '07',
  'nct of delhi': '07',
  'daman and diu': '26',
  'dadra and nagar haveli': '26',
  'jammu & kashmir': '01',
  'andaman & nicobar islands': '35',
};

const normaliseState = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');
const STATE_BY_NAME = new Map<string, string>([
  ...Object.entries(GST_STATES).map(([code, name]) => [normaliseState(name), code] as [string, string]),
  ...Object.entries(STATE_ALIASES),
]);

/** The GST state code of a state as people type it (name or two-digit code), or null when unknown. */
export function stateCodeOf(state: string | null | undefined): string | null {
  if (!state) return null;
  const s = normaliseState(state);
  if (/^\d{2}$/.test(s)) return GST_STATES[s] ? s : null;
  return STATE_BY_NAME.get(s) ?? null;
}

/** 15 characters: state code, PAN (5 letters, 4 digits, a letter), entity number, 'Z', check character. */
export const GSTIN_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

export const isValidGstin = (gstin: string): boolean =>
  GSTIN_PATTERN.test(gstin) && GST_STATES[gstin.slice(0, 2)] !== undefined;
