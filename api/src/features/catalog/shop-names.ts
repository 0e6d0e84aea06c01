import type { Knex } from 'knex';
import type { SellerCard } from '../../../contract/catalog';
import { CALL_LIMITS } from '../../../contract/constants';
import { directQuery } from '../../../../db/connection';
import { hasTamil, keysOf, matchName } from './name-key';
import { presentSellerCard, type SellerCardRow } from './presenter';
import { normalizeText, readQuery, wordsOf, type ReadQuery } from './query-reading';

const wordsOfText = (text: string) => wordsOf(normalizeText(text));
import { escapeLike } from './search';
import { sellerCards } from './seller-cards';

/**
 * Shops found by their names (and the directory's cities) in any script (docs/product-rules.md §20.2). Names
 * are stored in English letters; a search in Tamil script, or one the trigram indexes miss ("latchumi"), is
 * matched by the words' keys (name-key.ts) against every approved shop's name, city and seller's name (a few
 * thousand short rows). A search in English letters first asks the trigram indexes for its candidates.
 */
export interface ShopNameRow {
  user_id: number;
  shop_name: string;
  city: string;
  url_slug: string | null;
  display_name: string | null;
}

/** The keys of a name, remembered (names are few and change rarely). */
const keyCache = new Map<string, string[]>();
const KEY_CACHE_MAX = 20_000;
function keysOfName(name: string): string[] {
  let keys = keyCache.get(name);
  if (!keys) {
    keys = keysOf(name);
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
    keyCache.set(name, keys);
  }
  return keys;
}

const SHOP_ROWS = `select sp.user_id, sp.shop_name, sp.city, sp.url_slug, u.display_name
  from seller_profiles sp join users u on u.id = sp.user_id where sp.is_approved`;

/** Every approved shop's name, city and seller's name. */
export async function allShopNames(db: Knex): Promise<ShopNameRow[]> {
  return directQuery<ShopNameRow>(db, SHOP_ROWS, []);
}

/** Approved shops whose names have any of the (English-letter) words in them, or a word like one (trigrams). */
export async function shopNameCandidates(db: Knex, words: string[]): Promise<ShopNameRow[]> {
  const usable = words.filter((w) => /^[a-z0-9]{3,}$/.test(w)).slice(0, 8);
  if (!usable.length) return [];
  const parts = usable.map(() => '(sp.shop_name ilike ? or ? <% sp.shop_name)').join(' or ');
  return directQuery<ShopNameRow>(
    db,
    `${SHOP_ROWS} and (${parts})`,
    usable.flatMap((w) => [`%${escapeLike(w)}%`, w]),
  );
}

/** How a search's words meet one shop's name: the indexes of the words that name it, and whether all of it is named. */
export interface NameMatch {
  row: ShopNameRow;
  matched: Set<number>;
  whole: boolean;
}

/** The rows' name matches with the typed words (their keys), those naming at least one word. */
export function matchShopNames(rows: ShopNameRow[], words: string[]): NameMatch[] {
  const typed = words.map((w) => keysOf(w)[0] ?? '');
  const out: NameMatch[] = [];
  for (const row of rows) {
    const m = matchName(typed, keysOfName(row.shop_name));
    if (m.matched.size) out.push({ row, ...m });
  }
  return out;
}

/**
 * The directory's extra matches: approved shops one of whose name, city or seller's name words every typed word
 * names by its key. Asked for a search in Tamil script, or one the trigram indexes found nothing for.
 */
export async function directoryNameMatches(db: Knex, text: string): Promise<number[]> {
  const typed = keysOf(text).filter((k) => k.length >= 2);
  if (!typed.length) return [];
  const rows = await allShopNames(db);
  const ids: number[] = [];
  for (const row of rows) {
    const fields = [row.shop_name, row.city, row.display_name ?? ''].map(keysOfName);
    const covered = new Set<number>();
    for (const f of fields) for (const i of matchName(typed, f).matched) covered.add(i);
    if (covered.size === typed.length) ids.push(row.user_id);
  }
  return ids;
}

export { hasTamil };

/** How many shops a product search shows before its pieces. */
export const SHOPS_SHOWN = 3;

/** The shops a product search names (§20.2). */
export interface NamedShops {
  /** Shops every word of the search the lexicon does not know names a word of: shown first, best match first. */
  cards: SellerCard[];
  /** Shops named whole ("lakshmi jewellers"): the search is for their pieces. */
  wholeIds: number[];
  /** With shops named whole: the search's other words (a category, a material), read again. */
  rest: ReadQuery | null;
}

/**
 * The shops a product search names by their names, in any script. A shop is shown when every word of the
 * search that the lexicon does not know (or only guessed) names a word of its name; it is named whole when its every word
 * (but "Sri", "The"…) is named and the search's other words are all the lexicon's (a kind, a material): then
 * the pieces shown are that shop's, of that kind.
 */
export async function shopsNamed(db: Knex, read: ReadQuery, now: Date): Promise<NamedShops | null> {
  // The words that may be a name: those the lexicon does not know, and those it only guessed at by sound or
  // likeness ("meenakshi" is near "meenakari", "maaligai" near "maalai").
  const guessed = new Set(
    read.named.filter((n) => n.how === 'sound' || n.how === 'fuzzy').map((n) => n.typed),
  );
  const uncertain = read.words.flatMap((w, i) => (read.free.includes(w) || guessed.has(w) ? [i] : []));
  if (!uncertain.length) return null;
  const shownOf = (rows: ShopNameRow[]) =>
    matchShopNames(rows, read.words)
      .filter((m) => uncertain.every((i) => m.matched.has(i)))
      .sort((a, b) => Number(b.whole) - Number(a.whole) || b.matched.size - a.matched.size);
  // English letters: the trigram indexes' candidates first; a name written by ear ("latchumi") they miss is
  // matched by its key against every shop's name, as a search in Tamil script is.
  let shown = hasTamil(read.text)
    ? []
    : shownOf(
        await shopNameCandidates(
          db,
          uncertain.map((i) => read.words[i]),
        ),
      );
  if (
    !shown.length &&
    (hasTamil(read.text) || uncertain.some((i) => (keysOf(read.words[i])[0] ?? '').length >= 3))
  ) {
    shown = shownOf(await allShopNames(db));
  }
  if (!shown.length) return null;
  const whole = shown.filter((m) => m.whole);
  // Named whole only if the words naming the shop are the same for each (one reading of the search).
  const used = new Set<number>();
  for (const m of whole) for (const i of m.matched) used.add(i);
  const restWords = read.words.filter((_, i) => !used.has(i));
  const rest = whole.length ? readQuery(restWords.join(' ')) : null;
  const wholeIds = rest && rest.free.length === 0 ? whole.map((m) => m.row.user_id) : [];
  const ids = shown.slice(0, SHOPS_SHOWN).map((m) => m.row.user_id);
  const cardRows = (await sellerCards(db).whereIn('sp.user_id', ids)) as SellerCardRow[];
  const byId = new Map(cardRows.map((r) => [r.user_id, r]));
  const cards = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentSellerCard(row, now, CALL_LIMITS.onlineWindowMs)] : [];
  });
  return { cards, wholeIds, rest: wholeIds.length ? rest : null };
}

/** The search box's shops for a text in Tamil script: the approved shops every typed word names by its key. */
export async function suggestedShopsBySound(
  db: Knex,
  text: string,
  limit: number,
): Promise<{ sellerId: number; shopName: string; urlSlug: string | null; city: string }[]> {
  const words = wordsOfText(text);
  if (!words.length) return [];
  return matchShopNames(await allShopNames(db), words)
    .filter((m) => m.matched.size === words.length)
    .slice(0, limit)
    .map((m) => ({
      sellerId: m.row.user_id,
      shopName: m.row.shop_name,
      urlSlug: m.row.url_slug,
      city: m.row.city,
    }));
}
