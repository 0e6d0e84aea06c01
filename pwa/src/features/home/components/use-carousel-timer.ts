import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';

const REDUCED = '(prefers-reduced-motion: reduce)';

/** Whether the reader asked for less motion: carousels then do not move on their own. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (cb) => {
      const mql = window.matchMedia(REDUCED);
      mql.addEventListener('change', cb);
      return () => mql.removeEventListener('change', cb);
    },
    () => window.matchMedia(REDUCED).matches,
    () => false,
  );
}

/**
 * Autoplay for a carousel: calls `advance` every `intervalMs` unless the reader paused it, asked for reduced
 * motion, is hovering or focused inside it, or interacted within the last `pauseAfterInteractionMs`.
 */
export function useCarouselTimer({
  advance,
  intervalMs,
  pauseAfterInteractionMs = 0,
}: {
  advance: () => void;
  intervalMs: number;
  pauseAfterInteractionMs?: number;
}) {
  const reduced = useReducedMotion();
  // Nothing moves before the app runs the carousel, so the server's markup (and the first render adopting it)
  // has no pause button; it appears once the carousel is running here, unless the reader asked for less motion.
  const [running, setRunning] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setRunning(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const [stopped, setStopped] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [resting, setResting] = useState(false);
  const restTimer = useRef<number | undefined>(undefined);
  const advanceRef = useRef(advance);
  useEffect(() => {
    advanceRef.current = advance;
  }, [advance]);

  const playing = running && !reduced && !stopped && !hovered && !focused && !resting;

  useEffect(() => {
    if (!playing) return;
    const id = window.setInterval(() => advanceRef.current(), intervalMs);
    return () => window.clearInterval(id);
  }, [playing, intervalMs]);

  useEffect(() => () => window.clearTimeout(restTimer.current), []);

  /** The reader moved the carousel: hold still for a while (30 s for the category carousel, docs/product-rules.md §9). */
  const interacted = useCallback(() => {
    if (pauseAfterInteractionMs <= 0) return;
    window.clearTimeout(restTimer.current);
    setResting(true);
    restTimer.current = window.setTimeout(() => setResting(false), pauseAfterInteractionMs);
  }, [pauseAfterInteractionMs]);

  return {
    playing,
    /** Autoplay is possible at all (not switched off by reduced motion). */
    canPlay: running && !reduced,
    stopped,
    toggle: () => setStopped((s) => !s),
    interacted,
    containerProps: {
      onPointerEnter: () => setHovered(true),
      onPointerLeave: () => setHovered(false),
      onFocus: () => setFocused(true),
      onBlur: (e: React.FocusEvent<HTMLElement>) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      },
    },
  };
}
