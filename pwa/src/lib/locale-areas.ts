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
] as const;

export const LAZY_AREAS = [
  'profile',
  'messages',
  'push',
  'checkout',
  'orders',
  'landing',
  'home',
  'seller',
  'admin',
] as const;

export type LazyArea = (typeof LAZY_AREAS)[number];

export function isLazyArea(value: string): value is LazyArea {
  return (LAZY_AREAS as readonly string[]).includes(value);
}

/** Pick the areas named by a locale import's `?area=` query ('core' = CORE_AREAS) from a parsed locale file. */
export function pickAreas(tree: Record<string, unknown>, area: string): Record<string, unknown> {
  const names: readonly string[] = area === 'core' ? CORE_AREAS : [area];
  const out: Record<string, unknown> = {};
  for (const name of names) if (name in tree) out[name] = tree[name];
  return out;
}
