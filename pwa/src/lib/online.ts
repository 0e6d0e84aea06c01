import { useSyncExternalStore } from 'react';
import { ApiError } from './api-client';
import { i18n } from './i18n';

/** Whether the browser believes it has a network (true where the browser cannot tell). */
export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

/** Calls `listener` whenever the browser goes online or offline; returns the unsubscribe. */
export function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** The browser's online state, re-rendering on change (for disabling or annotating network actions). */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, isOnline, () => true);
}

/**
 * The failure of an action that needs the network while offline. An ApiError (status 0, code 'offline'), so
 * forms that show `error.message` show the translated sentence and keep what the user typed.
 */
export class OfflineError extends ApiError {
  constructor() {
    super(i18n.t('offline.actionNeedsNetwork'), 0, 'offline');
    this.name = 'OfflineError';
  }
}

export function isOfflineError(err: unknown): err is OfflineError {
  return err instanceof ApiError && err.code === 'offline';
}

/**
 * Throws an OfflineError ('You are offline. Connect to the internet and try again.') when offline. Every
 * mutation already runs it (lib/query-client.ts); call it first in actions that are not mutations
 * (e.g. starting a video call) so they fail at once with a clear message.
 */
export function assertOnline(): void {
  if (!isOnline()) throw new OfflineError();
}
