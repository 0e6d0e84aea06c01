// Amounts in Tamil words, Indian grouping (ஆயிரம் thousand, லட்சம் lakh, கோடி crore), for the Tamil tax invoice
// (docs/product-rules.md §20.5). Words are written apart ("இருபத்து ஒன்று"), as on a cheque, and a group that
// is followed by more takes its joining form: நூறு → நூற்று, ஆயிரம் → ஆயிரத்து, லட்சம் → லட்சத்து, கோடி → கோடியே.

const ONES = [
  'பூஜ்ஜியம்', 'ஒன்று', 'இரண்டு', 'மூன்று', 'நான்கு', 'ஐந்து', 'ஆறு', 'ஏழு', 'எட்டு', 'ஒன்பது', 'பத்து',
  'பதினொன்று', 'பன்னிரண்டு', 'பதின்மூன்று', 'பதினான்கு', 'பதினைந்து', 'பதினாறு', 'பதினேழு', 'பதினெட்டு',
  'பத்தொன்பது',
]; // prettier-ignore
/** 20, 30, … 90 standing alone, and joined to a unit that follows (இருபது, இருபத்து மூன்று). */
const TENS = ['', '', 'இருபது', 'முப்பது', 'நாற்பது', 'ஐம்பது', 'அறுபது', 'எழுபது', 'எண்பது', 'தொண்ணூறு'];
const TENS_JOIN = [
  '', '', 'இருபத்து', 'முப்பத்து', 'நாற்பத்து', 'ஐம்பத்து', 'அறுபத்து', 'எழுபத்து', 'எண்பத்து', 'தொண்ணூற்று',
]; // prettier-ignore
/** 100, 200, … 900 standing alone, and joined to what follows (நூறு, நூற்று ஒன்று). */
const HUNDREDS = [
  '', 'நூறு', 'இருநூறு', 'முந்நூறு', 'நானூறு', 'ஐந்நூறு', 'அறுநூறு', 'எழுநூறு', 'எண்ணூறு', 'தொள்ளாயிரம்',
]; // prettier-ignore
const HUNDREDS_JOIN = [
  '', 'நூற்று', 'இருநூற்று', 'முந்நூற்று', 'நானூற்று', 'ஐந்நூற்று', 'அறுநூற்று', 'எழுநூற்று', 'எண்ணூற்று',
  'தொள்ளாயிரத்து',
]; // prettier-ignore

/** The vowel sign u (ு) that ends every word for 1–99. */
const VOWEL_U = '\u0BC1';

function belowHundred(v: number): string[] {
  if (v < 20) return [ONES[v]];
  const unit = v % 10;
  const tens = Math.floor(v / 10);
  return unit ? [TENS_JOIN[tens], ONES[unit]] : [TENS[tens]];
}

function belowThousand(v: number): string[] {
  const h = Math.floor(v / 100);
  const rest = v % 100;
  if (!h) return belowHundred(rest);
  return rest ? [HUNDREDS_JOIN[h], ...belowHundred(rest)] : [HUNDREDS[h]];
}

/** A count before a noun: its last word ஒன்று becomes ஒரு (ஒரு லட்சம், இருபத்து ஒரு கோடி). */
function countBefore(words: string[]): string[] {
  const last = words.at(-1);
  return last === 'ஒன்று' ? [...words.slice(0, -1), 'ஒரு'] : words;
}

/**
 * 1–99 thousands: the count's last word merges with ஆயிரம் (இரண்டு → இரண்டாயிரம், ஒன்று → ஓராயிரம்,
 * பதினொன்று → பதினோராயிரம்); one thousand alone is ஆயிரம். Joined: the ending ம் becomes த்து.
 */
function thousands(n: number, joined: boolean): string[] {
  let words: string[];
  if (n === 1) words = ['ஆயிரம்'];
  else {
    const count = belowHundred(n);
    const last = count.at(-1)!;
    let merged: string;
    if (last === 'ஒன்று') merged = 'ஓராயிரம்';
    else if (last === 'பதினொன்று') merged = 'பதினோராயிரம்';
    else if (last.endsWith(VOWEL_U)) merged = `${last.slice(0, -1)}ாயிரம்`;
    else throw new Error(`No joining form for ${last}`);
    words = [...count.slice(0, -1), merged];
  }
  if (!joined) return words;
  const last = words.at(-1)!;
  return [...words.slice(0, -1), `${last.slice(0, -'ம்'.length)}த்து`];
}

/** A whole number in Tamil words: 1,23,456 → "ஒரு லட்சத்து இருபத்து மூன்றாயிரத்து நானூற்று ஐம்பத்து ஆறு". */
export function numberInTamilWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`Not a whole amount: ${value}`);
  if (value === 0) return ONES[0];
  return groups(value).join(' ');
}

function groups(value: number): string[] {
  const crore = Math.floor(value / 10_000_000);
  const lakh = Math.floor((value % 10_000_000) / 100_000);
  const thousand = Math.floor((value % 100_000) / 1000);
  const rest = value % 1000;
  const out: string[] = [];
  if (crore) {
    const more = value % 10_000_000 > 0;
    out.push(...countBefore(groups(crore)), more ? 'கோடியே' : 'கோடி');
  }
  if (lakh) {
    const more = value % 100_000 > 0;
    out.push(...countBefore(belowHundred(lakh)), more ? 'லட்சத்து' : 'லட்சம்');
  }
  if (thousand) out.push(...thousands(thousand, rest > 0));
  if (rest) out.push(...belowThousand(rest));
  return out;
}

/** "ரூபாய் ஆயிரத்து இருநூறு மட்டும்"; with paise: "ரூபாய் பத்து மற்றும் ஐம்பது பைசா மட்டும்". */
export function amountInTamilWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new Error(`Not a whole amount: ${paise}`);
  const rupees = Math.floor(paise / 100);
  const p = paise % 100;
  const base = `ரூபாய் ${numberInTamilWords(rupees)}`;
  return p ? `${base} மற்றும் ${countBefore(belowHundred(p)).join(' ')} பைசா மட்டும்` : `${base} மட்டும்`;
}
