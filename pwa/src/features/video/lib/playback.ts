/** Listened for before the page's own handlers see the event (a handler that stops it cannot hide it). */
const CAPTURE = { capture: true };

/**
 * Starts a call's media element, and if the browser refuses to play it before a gesture (Safari on iOS for
 * sound, any browser under a strict autoplay policy), starts it again on the person's next tap or key press
 * anywhere on the page: the call's sound never stays silent for want of a gesture the person already makes.
 * Returns a function that stops waiting (the element was replaced or the call ended).
 */
export function playWhenAllowed(
  el: Pick<HTMLMediaElement, 'play'>,
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = document,
): () => void {
  let waiting = false;
  const retry = () => {
    stop();
    el.play().catch(() => undefined);
  };
  const stop = () => {
    if (!waiting) return;
    waiting = false;
    target.removeEventListener('pointerdown', retry, CAPTURE);
    target.removeEventListener('keydown', retry, CAPTURE);
  };
  let cancelled = false;
  el.play().catch((err: unknown) => {
    if (cancelled || (err as { name?: string } | null)?.name !== 'NotAllowedError') return;
    waiting = true;
    target.addEventListener('pointerdown', retry, CAPTURE);
    target.addEventListener('keydown', retry, CAPTURE);
  });
  return () => {
    cancelled = true;
    stop();
  };
}
