import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_COOKIE } from '../../../api/contract/constants';
// The core areas only (see locale-areas.ts); every other area of en.json is a chunk of its own.
import enCore from '../../../locales/en.json?area=core&locale.json';
import { areaOfKey, LAZY_AREAS, type LazyArea } from './locale-areas';

export const LANGUAGES = ['en', 'ta'] as const;
export type Language = (typeof LANGUAGES)[number];
export { LAZY_AREAS, type LazyArea } from './locale-areas';

const STORAGE_KEY = 'nagai.language';

/**
 * The shared i18next instance. The core English strings are bundled; the other areas, and Tamil, are small
 * chunks loaded when a route or dialog needs them (`loadAreas`) or on first use of a key of theirs.
 */
export const i18n: I18n = i18next.createInstance();

type Part = LazyArea | 'core';
type Loader = () => Promise<{ default: object }>;

// One literal import per part, so the bundler makes each its own chunk.
const LOADERS: Record<Language, Partial<Record<Part, Loader>>> = {
  en: {
    profile: () => import('../../../locales/en.json?area=profile&locale.json'),
    messages: () => import('../../../locales/en.json?area=messages&locale.json'),
    push: () => import('../../../locales/en.json?area=push&locale.json'),
    checkout: () => import('../../../locales/en.json?area=checkout&locale.json'),
    orders: () => import('../../../locales/en.json?area=orders&locale.json'),
    landing: () => import('../../../locales/en.json?area=landing&locale.json'),
    home: () => import('../../../locales/en.json?area=home&locale.json'),
    seller: () => import('../../../locales/en.json?area=seller&locale.json'),
    admin: () => import('../../../locales/en.json?area=admin&locale.json'),
    sellerCare: () => import('../../../locales/en.json?area=sellerCare&locale.json'),
    sellerMoney: () => import('../../../locales/en.json?area=sellerMoney&locale.json'),
    sellerPhone: () => import('../../../locales/en.json?area=sellerPhone&locale.json'),
    callCounter: () => import('../../../locales/en.json?area=callCounter&locale.json'),
    shopperSearch: () => import('../../../locales/en.json?area=shopperSearch&locale.json'),
    family: () => import('../../../locales/en.json?area=family&locale.json'),
    callsInCall: () => import('../../../locales/en.json?area=callsInCall&locale.json'),
    callsAppointments: () => import('../../../locales/en.json?area=callsAppointments&locale.json'),
    catalogPricing: () => import('../../../locales/en.json?area=catalogPricing&locale.json'),
    catalogTryOn: () => import('../../../locales/en.json?area=catalogTryOn&locale.json'),
  },
  ta: {
    core: () => import('../../../locales/ta.json?area=core&locale.json'),
    profile: () => import('../../../locales/ta.json?area=profile&locale.json'),
    messages: () => import('../../../locales/ta.json?area=messages&locale.json'),
    push: () => import('../../../locales/ta.json?area=push&locale.json'),
    checkout: () => import('../../../locales/ta.json?area=checkout&locale.json'),
    orders: () => import('../../../locales/ta.json?area=orders&locale.json'),
    landing: () => import('../../../locales/ta.json?area=landing&locale.json'),
    home: () => import('../../../locales/ta.json?area=home&locale.json'),
    seller: () => import('../../../locales/ta.json?area=seller&locale.json'),
    admin: () => import('../../../locales/ta.json?area=admin&locale.json'),
    sellerCare: () => import('../../../locales/ta.json?area=sellerCare&locale.json'),
    sellerMoney: () => import('../../../locales/ta.json?area=sellerMoney&locale.json'),
    sellerPhone: () => import('../../../locales/ta.json?area=sellerPhone&locale.json'),
    callCounter: () => import('../../../locales/ta.json?area=callCounter&locale.json'),
    shopperSearch: () => import('../../../locales/ta.json?area=shopperSearch&locale.json'),
    family: () => import('../../../locales/ta.json?area=family&locale.json'),
    callsInCall: () => import('../../../locales/ta.json?area=callsInCall&locale.json'),
    callsAppointments: () => import('../../../locales/ta.json?area=callsAppointments&locale.json'),
    catalogPricing: () => import('../../../locales/ta.json?area=catalogPricing&locale.json'),
    catalogTryOn: () => import('../../../locales/ta.json?area=catalogTryOn&locale.json'),
  },
};

const loadedParts: Record<Language, Set<Part>> = { en: new Set(['core']), ta: new Set() };
const pendingParts = new Map<string, Promise<void>>();
/** Areas some page asked for: switching language loads them in the new language first. */
const requestedAreas = new Set<LazyArea>();

function loadPart(lng: Language, part: Part): Promise<void> {
  if (loadedParts[lng].has(part)) return Promise.resolve();
  const key = `${lng}:${part}`;
  let pending = pendingParts.get(key);
  if (!pending) {
    pending = LOADERS[lng][part]!()
      .then((mod) => {
        i18n.addResourceBundle(lng, 'translation', mod.default, true, true);
        loadedParts[lng].add(part);
        if (part === 'messages') templates = undefined;
      })
      // A failed chunk (offline) may be tried again later.
      .finally(() => pendingParts.delete(key));
    pendingParts.set(key, pending);
  }
  return pending;
}

function shownLanguages(): Language[] {
  return i18n.language === 'ta' ? ['en', 'ta'] : ['en'];
}

/** Whether these areas' strings are there in the language shown (and English, its fallback). */
export function areasLoaded(areas: readonly LazyArea[]): boolean {
  return shownLanguages().every((lng) => areas.every((a) => loadedParts[lng].has(a)));
}

/**
 * Loads the strings of these areas (in English and in the language shown). Components re-render when they
 * arrive; pages and dialogs await it before they first render (app/router.tsx, lib/locale-gate.tsx).
 */
export function loadAreas(areas: readonly LazyArea[]): Promise<void> {
  areas.forEach((a) => requestedAreas.add(a));
  return Promise.all(shownLanguages().flatMap((lng) => areas.map((a) => loadPart(lng, a)))).then(
    () => undefined,
  );
}

/** Loads every area (pages of signed-in users and staff use most of them). */
export function loadAllAreas(): Promise<void> {
  return loadAreas(LAZY_AREAS);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

// --- the visitor's chosen language, persisted and observable (useSyncExternalStore) ---

const listeners = new Set<() => void>();
let preferred: Language = readStored();

function readStored(): Language {
  try {
    const v = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLanguage(v) ? v : 'en';
  } catch {
    return 'en';
  }
}

/** The language the visitor chose (not necessarily the one shown: staff pages force English). */
export function getPreferredLanguage(): Language {
  // On the server the reader's choice is the language the page is rendered in (its cookie): the language
  // switch shows it selected, so the browser adopting the page keeps it.
  if (typeof window === 'undefined') return isLanguage(i18n.language) ? i18n.language : 'en';
  return preferred;
}

/**
 * The choice in a cookie as well, so the server renders a visitor's catalogue pages in it (api/src/http/ssr.ts).
 */
export function rememberLanguageCookie(lng: Language): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=31536000; samesite=lax`;
}

export function setPreferredLanguage(lng: Language): void {
  preferred = lng;
  rememberLanguageCookie(lng);
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lng);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  listeners.forEach((l) => l());
}

export function subscribePreferredLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Seller and admin areas are English only (docs/product-rules.md §1): `/seller`, `/seller/...`, `/admin`, `/admin/...`. */
export function isEnglishOnlyPath(pathname: string): boolean {
  return /^\/(seller|admin)(\/|$)/.test(pathname);
}

/** Loads a language's strings if needed, then switches to it; `<html lang>` follows. */
export async function applyLanguage(lng: Language): Promise<void> {
  if (lng !== 'en')
    await Promise.all([loadPart(lng, 'core'), ...[...requestedAreas].map((a) => loadPart(lng, a))]);
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}

/** Starts i18next. Placeholders use single braces, as the product rules write them: 'Only {n} item(s)…'. */
export async function initI18n(initial: Language = 'en'): Promise<I18n> {
  if (!i18n.isInitialized) {
    i18n.on('languageChanged', (lng) => {
      // Only when it differs: setting <html lang>, even to the language it has, makes the browser recompute
      // every text's locale (about 40 ms of a phone's first second on a server-rendered page in that language).
      if (typeof document !== 'undefined' && document.documentElement.lang !== lng)
        document.documentElement.lang = lng;
    });
    await i18n.use(initReactI18next).init({
      resources: { en: { translation: enCore } },
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      partialBundledLanguages: true,
      returnEmptyString: false,
      returnNull: false,
      interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
      // Re-render when an area's strings arrive.
      react: { useSuspense: false, bindI18nStore: 'added' },
      // Safety net: a key of an area nobody loaded yet loads that area (the component re-renders with it).
      // Keys that exist nowhere still show the key itself.
      saveMissing: true,
      missingKeyHandler: (_lngs, _ns, key) => {
        const area = areaOfKey(key);
        if (area && !requestedAreas.has(area)) void loadAreas([area]).catch(() => undefined);
      },
    });
  }
  await applyLanguage(initial);
  return i18n;
}

// --- server messages shown in the reader's language ---

interface Template {
  key: string;
  pattern: RegExp;
  names: string[];
}
let templates: { exact: Map<string, string>; patterns: Template[] } | undefined;

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function collect(node: unknown, prefix: string, out: [string, string][]) {
  if (typeof node === 'string') out.push([prefix, node]);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) collect(v, prefix ? `${prefix}.${k}` : k, out);
}

/** English text of every `messages.*` key, so a server message can be found by its words. */
function index() {
  if (templates) return templates;
  const entries: [string, string][] = [];
  collect(i18n.getResource('en', 'translation', 'messages'), 'messages', entries);
  const exact = new Map<string, string>();
  const patterns: Template[] = [];
  for (const [key, text] of entries) {
    if (!exact.has(text)) exact.set(text, key);
    const names: string[] = [];
    const parts = text.split(/\{(\w+)\}/g);
    if (parts.length > 1) {
      const source = parts
        .map((p, i) => {
          if (i % 2 === 1) {
            names.push(p);
            return '(.+?)';
          }
          return escapeRegExp(p);
        })
        .join('');
      patterns.push({ key, pattern: new RegExp(`^${source}$`), names });
    }
  }
  templates = { exact, patterns };
  return templates;
}

/**
 * A message from the server (or a contract schema) in the current language: when its English text equals a
 * known `messages.*` string (placeholders included), the translation; otherwise the text as it came.
 */
export function translateMessage(message: string): string {
  if (!loadedParts.en.has('messages') && !i18n.getResource('en', 'translation', 'messages')) {
    // Shown as it came (English) until the messages area arrives; components re-render then.
    void loadAreas(['messages']).catch(() => undefined);
    return message;
  }
  const { exact, patterns } = index();
  const key = exact.get(message);
  if (key) return i18n.t(key);
  for (const t of patterns) {
    const m = t.pattern.exec(message);
    if (m) {
      const values = Object.fromEntries(t.names.map((n, i) => [n, m[i + 1]]));
      return i18n.t(t.key, values);
    }
  }
  return message;
}
