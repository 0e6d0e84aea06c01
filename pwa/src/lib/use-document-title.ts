import { useEffect } from 'react';

/** Sets the tab title to '<title> · Nagai' while the page is shown. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = `${title} · Nagai`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
