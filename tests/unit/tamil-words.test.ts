import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountInTamilWords, numberInTamilWords } from '../../api/contract/tamil-words';

/**
 * Reads Tamil number words back (an independent reading, with its own word list): a unit or tens word adds to
 * the count under a thousand, a hundreds word too; ஆயிரம் merged with its count, லட்சம் and கோடி multiply.
 */
const UNITS: Record<string, number> = {
  பூஜ்ஜியம்: 0, ஒன்று: 1, ஒரு: 1, இரண்டு: 2, மூன்று: 3, நான்கு: 4, ஐந்து: 5, ஆறு: 6, ஏழு: 7, எட்டு: 8,
  ஒன்பது: 9, பத்து: 10, பதினொன்று: 11, பன்னிரண்டு: 12, பதின்மூன்று: 13, பதினான்கு: 14, பதினைந்து: 15,
  பதினாறு: 16, பதினேழு: 17, பதினெட்டு: 18, பத்தொன்பது: 19, இருபது: 20, இருபத்து: 20, முப்பது: 30,
  முப்பத்து: 30, நாற்பது: 40, நாற்பத்து: 40, ஐம்பது: 50, ஐம்பத்து: 50, அறுபது: 60, அறுபத்து: 60, எழுபது: 70,
  எழுபத்து: 70, எண்பது: 80, எண்பத்து: 80, தொண்ணூறு: 90, தொண்ணூற்று: 90, நூறு: 100, நூற்று: 100,
  இருநூறு: 200, இருநூற்று: 200, முந்நூறு: 300, முந்நூற்று: 300, நானூறு: 400, நானூற்று: 400, ஐந்நூறு: 500,
  ஐந்நூற்று: 500, அறுநூறு: 600, அறுநூற்று: 600, எழுநூறு: 700, எழுநூற்று: 700, எண்ணூறு: 800,
  எண்ணூற்று: 800, தொள்ளாயிரம்: 900, தொள்ளாயிரத்து: 900,
}; // prettier-ignore
const THOUSAND: Record<string, number> = { ஆயிரம்: 1, ஆயிரத்து: 1, ஓராயிரம்: 1, ஓராயிரத்து: 1 };

function tamilWordsToNumber(text: string): number {
  let total = 0;
  let count = 0;
  for (const w of text.split(' ')) {
    if (w in UNITS) count += UNITS[w];
    else if (w in THOUSAND) {
      if (w.startsWith('ஆ') && count) throw new Error(`ஆயிரம் after a count: ${text}`);
      total += (count + THOUSAND[w]) * 1000;
      count = 0;
    } else if (/ாயிர(ம்|த்து)$/.test(w)) {
      const stem = w.replace(/ாயிர(ம்|த்து)$/, '\u0BC1');
      const unit = stem === 'பதினோரு' ? 11 : UNITS[stem];
      if (unit === undefined) throw new Error(`Unknown thousands word ${w}`);
      total += (count + unit) * 1000;
      count = 0;
    } else if (w === 'லட்சம்' || w === 'லட்சத்து') {
      total += count * 100_000;
      count = 0;
    } else if (w === 'கோடி' || w === 'கோடியே') {
      total = (total + count) * 10_000_000;
      count = 0;
    } else throw new Error(`Unknown word ${w}`);
  }
  return total + count;
}

describe('amounts in Tamil words (Indian grouping)', () => {
  it('writes the small numbers', () => {
    expect(numberInTamilWords(0)).toBe('பூஜ்ஜியம்');
    expect(numberInTamilWords(1)).toBe('ஒன்று');
    expect(numberInTamilWords(11)).toBe('பதினொன்று');
    expect(numberInTamilWords(20)).toBe('இருபது');
    expect(numberInTamilWords(21)).toBe('இருபத்து ஒன்று');
    expect(numberInTamilWords(99)).toBe('தொண்ணூற்று ஒன்பது');
    expect(numberInTamilWords(100)).toBe('நூறு');
    expect(numberInTamilWords(101)).toBe('நூற்று ஒன்று');
    expect(numberInTamilWords(500)).toBe('ஐந்நூறு');
    expect(numberInTamilWords(900)).toBe('தொள்ளாயிரம்');
    expect(numberInTamilWords(999)).toBe('தொள்ளாயிரத்து தொண்ணூற்று ஒன்பது');
  });
  it('merges the count of thousands with ஆயிரம், and joins what follows', () => {
    expect(numberInTamilWords(1000)).toBe('ஆயிரம்');
    expect(numberInTamilWords(1200)).toBe('ஆயிரத்து இருநூறு');
    expect(numberInTamilWords(2000)).toBe('இரண்டாயிரம்');
    expect(numberInTamilWords(2500)).toBe('இரண்டாயிரத்து ஐந்நூறு');
    expect(numberInTamilWords(6000)).toBe('ஆறாயிரம்');
    expect(numberInTamilWords(10_000)).toBe('பத்தாயிரம்');
    expect(numberInTamilWords(11_000)).toBe('பதினோராயிரம்');
    expect(numberInTamilWords(20_600)).toBe('இருபதாயிரத்து அறுநூறு');
    expect(numberInTamilWords(21_000)).toBe('இருபத்து ஓராயிரம்');
    expect(numberInTamilWords(90_000)).toBe('தொண்ணூறாயிரம்');
    expect(numberInTamilWords(99_999)).toBe('தொண்ணூற்று ஒன்பதாயிரத்து தொள்ளாயிரத்து தொண்ணூற்று ஒன்பது');
  });
  it('counts lakhs and crores with ஒரு before the noun', () => {
    expect(numberInTamilWords(100_000)).toBe('ஒரு லட்சம்');
    expect(numberInTamilWords(101_000)).toBe('ஒரு லட்சத்து ஆயிரம்');
    expect(numberInTamilWords(150_000)).toBe('ஒரு லட்சத்து ஐம்பதாயிரம்');
    expect(numberInTamilWords(500_000)).toBe('ஐந்து லட்சம்');
    expect(numberInTamilWords(2_100_000)).toBe('இருபத்து ஒரு லட்சம்');
    expect(numberInTamilWords(123_456)).toBe('ஒரு லட்சத்து இருபத்து மூன்றாயிரத்து நானூற்று ஐம்பத்து ஆறு');
    expect(numberInTamilWords(10_000_000)).toBe('ஒரு கோடி');
    expect(numberInTamilWords(15_000_000)).toBe('ஒரு கோடியே ஐம்பது லட்சம்');
    expect(numberInTamilWords(123_456_789)).toBe(
      'பன்னிரண்டு கோடியே முப்பத்து நான்கு லட்சத்து ஐம்பத்து ஆறாயிரத்து எழுநூற்று எண்பத்து ஒன்பது',
    );
    expect(numberInTamilWords(1_000_000_000_000)).toBe('ஒரு லட்சம் கோடி');
  });
  it('writes rupees and paise', () => {
    expect(amountInTamilWords(2_060_000)).toBe('ரூபாய் இருபதாயிரத்து அறுநூறு மட்டும்');
    expect(amountInTamilWords(8_330_640)).toBe(
      'ரூபாய் எண்பத்து மூன்றாயிரத்து முந்நூற்று ஆறு மற்றும் நாற்பது பைசா மட்டும்',
    );
    expect(amountInTamilWords(10_000_000)).toBe('ரூபாய் ஒரு லட்சம் மட்டும்');
    expect(amountInTamilWords(1)).toBe('ரூபாய் பூஜ்ஜியம் மற்றும் ஒரு பைசா மட்டும்');
    expect(amountInTamilWords(2121)).toBe('ரூபாய் இருபத்து ஒன்று மற்றும் இருபத்து ஒரு பைசா மட்டும்');
    expect(() => amountInTamilWords(-1)).toThrow();
    expect(() => amountInTamilWords(1.5)).toThrow();
  });
  it('reads back as the same number, for every amount up to two lakh', () => {
    for (let v = 0; v <= 200_000; v++) {
      const words = numberInTamilWords(v);
      if (/[A-Za-z]|undefined|\s\s/.test(words)) throw new Error(`${v}: ${words}`);
      if (tamilWordsToNumber(words) !== v) throw new Error(`${v} read back as ${tamilWordsToNumber(words)}`);
    }
  });
  it('reads back as the same number up to a lakh crore (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (v) => {
        expect(tamilWordsToNumber(numberInTamilWords(v))).toBe(v);
      }),
      { numRuns: 2000 },
    );
  });
});
