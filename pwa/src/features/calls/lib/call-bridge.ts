import { useSyncExternalStore } from 'react';

/**
 * The call buttons live inside pages (product cards, storefronts) while the call provider is mounted once
 * beside the page (the globals extension point), so they are not under its React context. This small
 * external store connects them: buttons ask for a call, the provider starts it and publishes whether an
 * initiation is pending. A request made before the provider is ready (right after logging in from the
 * call dialog) waits for it.
 */
export interface CallBridgeSnapshot {
  /** The seller whose call is being initiated, while the request is pending. */
  initiatingSellerId: number | null;
}

type Starter = (sellerId: number, sellerName?: string) => void;

let snapshot: CallBridgeSnapshot = { initiatingSellerId: null };
let starter: Starter | null = null;
let queued: { sellerId: number; sellerName?: string } | null = null;
const listeners = new Set<() => void>();

/** The provider registers how calls start; returns the unregister function. */
export function registerCallStarter(fn: Starter): () => void {
  starter = fn;
  if (queued) {
    const q = queued;
    queued = null;
    fn(q.sellerId, q.sellerName);
  }
  return () => {
    if (starter === fn) starter = null;
  };
}

/** Asks the provider to call a seller (ignored by it while another initiation is pending). */
export function requestCall(sellerId: number, sellerName?: string): void {
  if (starter) starter(sellerId, sellerName);
  else queued = { sellerId, sellerName };
}

export function publishCallBridge(next: CallBridgeSnapshot): void {
  if (next.initiatingSellerId === snapshot.initiatingSellerId) return;
  snapshot = next;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What call buttons need to render ('Calling...' while their seller's initiation is pending). */
export function useCallBridge(): CallBridgeSnapshot {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  );
}
