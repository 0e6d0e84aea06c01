import { useSyncExternalStore } from 'react';

/** At most this many toasts are on screen at once (the Toaster's `visibleToasts`); older ones wait behind. */
export const VISIBLE_TOASTS = 3;

let needed = false;
const listeners = new Set<() => void>();

/** Something loaded sonner (lib/sonner-bridge.ts): the root layout mounts the Toaster from now on. */
export function markToasterNeeded(): void {
  if (needed) return;
  needed = true;
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the Toaster should be mounted (true once any code loaded sonner). */
export function useToasterNeeded(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => needed,
    () => false,
  );
}
