import { describe, expect, it } from 'vitest';
import { readPricePhrase } from '../../api/src/features/catalog/price-phrase';

const R = 100; // paise per rupee

describe('a price named in a search (docs/product-rules.md §20.2)', () => {
  it.each([
    ['chain under 30k', { maxPaise: 30_000 * R, rest: 'chain' }],
    ['silver anklet below 5000', { maxPaise: 5_000 * R, rest: 'silver anklet' }],
    ['bangles under 1 lakh', { maxPaise: 100_000 * R, rest: 'bangles' }],
    ['necklace below ₹1,50,000', { maxPaise: 150_000 * R, rest: 'necklace' }],
    ['ring less than rs. 8,500', { maxPaise: 8_500 * R, rest: 'ring' }],
    ['earrings up to 12k', { maxPaise: 12_000 * R, rest: 'earrings' }],
    ['haram under 1.5 lakh', { maxPaise: 150_000 * R, rest: 'haram' }],
    ['gold chain above 50000', { minPaise: 50_000 * R, rest: 'gold chain' }],
    ['bridal set over 2 lakhs', { minPaise: 200_000 * R, rest: 'bridal set' }],
    ['pendant more than 10k', { minPaise: 10_000 * R, rest: 'pendant' }],
    ['chains between 10k and 20k', { minPaise: 10_000 * R, maxPaise: 20_000 * R, rest: 'chains' }],
    ['rings from 5000 to 9000', { minPaise: 5_000 * R, maxPaise: 9_000 * R, rest: 'rings' }],
    ['studs 10 to 20k', { minPaise: 10_000 * R, maxPaise: 20_000 * R, rest: 'studs' }],
    ['between 20k and 10k bangles', { minPaise: 10_000 * R, maxPaise: 20_000 * R, rest: 'bangles' }],
  ])('English: %s', (text, want) => {
    const got = readPricePhrase(text);
    expect(got).toMatchObject(want);
    if (!('minPaise' in want)) expect(got?.minPaise).toBeUndefined();
    if (!('maxPaise' in want)) expect(got?.maxPaise).toBeUndefined();
  });

  it.each([
    ['கொலுசு 5000க்குள்', { maxPaise: 5_000 * R, rest: 'கொலுசு' }],
    ['சங்கிலி 30 ஆயிரத்துக்கு கீழ்', { maxPaise: 30_000 * R, rest: 'சங்கிலி' }],
    ['வளையல் 1 லட்சத்துக்குள்', { maxPaise: 100_000 * R, rest: 'வளையல்' }],
    ['ஆரம் 50000 ரூபாய்க்கு மேல்', { minPaise: 50_000 * R, rest: 'ஆரம்' }],
    ['தோடு 10 ஆயிரம் முதல் 20 ஆயிரம் வரை', { minPaise: 10_000 * R, maxPaise: 20_000 * R, rest: 'தோடு' }],
    ['மோதிரம் 8000 வரை', { maxPaise: 8_000 * R, rest: 'மோதிரம்' }],
  ])('Tamil: %s', (text, want) => {
    expect(readPricePhrase(text)).toMatchObject(want);
  });

  it.each([
    ['kolusu 5000 kulla', { maxPaise: 5_000 * R, rest: 'kolusu' }],
    ['sangili 30k keela', { maxPaise: 30_000 * R, rest: 'sangili' }],
    ['valayal 20k mela', { minPaise: 20_000 * R, rest: 'valayal' }],
  ])('Tanglish: %s', (text, want) => {
    expect(readPricePhrase(text)).toMatchObject(want);
  });

  it('keeps a number that bounds nothing: a purity, a size or a count is not a price', () => {
    expect(readPricePhrase('22k gold chain')).toBeNull();
    expect(readPricePhrase('916 bangles')).toBeNull();
    expect(readPricePhrase('bangles size 2.6')).toBeNull();
    expect(readPricePhrase('lakshmi jewellers')).toBeNull();
    expect(readPricePhrase('bangles 2 - 4')).toBeNull();
  });

  it('reads the price but leaves a purity beside it', () => {
    expect(readPricePhrase('22k gold chain under 30k')).toMatchObject({
      maxPaise: 3_000_000,
      phrase: 'under 30k',
      rest: '22k gold chain',
    });
  });

  it('gives whole paise for fractional lakhs and rupee amounts', () => {
    expect(readPricePhrase('under 2.35 lakh')?.maxPaise).toBe(23_500_000);
    expect(Number.isInteger(readPricePhrase('below 999.99')?.maxPaise)).toBe(true);
    expect(readPricePhrase('below 999.99')?.maxPaise).toBe(99_999);
  });
});
