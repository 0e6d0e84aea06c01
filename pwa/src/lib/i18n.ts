import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../../locales/en.json';

export const LANGUAGES = ['en', 'ta'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'nagai.language';

/** The shared i18next instance. English is bundled; Tamil is a separate chunk loaded on first use. */
export const i18n: I18n = i18next.createInstance();

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: object }>> = {
  ta: () => import('../../../locales/ta.json'),
};

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
  return preferred;
}

export function setPreferredLanguage(lng: Language): void {
  preferred = lng;
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

/** Seller and admin areas are English only (spec §1): `/seller`, `/seller/...`, `/admin`, `/admin/...`. */
export function isEnglishOnlyPath(pathname: string): boolean {
  return /^\/(seller|admin)(\/|$)/.test(pathname);
}

/** Loads a language's strings if needed, then switches to it; `<html lang>` follows. */
export async function applyLanguage(lng: Language): Promise<void> {
  if (lng !== 'en' && !i18n.hasResourceBundle(lng, 'translation')) {
    const mod = await loaders[lng]();
    i18n.addResourceBundle(lng, 'translation', mod.default, true, true);
  }
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}

/** Starts i18next. Placeholders use single braces, as the spec writes them: 'Only {n} item(s)…'. */
export async function initI18n(initial: Language = 'en'): Promise<I18n> {
  if (!i18n.isInitialized) {
    i18n.on('languageChanged', (lng) => {
      if (typeof document !== 'undefined') document.documentElement.lang = lng;
    });
    await i18n.use(initReactI18next).init({
      resources: { en: { translation: en } },
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      partialBundledLanguages: true,
      returnEmptyString: false,
      returnNull: false,
      interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
      react: { useSuspense: false },
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
  collect((en as { messages?: unknown }).messages, 'messages', entries);
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
