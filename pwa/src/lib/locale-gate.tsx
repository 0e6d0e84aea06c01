import { use, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { areasLoaded, loadAreas, type LazyArea } from './i18n';

// One promise per language and set of areas, so a suspended render finds the same promise again.
const pending = new Map<string, Promise<void>>();

/**
 * Renders `children` once the strings of `areas` are loaded (suspends until then, inside the caller's
 * Suspense). Already loaded, it renders at once.
 */
export function LocaleGate({ areas, children }: { areas: readonly LazyArea[]; children: ReactNode }) {
  const { i18n } = useTranslation();
  if (areas.length > 0 && !areasLoaded(areas)) {
    const key = `${i18n.language}|${areas.join(',')}`;
    let promise = pending.get(key);
    if (!promise) {
      promise = loadAreas(areas).finally(() => pending.delete(key));
      pending.set(key, promise);
    }
    use(promise);
  }
  return children;
}
