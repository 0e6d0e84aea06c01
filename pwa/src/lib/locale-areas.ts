/**
 * How the one key tree of locales/en.json and locales/ta.json is delivered to the page. The top-level keys are
 * areas: the core ones (what every public page and the header show) are in the entry bundle; each other area is
 * its own small chunk, loaded by the routes and dialogs that need it (lib/i18n.ts `loadAreas`). The split is
 * done at build time by the `nagai-locale-areas` Vite plugin (pwa/vite.config.ts); the files stay whole.
 */
export const CORE_AREAS = [
  'common',
  'header',
  'auth',
  'errors',
  'pwa',
  'offline',
  'calls',
  'cart',
  'catalog',
  'callButton',
] as const;

/** Top-level keys loaded as areas of their own. */
export const TOP_LEVEL_LAZY_AREAS = [
  'profile',
  'messages',
  'push',
  'checkout',
  'orders',
  'landing',
  'home',
  'seller',
  'admin',
  'sellerCare',
  'sellerMoney',
  'sellerPhone',
  // The in-call notices, photo preview and chat button's count (issues #48, #49): the call layer loads them.
  'callCounter',
  // What a search understood (issue #49): a price chip, the shops it names, a kind the catalogue lacks.
  'shopperSearch',
  // Family in the call (issue #52): the guest's page, and the call screen's invite, requests and likes.
  'family',
] as const;

/**
 * Parts of core areas that only lazily loaded screens show, kept out of the entry as areas of their own (name →
 * key paths): the in-call selling, summary and outcomes (the call layer loads them), appointments (the booking
 * and lists load them), the price breakdown (the product page and dialog declare it). Their keys keep their
 * place in the files.
 */
export const SPLIT_AREAS = {
  callsInCall: ['calls.selling', 'calls.summary', 'calls.outcome'],
  callsAppointments: ['calls.appointments'],
  catalogPricing: ['catalog.pricing'],
  catalogTryOn: ['catalog.tryOn'],
} as const;

export const LAZY_AREAS = [
  ...TOP_LEVEL_LAZY_AREAS,
  ...(Object.keys(SPLIT_AREAS) as (keyof typeof SPLIT_AREAS)[]),
] as const;

export type LazyArea = (typeof LAZY_AREAS)[number];

export function isLazyArea(value: string): value is LazyArea {
  return (LAZY_AREAS as readonly string[]).includes(value);
}

const SPLIT_PATHS = Object.values(SPLIT_AREAS).flat() as string[];

/** The lazy area a key's string is in, if any (a split part first, then its top-level area). */
export function areaOfKey(key: string): LazyArea | undefined {
  for (const [area, paths] of Object.entries(SPLIT_AREAS) as [LazyArea, readonly string[]][])
    if (paths.some((p) => key === p || key.startsWith(`${p}.`))) return area;
  const top = key.split('.')[0]!;
  return isLazyArea(top) ? top : undefined;
}

function at(tree: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], tree);
}

/** A copy of `tree` holding only `path` (nested objects along it). */
function only(tree: Record<string, unknown>, path: string, out: Record<string, unknown>): void {
  const value = at(tree, path);
  if (value === undefined) return;
  const keys = path.split('.');
  let node = out;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys[keys.length - 1]!] = value;
}

/** A copy of `tree` without `path` (the objects along it copied, the rest shared). */
function without(tree: Record<string, unknown>, path: string): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (!(head! in tree)) return tree;
  const copy = { ...tree };
  if (rest.length === 0) delete copy[head!];
  else copy[head!] = without(tree[head!] as Record<string, unknown>, rest.join('.'));
  return copy;
}

/**
 * Pick the strings of a locale import's `?area=` query from a parsed locale file: 'core' (CORE_AREAS without
 * the split parts), a top-level area, or a split part.
 */
export function pickAreas(tree: Record<string, unknown>, area: string): Record<string, unknown> {
  if (area === 'core') {
    let core: Record<string, unknown> = {};
    for (const name of CORE_AREAS) if (name in tree) core[name] = tree[name];
    for (const path of SPLIT_PATHS) core = without(core, path);
    return core;
  }
  const out: Record<string, unknown> = {};
  const paths: readonly string[] = SPLIT_AREAS[area as keyof typeof SPLIT_AREAS] ?? [area];
  for (const path of paths) only(tree, path, out);
  return out;
}
