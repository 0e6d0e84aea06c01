import { useSyncExternalStore } from 'react';

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
