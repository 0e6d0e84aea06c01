import { normalizeText } from './query-reading';

/**
 * A price named in a search ("chain under 30k", "silver anklet below ₹5,000", "bangles under 1 lakh",
 * "above 50000", "between 10k and 20k", "5000க்குள்", "30 ஆயிரத்துக்கு கீழ்", "10 ஆயிரம் முதல் 20 ஆயிரம் வரை",
 * "30k kulla"): the bounds it sets, in integer paise, and the search's other words (docs/product-rules.md §20.2).
 * A number is a price only beside a word that bounds it (under, above, between, க்குள், மேல், வரை…): "22k gold"
 * stays a purity.
 */
export interface PricePhrase {
  /** Lowest price, integer paise (inclusive). */
  minPaise?: number;
  /** Highest price, integer paise (inclusive). */
  maxPaise?: number;
  /** The words that said the price, as typed (normalised). */
  phrase: string;
  /** The search without them. */
  rest: string;
}

type Kind = 'num' | 'unit' | 'cur' | 'max' | 'min' | 'between' | 'from' | 'join' | 'till' | 'filler' | 'word';
interface Token {
  text: string;
  start: number;
  end: number;
  kind: Kind;
  /** A number's value, a unit's multiplier (rupees). */
  value?: number;
  /** A Tamil word's glued ending said "within" (max) or "above" (min). */
  glued?: 'max' | 'min';
}

const UNITS: Record<string, number> = {
  k: 1_000,
  thousand: 1_000,
  thousands: 1_000,
  l: 100_000,
  lakh: 100_000,
  lakhs: 100_000,
  lac: 100_000,
  lacs: 100_000,
  lk: 100_000,
  cr: 10_000_000,
  crore: 10_000_000,
  crores: 10_000_000,
};
/** Tamil unit stems, whatever case ending follows (ஆயிரம், ஆயிரத்துக்குள், லட்சத்துக்கு…). */
const TA_UNITS: [string, number][] = [
  ['ஆயிர', 1_000],
  ['லட்ச', 100_000],
  ['இலட்ச', 100_000],
  ['கோடி', 10_000_000],
];
const TA_RUPEE = ['ரூபாய்', 'ரூபா', 'ரூ'];
const CURRENCY = new Set(['rs', 'inr', 'rupee', 'rupees', 'rupay', 'rupaay', '₹']);
const MAX_WORDS = new Set([
  'under',
  'below',
  'less',
  'lesser',
  'within',
  'upto',
  'max',
  'maximum',
  'cheaper',
  'budget',
  '<',
  '<=',
  'kulla',
  'ukulla',
  'kulle',
  'keela',
  'keezha',
  'kela',
  'kammi',
  'கீழ்',
  'கீழே',
  'குறைவாக',
  'குறைவான',
  'குறைந்த',
  'குறைவு',
  'உள்ளே',
  'உள்',
  'க்குள்',
  'குள்',
  'க்குள்ளே',
  'ற்குள்',
]);
const MIN_WORDS = new Set([
  'above',
  'over',
  'more',
  'min',
  'minimum',
  'atleast',
  'starting',
  '>',
  '>=',
  'mela',
  'mele',
  'melae',
  'மேல்',
  'மேலே',
  'அதிகமாக',
  'அதிகம்',
  'மேற்பட்ட',
]);
const FILLERS = new Set(['than', 'to', 'at', 'least', 'of', 'rs', 'க்கு', 'கு', 'ற்கு', 'ku', 'kku']);

/** A Tamil word's glued ending, as a bound: "…க்குள்" within, "…க்கு மேல்" is two words. */
const gluedBound = (rest: string): 'max' | 'min' | undefined =>
  /குள்/.test(rest) ? 'max' : /மேல்/.test(rest) ? 'min' : undefined;

function classify(text: string, start: number, end: number): Token {
  const t: Token = { text, start, end, kind: 'word' };
  const bare = text.replace(/\.$/, '');
  if (/^\d[\d,]*(\.\d+)?$/.test(text)) return { ...t, kind: 'num', value: Number(text.replace(/,/g, '')) };
  if (UNITS[bare] !== undefined) return { ...t, kind: 'unit', value: UNITS[bare] };
  if (CURRENCY.has(bare)) return { ...t, kind: 'cur' };
  if (MAX_WORDS.has(text)) return { ...t, kind: 'max' };
  if (MIN_WORDS.has(text)) return { ...t, kind: 'min' };
  if (text === 'between' || text === 'இடையே' || text === 'இடையில்') return { ...t, kind: 'between' };
  if (text === 'from' || text === 'முதல்' || text === 'இருந்து' || text === 'லிருந்து')
    return { ...t, kind: 'from' };
  if (text === 'and' || text === '-' || text === 'to' || text === 'till' || text === 'until')
    return { ...t, kind: 'join' };
  if (text === 'வரை' || text === 'varai' || text === 'varaikkum' || text === 'வரைக்கும்')
    return { ...t, kind: 'till' };
  if (FILLERS.has(text)) return { ...t, kind: 'filler' };
  for (const [stem, value] of TA_UNITS) {
    if (text.startsWith(stem))
      return { ...t, kind: 'unit', value, glued: gluedBound(text.slice(stem.length)) };
  }
  for (const stem of TA_RUPEE) {
    if (text.startsWith(stem)) return { ...t, kind: 'cur', glued: gluedBound(text.slice(stem.length)) };
  }
  // A Tamil case ending written apart from its number ("30000 க்குள்" is typed as "30000க்குள்").
  const glued = /^[\u0b80-\u0bff]+$/.test(text) ? gluedBound(text) : undefined;
  return glued ? { ...t, kind: glued } : t;
}

// Numbers (with Indian or Western grouping), Latin words (with a dot: "rs."), Tamil words, ₹, < > and -.
const TOKEN = /\d[\d,]*(?:\.\d+)?|[a-z]+\.?|[\u0b80-\u0bff]+|₹|<=?|>=?|-/gu;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    let word = m[0];
    // "30,000," or a trailing comma of a list is not part of the number.
    if (/^\d/.test(word)) word = word.replace(/,+$/, '');
    out.push(classify(word, m.index, m.index + word.length));
  }
  return out;
}

interface Amount {
  /** Rupees. */
  rupees: number;
  /** Whether a unit (k, lakh, ஆயிரம்) was written. */
  unit: boolean;
  glued?: 'max' | 'min';
  /** Token indexes [from, to). */
  from: number;
  to: number;
}

/** An amount starting at token i: [currency] number [unit] [currency]. */
function amountAt(tokens: Token[], i: number): Amount | null {
  let j = i;
  if (tokens[j]?.kind === 'cur') j++;
  const num = tokens[j];
  if (num?.kind !== 'num') return null;
  j++;
  let rupees = num.value!;
  let unit = false;
  let glued: Amount['glued'];
  if (tokens[j]?.kind === 'unit') {
    rupees *= tokens[j].value!;
    unit = true;
    glued = tokens[j].glued;
    j++;
  }
  if (tokens[j]?.kind === 'cur') {
    glued = glued ?? tokens[j].glued;
    j++;
  }
  return { rupees, unit, glued, from: i, to: j };
}

/** Integer paise of a rupee amount (a lakh and a half is exact). */
const toPaise = (rupees: number) => Math.round(rupees * 100);

/** Reads a price out of a search text; null when the text names none. */
export function readPricePhrase(raw: string): PricePhrase | null {
  const text = normalizeText(raw);
  const tokens = tokenize(text);
  const amounts: Amount[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const a = amountAt(tokens, i);
    if (a) {
      amounts.push(a);
      i = a.to - 1;
    }
  }
  const kindAt = (i: number) => tokens[i]?.kind;
  /** The bound word before token i, skipping fillers ("less than", "up to", "under rs"): its index. */
  const before = (i: number, kinds: Kind[]): number | null => {
    let k = i - 1;
    while (k >= 0 && kindAt(k) === 'filler') k--;
    if (k >= 0 && kinds.includes(kindAt(k)!)) return k;
    // "up to": an ordinary word and a joiner.
    if (kinds.includes('max') && k >= 1 && tokens[k].text === 'to' && tokens[k - 1].text === 'up')
      return k - 1;
    return null;
  };
  /** The bound word after token j (Tamil and Tanglish put it after the number), skipping fillers. */
  const after = (j: number, kinds: Kind[]): number | null => {
    let k = j;
    while (k < tokens.length && kindAt(k) === 'filler') k++;
    return k < tokens.length && kinds.includes(kindAt(k)!) ? k : null;
  };

  for (let n = 0; n < amounts.length; n++) {
    const a = amounts[n];
    const b = amounts[n + 1];
    // A range: [between|from] A (and|to|-|முதல்|இருந்து) B [வரை|இடையே].
    if (b) {
      const gap = tokens.slice(a.to, b.from);
      const joined =
        gap.length === 1 && (gap[0].kind === 'join' || gap[0].kind === 'from' || gap[0].kind === 'filler');
      const opener = before(a.from, ['between', 'from']);
      // Without "between"/"from", bare small numbers ("size 2 - 4") are not prices.
      const pricey = opener !== null || a.unit || b.unit || Math.min(a.rupees, b.rupees) >= 100;
      if (joined && pricey && (opener !== null || gap[0].kind !== 'filler')) {
        let low = a.rupees;
        // "10 to 20k": the unit of the second amount is the first's too.
        if (!a.unit && b.unit && b.rupees / a.rupees >= 10) {
          const unit = tokens[b.from + (kindAt(b.from) === 'cur' ? 2 : 1)].value!;
          if (a.rupees * unit <= b.rupees) low = a.rupees * unit;
        }
        const high = b.rupees;
        let end = b.to;
        const closer = after(end, ['till', 'between']);
        if (closer !== null) end = closer + 1;
        return phrase(text, tokens, opener ?? a.from, end, {
          minPaise: toPaise(Math.min(low, high)),
          maxPaise: toPaise(Math.max(low, high)),
        });
      }
    }
    const maxBefore = before(a.from, ['max']);
    if (maxBefore !== null) return phrase(text, tokens, maxBefore, a.to, { maxPaise: toPaise(a.rupees) });
    const minBefore = before(a.from, ['min', 'from']);
    if (minBefore !== null) return phrase(text, tokens, minBefore, a.to, { minPaise: toPaise(a.rupees) });
    if (a.glued) return phrase(text, tokens, a.from, a.to, { [`${a.glued}Paise`]: toPaise(a.rupees) });
    const maxAfter = after(a.to, ['max', 'till']);
    if (maxAfter !== null) return phrase(text, tokens, a.from, maxAfter + 1, { maxPaise: toPaise(a.rupees) });
    const minAfter = after(a.to, ['min']);
    if (minAfter !== null) return phrase(text, tokens, a.from, minAfter + 1, { minPaise: toPaise(a.rupees) });
  }
  return null;
}

function phrase(
  text: string,
  tokens: Token[],
  from: number,
  to: number,
  bounds: { minPaise?: number; maxPaise?: number },
): PricePhrase {
  const start = tokens[from].start;
  const end = tokens[to - 1].end;
  return {
    ...bounds,
    phrase: text.slice(start, end),
    rest: `${text.slice(0, start)} ${text.slice(end)}`.replace(/\s+/g, ' ').trim(),
  };
}
