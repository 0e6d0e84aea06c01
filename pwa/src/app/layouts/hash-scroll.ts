import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * When the URL names an element (`#video-settings`), scroll smoothly to it after navigation. Pages load
 * lazily and fetch data, so the element may appear a little later: watch the DOM for up to 5 s.
 */
export function useHashScroll(): void {
  const { hash, pathname } = useLocation();
  useEffect(() => {
    if (!hash || hash.length < 2) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const tryScroll = () => {
      const el = document.getElementById(id);
      if (!el) return false;
      el.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
      return true;
    };
    if (tryScroll()) return;
    const observer = new MutationObserver(() => {
      if (tryScroll()) stop();
    });
    const timer = window.setTimeout(() => stop(), 5000);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
    }
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [hash, pathname]);
}
