import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountInWords,
  defaultInvoicePrefix,
  divRoundHalfUp,
  documentNumber,
  financialYear,
  gramsToMg,
  GST_STATE_CODES,
  GST_STATES,
  gstOn,
  hsnFor,
  inclusiveBreakdown,
  invoiceMoney,
  isValidGstin,
  mgToGrams,
  numberInWords,
  priceBreakdown,
  splitGst,
  stateCodeOf,
  taxableFromInclusive,
  gstInInclusive,
} from '../../api/contract/pricing';
import { pieceFigures, sumFigures } from '../../api/contract/figures';
import { fromPaise } from '../../api/contract/money';

/** The inverse of numberInWords, for the round trip (a test helper, not product code). */
function wordsToNumber(words: string): number {
  const small: Record<string, number> = {};
  [
    'Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve',
    'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen',
  ].forEach((w, i) => (small[w] = i)); // prettier-ignore
  ['Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'].forEach(
    (w, i) => (small[w] = (i + 2) * 10),
  );
  let total = 0;
  let group = 0;
  for (const w of words.split(' ')) {
    if (w in small) group += small[w];
    else if (w === 'Hundred') group *= 100;
    else if (w === 'Thousand') {
      total += group * 1000;
      group = 0;
    } else if (w === 'Lakh') {
      total += group * 100_000;
      group = 0;
    } else if (w === 'Crore') {
      total = (total + group) * 10_000_000;
      group = 0;
    } else throw new Error(`unknown word ${w}`);
  }
  return total + group;
}

describe('rounding (one rule: half up to the paisa)', () => {
  it('rounds halves up and everything else to the nearest', () => {
    expect(divRoundHalfUp(5n, 10n)).toBe(1n);
    expect(divRoundHalfUp(4n, 10n)).toBe(0n);
    expect(divRoundHalfUp(15n, 10n)).toBe(2n);
    expect(divRoundHalfUp(25n, 10n)).toBe(3n);
    expect(gstOn(50)).toBe(2); // 1.5 paise → 2
    expect(gstOn(49)).toBe(1); // 1.47 → 1
  });
  it('weights are milligrams without floats', () => {
    expect(gramsToMg('10.5')).toBe(10_500);
    expect(gramsToMg('0.001')).toBe(1);
    expect(gramsToMg(2)).toBe(2000);
    expect(mgToGrams(10_500)).toBe('10.500');
    expect(() => gramsToMg('1.2345')).toThrow();
  });
});

describe('price = rate × net weight + making + stones, plus 3% GST', () => {
  it('a 22K chain at ₹6,750/g, 10.5 g, 12% making, ₹1,500 stones', () => {
    const b = priceBreakdown({
      ratePaisePerGram: 675_000,
      netWeightMg: 10_500,
      makingType: 'percent',
      makingHundredths: 1200,
      stonePaise: 150_000,
    });
    expect(b.metalValue).toBe(7_087_500); // ₹70,875.00
    expect(b.making).toBe(850_500); // ₹8,505.00
    expect(b.subtotal).toBe(8_088_000);
    expect(b.gst).toBe(242_640); // ₹2,426.40
    expect(b.total).toBe(8_330_640);
  });
  it('per-gram making and rounding of the metal value', () => {
    // ₹6,543.21/g × 1.234 g = ₹8,074.32114 → ₹8,074.32; ₹450/g × 1.234 g = ₹555.30
    const b = priceBreakdown({
      ratePaisePerGram: 654_321,
      netWeightMg: 1234,
      makingType: 'per_gram',
      makingHundredths: 45_000,
      stonePaise: 0,
    });
    expect(b.metalValue).toBe(807_432);
    expect(b.making).toBe(55_530);
    expect(b.gst).toBe(gstOn(807_432 + 55_530));
  });
  it('reading a rate-linked price back gives its own subtotal and GST (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (subtotal) => {
        const price = subtotal + gstOn(subtotal);
        expect(taxableFromInclusive(price)).toBe(subtotal);
        expect(inclusiveBreakdown(price)).toMatchObject({ subtotal, gst: price - subtotal, total: price });
      }),
    );
  });
  it('never loses precision on large amounts (property: total = subtotal + GST, parts add up)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.constantFrom('percent' as const, 'per_gram' as const),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        (rate, mg, type, making, stones) => {
          const b = priceBreakdown({
            ratePaisePerGram: rate,
            netWeightMg: mg,
            makingType: type,
            makingHundredths: making,
            stonePaise: stones,
          });
          expect(Number.isSafeInteger(b.total)).toBe(true);
          expect(b.subtotal).toBe(b.metalValue + b.making + b.stones);
          expect(b.total).toBe(b.subtotal + b.gst);
          expect(Math.abs(b.gst * 100 - b.subtotal * 3)).toBeLessThanOrEqual(50);
        },
      ),
    );
  });
});

describe('the tax split', () => {
  it('CGST + SGST equals the GST, the odd paisa to CGST (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (gst) => {
        const s = splitGst(gst, true);
        expect(s.cgst + s.sgst).toBe(gst);
        expect(s.cgst - s.sgst === 0 || s.cgst - s.sgst === 1).toBe(true);
        expect(s.igst).toBe(0);
      }),
    );
    expect(splitGst(243, true)).toEqual({ kind: 'intra', cgst: 122, sgst: 121, igst: 0 });
  });
  it('inter-state is IGST 3%', () => {
    expect(splitGst(243, false)).toEqual({ kind: 'inter', cgst: 0, sgst: 0, igst: 243 });
  });
  it('an invoice adds up to exactly what was charged', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            unitPrice: fc.integer({ min: 1, max: 1e9 }),
            quantity: fc.integer({ min: 1, max: 20 }),
          }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.boolean(),
        (lines, intra) => {
          const inv = invoiceMoney(lines, intra);
          const charged = lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0);
          expect(inv.total).toBe(charged);
          expect(inv.split.cgst + inv.split.sgst + inv.split.igst).toBe(inv.gst);
        },
      ),
    );
  });
  it('HSN 7113 for jewellery, 7117 for imitation', () => {
    expect(hsnFor('gold')).toBe('7113');
    expect(hsnFor('diamond')).toBe('7113');
    expect(hsnFor('artificial')).toBe('7117');
    expect(hsnFor('brass')).toBe('7117');
  });
  it('state codes and GSTINs', () => {
    expect(stateCodeOf('Tamil Nadu')).toBe('33');
    expect(stateCodeOf(' tamil  nadu ')).toBe('33');
    expect(stateCodeOf('33')).toBe('33');
    expect(stateCodeOf('Karnataka')).toBe('29');
    expect(stateCodeOf('Orissa')).toBe('21');
    expect(stateCodeOf('Atlantis')).toBeNull();
    expect(stateCodeOf('28')).toBeNull();
    expect(isValidGstin('33ABCDE1234F1Z5')).toBe(true);
    expect(isValidGstin('99ABCDE1234F1Z5')).toBe(false); // no such state
    expect(isValidGstin('33ABCDE1234F1Y5')).toBe(false);
    expect(isValidGstin('33abcde1234f1z5')).toBe(false);
  });
});

describe('amount in words (Indian system)', () => {
  it('lakh and crore', () => {
    expect(numberInWords(0)).toBe('Zero');
    expect(numberInWords(15)).toBe('Fifteen');
    expect(numberInWords(105)).toBe('One Hundred Five');
    expect(numberInWords(100_000)).toBe('One Lakh');
    expect(numberInWords(123_456)).toBe('One Lakh Twenty Three Thousand Four Hundred Fifty Six');
    expect(numberInWords(10_000_000)).toBe('One Crore');
    expect(numberInWords(123_456_789)).toBe(
      'Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine',
    );
    expect(numberInWords(1_000_000_000_000)).toBe('One Lakh Crore');
  });
  it('rupees and paise', () => {
    expect(amountInWords(8_330_640)).toBe(
      'Rupees Eighty Three Thousand Three Hundred Six and Forty Paise Only',
    );
    expect(amountInWords(10_000_000)).toBe('Rupees One Lakh Only');
    expect(amountInWords(1)).toBe('Rupees Zero and One Paise Only');
  });
  it('round-trips the digits (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (v) => {
        expect(wordsToNumber(numberInWords(v))).toBe(v);
      }),
    );
  });
});

describe('invoice numbers and the financial year (April–March, IST)', () => {
  it('changes year on 1 April in India, not in UTC', () => {
    expect(financialYear(new Date('2026-03-31T18:29:59Z'))).toBe('2025-26'); // 23:59:59 IST on 31 March
    expect(financialYear(new Date('2026-03-31T18:30:00Z'))).toBe('2026-27'); // 00:00 IST on 1 April
    expect(financialYear(new Date('2027-01-15T10:00:00Z'))).toBe('2026-27');
    expect(financialYear(new Date('2099-12-31T00:00:00Z'))).toBe('2099-00');
  });
  it('formats the number per shop and year', () => {
    expect(documentNumber('invoice', 'LAK', '2026-27', 42)).toBe('LAK/2026-27/000042');
    expect(documentNumber('credit_note', 'LAK', '2026-27', 1)).toBe('LAK/CN/2026-27/000001');
    expect(defaultInvoicePrefix('Lakshmi Jewellers')).toBe('LAK');
    expect(defaultInvoicePrefix('நகை')).toBe('NGI');
  });
});

describe('the GST state list', () => {
  it('is in code order, 01 (Jammu and Kashmir) first, as a jeweller reads the codes on a GSTIN', () => {
    expect(GST_STATE_CODES[0]).toBe('01');
    expect(GST_STATES[GST_STATE_CODES[0]]).toBe('Jammu and Kashmir');
    expect([...GST_STATE_CODES]).toEqual(Object.keys(GST_STATES).sort((a, b) => Number(a) - Number(b)));
    expect(new Set(GST_STATE_CODES).size).toBe(Object.keys(GST_STATES).length);
  });
});

describe('pieceFigures: every figure checkable (issue #49)', () => {
  it('gives a rate-linked piece its metal, making and stones, adding up to its price', () => {
    const b = priceBreakdown({
      ratePaisePerGram: 650_000,
      netWeightMg: 10_500,
      makingType: 'percent',
      makingHundredths: 1200,
      stonePaise: 0,
    });
    const f = pieceFigures({
      price: fromPaise(b.total),
      makingCharges: null,
      stoneCharges: null,
      rateLinked: {
        netWeight: '10.500',
        makingType: 'percent',
        makingValue: '12.00',
        ratePerGram: '6500.00',
      },
    });
    expect(f).toEqual({
      kind: 'rate',
      metal: b.metalValue,
      making: b.making,
      stones: 0,
      beforeGst: b.subtotal,
      gst: b.gst,
      total: b.total,
    });
    expect(f.gst).toBe(gstInInclusive(f.total));
  });

  it('reads a fixed price as the invoice does, with what the jeweller stated when it fits', () => {
    const f = pieceFigures({
      price: '10300.00',
      makingCharges: '1000',
      stoneCharges: '500.00',
      rateLinked: null,
    });
    expect(f).toEqual({
      kind: 'fixed',
      metal: 850_000,
      making: 100_000,
      stones: 50_000,
      beforeGst: 1_000_000,
      gst: 30_000,
      total: 1_030_000,
    });
    // Stated parts larger than the price before GST are not shown: only the price before GST and the GST.
    expect(
      pieceFigures({ price: '103.00', makingCharges: '500', stoneCharges: null, rateLinked: null }),
    ).toEqual({
      kind: 'fixed',
      metal: 10_000,
      making: 0,
      stones: 0,
      beforeGst: 10_000,
      gst: 300,
      total: 10_300,
    });
  });

  it('sums lines × quantity, each sum adding up to the total', () => {
    const a = pieceFigures({ price: '1234.50', makingCharges: null, stoneCharges: null, rateLinked: null });
    const b = pieceFigures({
      price: '10300.00',
      makingCharges: '1000',
      stoneCharges: null,
      rateLinked: null,
    });
    const s = sumFigures([
      { figures: a, quantity: 3 },
      { figures: b, quantity: 2 },
    ]);
    expect(s.total).toBe(123_450 * 3 + 1_030_000 * 2);
    expect(s.metal + s.making + s.stones).toBe(s.beforeGst);
    expect(s.beforeGst + s.gst).toBe(s.total);
  });
});
