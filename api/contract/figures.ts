import { toPaise } from './money';
import { gramsToMg, priceBreakdown, taxableFromInclusive, type MakingType } from './pricing';

/**
 * Every figure checkable where it is decided (issue #49, docs/product-rules.md §20.1): the parts of a piece's
 * GST-inclusive price that the product page, the cart and checkout show, in integer paise, adding up exactly:
 * metal + making + stones = price before GST; price before GST + GST = the price.
 *
 * - A rate-linked piece: the metal value, making charge and stones as its price was computed from the shop's
 *   rate (api/contract/pricing.ts `priceBreakdown`), when they give back its price to the paisa.
 * - A fixed-price piece (or a rate-linked one whose figures do not give back its price): the price before GST
 *   and the GST read back from the price as the invoice reads it; the making charge and stone value the jeweller
 *   stated are shown when they fit inside the price before GST, and the rest is "metal and other value".
 *
 * The GST is always the invoice's (`gstInInclusive`), the one GST figure of issue #40.
 */
export interface PieceFigures {
  /** 'rate': metal is the metal value at the shop's rate; 'fixed': metal is the rest of a fixed price. */
  kind: 'rate' | 'fixed';
  metal: number;
  making: number;
  stones: number;
  /** metal + making + stones: the taxable value. */
  beforeGst: number;
  gst: number;
  /** beforeGst + gst: the price. */
  total: number;
}

export interface PieceFigureInput {
  /** The GST-inclusive unit price, rupees (decimal string). */
  price: string;
  /** The jeweller's making charge and stone value, rupees (decimal strings), if stated. */
  makingCharges: string | null;
  stoneCharges: string | null;
  rateLinked: {
    netWeight: string;
    makingType: MakingType;
    makingValue: string;
    ratePerGram: string;
  } | null;
}

const paiseOrZero = (v: string | null): number => {
  if (v === null || v === '') return 0;
  const p = toPaise(v);
  return Number.isSafeInteger(p) && p > 0 ? p : 0;
};

export function pieceFigures(p: PieceFigureInput): PieceFigures {
  const price = toPaise(p.price);
  const stones = paiseOrZero(p.stoneCharges);
  if (p.rateLinked) {
    const r = p.rateLinked;
    const b = priceBreakdown({
      ratePaisePerGram: toPaise(r.ratePerGram),
      netWeightMg: gramsToMg(r.netWeight),
      makingType: r.makingType,
      makingHundredths: toPaise(r.makingValue),
      stonePaise: stones,
    });
    if (b.total === price) {
      return {
        kind: 'rate',
        metal: b.metalValue,
        making: b.making,
        stones: b.stones,
        beforeGst: b.subtotal,
        gst: b.gst,
        total: b.total,
      };
    }
  }
  const beforeGst = taxableFromInclusive(price);
  let making = paiseOrZero(p.makingCharges);
  let stated = stones;
  // What the jeweller stated is shown only when it fits inside the price before GST.
  if (making + stated > beforeGst) {
    making = 0;
    stated = 0;
  }
  return {
    kind: 'fixed',
    metal: beforeGst - making - stated,
    making,
    stones: stated,
    beforeGst,
    gst: price - beforeGst,
    total: price,
  };
}

/** The figures of lines (unit figures × quantity), summed: a cart's or an order summary's. */
export function sumFigures(lines: { figures: PieceFigures; quantity: number }[]): PieceFigures {
  const out: PieceFigures = {
    kind: 'rate',
    metal: 0,
    making: 0,
    stones: 0,
    beforeGst: 0,
    gst: 0,
    total: 0,
  };
  for (const { figures: f, quantity: q } of lines) {
    if (f.kind === 'fixed') out.kind = 'fixed';
    out.metal += f.metal * q;
    out.making += f.making * q;
    out.stones += f.stones * q;
    out.beforeGst += f.beforeGst * q;
    out.gst += f.gst * q;
    out.total += f.total * q;
  }
  return out;
}
