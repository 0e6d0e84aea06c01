/**
 * Whether a video call is under way, read from the DOM: the calls area fills the header's `inCall` slot
 * (`<HeaderSlot name="inCall">`) exactly while a call is being placed, rings, connects or is active. Reading the slot keeps this feature free
 * of imports from the calls feature; the slot is the agreed signal.
 */
const IN_CALL_SLOT = '[data-header-slot="inCall"]';

export function isCallActive(doc: Document = document): boolean {
  return (doc.querySelector(IN_CALL_SLOT)?.childElementCount ?? 0) > 0;
}

/** Calls `listener` whenever the call state may have changed (the slot's content or the header changed). */
export function subscribeCallActivity(listener: () => void, doc: Document = document): () => void {
  let last = isCallActive(doc);
  const observer = new MutationObserver(() => {
    const now = isCallActive(doc);
    if (now !== last) {
      last = now;
      listener();
    }
  });
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** Resolves once no call is active (at once when none is). */
export function whenNoCallActive(doc: Document = document): Promise<void> {
  if (!isCallActive(doc)) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = subscribeCallActivity(() => {
      if (isCallActive(doc)) return;
      stop();
      resolve();
    }, doc);
  });
}
