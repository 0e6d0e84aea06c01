import { useSyncExternalStore } from 'react';

/** Whether a media query matches now; follows changes (e.g. rotating a phone). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mql = window.matchMedia(query);
      mql.addEventListener('change', onChange);
      return () => mql.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Spec §9: phones are up to 767 px wide. */
export const PHONE_QUERY = '(max-width: 767px)';
