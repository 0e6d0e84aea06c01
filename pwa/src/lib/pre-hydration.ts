import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * What a reader did to a server-rendered field before the app took over (issue 23: no dead zone before
 * hydration). React adopts the server's markup without touching a field's value, so a search typed or a sort
 * chosen while the JavaScript was loading is still in the DOM but not in the app's state, and the next render
 * would put the state's value back. On mount this reads the field once and hands a different value to `adopt`.
 */
export function useAdoptValueOnMount<E extends HTMLInputElement | HTMLSelectElement>(
  rendered: string,
  adopt: (value: string, element: E) => void,
): RefObject<E | null> {
  const ref = useRef<E>(null);
  const first = useRef<{ rendered: string; adopt: typeof adopt } | null>({ rendered, adopt });
  useLayoutEffect(() => {
    const el = ref.current;
    const pending = first.current;
    first.current = null;
    if (el && pending && el.value !== pending.rendered) pending.adopt(el.value, el);
  }, []);
  return ref;
}
