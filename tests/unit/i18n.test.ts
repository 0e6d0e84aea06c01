import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../api/contract/accounts';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';
import {
  applyLanguage,
  i18n,
  initI18n,
  isEnglishOnlyPath,
  loadAreas,
  translateMessage,
} from '../../pwa/src/lib/i18n';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const enKeys = flatten(en as Tree);
const taKeys = flatten(ta as Tree);
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('locale files', () => {
  it('en and ta hold exactly the same keys', () => {
    expect([...taKeys.keys()].sort()).toEqual([...enKeys.keys()].sort());
  });

  it('has no empty strings, and every value is a string leaf', () => {
    for (const [key, value] of [...enKeys, ...taKeys]) {
      expect(typeof value, key).toBe('string');
      expect(value.trim(), key).not.toBe('');
    }
  });

  it('uses the same {placeholders} in both languages', () => {
    for (const [key, value] of enKeys)
      expect(placeholders(taKeys.get(key) ?? ''), key).toEqual(placeholders(value));
  });

  it('keeps every accounts message of the contract, English word for word, under messages.accounts', () => {
    for (const [id, text] of Object.entries(ACCOUNT_MESSAGES)) {
      expect(enKeys.get(`messages.accounts.${id}`), id).toBe(text);
      expect(taKeys.get(`messages.accounts.${id}`), id).toBeTruthy();
    }
    const extra = [...enKeys.keys()].filter(
      (k) =>
        k.startsWith('messages.accounts.') && !(k.slice('messages.accounts.'.length) in ACCOUNT_MESSAGES),
    );
    expect(extra).toEqual([]);
  });

  it('writes Tamil in Tamil script (not English copied over)', () => {
    const same = [...taKeys].filter(([key, value]) => value === enKeys.get(key) && /[a-z]{3}/i.test(value));
    // Language names and figures are allowed to match.
    expect(same.map(([k]) => k)).toEqual(['header.languages.en']);
  });
});

describe('i18n runtime', () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it('shows the key itself for a missing key, and English for a missing Tamil string', async () => {
    await applyLanguage('ta');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
    i18n.addResource('en', 'translation', 'test.onlyEnglish', 'Only in English');
    expect(i18n.t('test.onlyEnglish')).toBe('Only in English');
    expect(i18n.t('auth.tabs.login')).toBe('உள்நுழை');
    await applyLanguage('en');
  });

  it('interpolates single-brace placeholders as the product rules write them', () => {
    expect(i18n.t('auth.accessDenied.message', { role: 'customer' })).toBe(
      'Access denied. Your role (customer) lacks required permissions.',
    );
  });

  it('translates server messages it knows, including ones with values, and leaves others alone', async () => {
    await applyLanguage('ta');
    expect(translateMessage('Invalid email or password.')).toBe(ta.messages.accounts.invalidCredentials);
    expect(translateMessage('Too many failed login attempts. Please wait 5 minute(s) and try again.')).toBe(
      ta.messages.accounts.tooManyLoginAttempts.replace('{minutes}', '5'),
    );
    expect(translateMessage('Something the server said')).toBe('Something the server said');
    await applyLanguage('en');
    expect(translateMessage('Invalid email or password.')).toBe('Invalid email or password.');
  });

  it('writes counts with plural forms in both languages (1 happy customer, 2 happy customers)', async () => {
    await loadAreas(['landing', 'profile']);
    expect(i18n.t('landing.hero.stats.happyCustomers', { count: 1 })).toBe('Happy Customer');
    expect(i18n.t('landing.hero.stats.happyCustomers', { count: 2 })).toBe('Happy Customers');
    expect(i18n.t('catalog.seller.productCount', { count: 1 })).toBe('1 product');
    expect(i18n.t('profile.failedLoginsBody', { count: 1, when: 'today' })).toMatch(
      /^1 failed sign-in attempt since/,
    );
    expect(i18n.t('profile.failedLoginsBody', { count: 3, when: 'today' })).toMatch(
      /^3 failed sign-in attempts since/,
    );
    await applyLanguage('ta');
    expect(i18n.t('landing.hero.stats.happyCustomers', { count: 1 })).toBe(
      ta.landing.hero.stats.happyCustomers_one,
    );
    expect(i18n.t('landing.hero.stats.happyCustomers', { count: 7 })).toBe(
      ta.landing.hero.stats.happyCustomers_other,
    );
    await applyLanguage('en');
  });

  it('forces English on /seller and /admin paths only', () => {
    for (const p of ['/seller', '/seller/login', '/seller/dashboard', '/admin', '/admin/login'])
      expect(isEnglishOnlyPath(p), p).toBe(true);
    for (const p of ['/', '/sellers', '/customer/login', '/marketplace', '/administrator-jewels'])
      expect(isEnglishOnlyPath(p), p).toBe(false);
  });
});

describe('locale areas (how the files are split into chunks)', () => {
  it('every top-level key of the locale files is exactly one core or lazy area', async () => {
    const { CORE_AREAS, TOP_LEVEL_LAZY_AREAS } = await import('../../pwa/src/lib/locale-areas');
    const areas = [...CORE_AREAS, ...TOP_LEVEL_LAZY_AREAS];
    expect(new Set(areas).size).toBe(areas.length);
    expect([...areas].sort()).toEqual(Object.keys(en).sort());
    expect([...areas].sort()).toEqual(Object.keys(ta).sort());
  });

  it('cuts the core, or one area, out of a locale file', async () => {
    const { CORE_AREAS, pickAreas } = await import('../../pwa/src/lib/locale-areas');
    const tree = en as Record<string, unknown>;
    expect(Object.keys(pickAreas(tree, 'core')).sort()).toEqual([...CORE_AREAS].sort());
    expect(pickAreas(tree, 'messages')).toEqual({ messages: tree.messages });
  });

  it('keeps the split parts out of the core, each whole in its own area, and finds the area of a key', async () => {
    const { SPLIT_AREAS, pickAreas, areaOfKey } = await import('../../pwa/src/lib/locale-areas');
    for (const tree of [en, ta] as Record<string, Record<string, unknown>>[]) {
      const core = pickAreas(tree, 'core') as Record<string, Record<string, unknown>>;
      for (const [area, paths] of Object.entries(SPLIT_AREAS)) {
        const part = pickAreas(tree, area) as Record<string, Record<string, unknown>>;
        for (const path of paths) {
          const [top, sub] = path.split('.') as [string, string];
          expect(core[top]![sub], path).toBeUndefined();
          expect(part[top]![sub], path).toEqual(tree[top]![sub]);
          expect(areaOfKey(`${path}.anything`)).toBe(area);
        }
      }
      // The rest of a split area stays in the core, unchanged.
      expect(core.calls!.button).toEqual(tree.calls!.button);
      expect(core.catalog!.filters).toEqual(tree.catalog!.filters);
      // The files themselves are untouched.
      expect(tree.calls!.selling).toBeDefined();
    }
    expect(areaOfKey('calls.button.videoCall')).toBeUndefined();
    expect(areaOfKey('checkout.title')).toBe('checkout');
  });
});
