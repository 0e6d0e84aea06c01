import { useEffect, useRef, type RefObject } from 'react';

/** After paging, bring the top of the list into view when the reader has scrolled past it. */
export function useScrollToTopOnChange(ref: RefObject<HTMLElement | null>, value: unknown) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const el = ref.current;
    if (el && el.getBoundingClientRect().top < 0) {
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    }
  }, [ref, value]);
}
