import { useQuery } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import { sessionQuery } from '../../features/accounts/api';
import {
  applyLanguage,
  getPreferredLanguage,
  isEnglishOnlyPath,
  subscribePreferredLanguage,
  type Language,
} from '../../lib/i18n';

/** The visitor's saved choice, re-rendering when it changes. */
export function usePreferredLanguage(): Language {
  return useSyncExternalStore(subscribePreferredLanguage, getPreferredLanguage, getPreferredLanguage);
}

/**
 * Whether this reader may choose a language here (docs/product-rules.md §1): logged-out visitors and customers, never on
 * /seller* or /admin*. Everyone else reads English.
 */
export function useCanChooseLanguage(): boolean {
  const { pathname } = useLocation();
  const session = useQuery(sessionQuery());
  const role = session.data?.role;
  return !isEnglishOnlyPath(pathname) && (role === undefined || role === 'customer');
}

/** Keeps i18next on the language this reader should see on this path. */
export function useLanguageSync(): void {
  const preferred = usePreferredLanguage();
  const canChoose = useCanChooseLanguage();
  const effective: Language = canChoose ? preferred : 'en';
  useEffect(() => {
    void applyLanguage(effective);
  }, [effective]);
}
