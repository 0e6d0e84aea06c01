import type { Workbox } from 'workbox-window';
import { PERSIST_KEY } from '../../lib/query-persist';
import { isCallActive, whenNoCallActive } from '../../lib/call-store';

/**
 * The app's service worker and its update flow. A new version never reloads the page on its own: the user
 * is asked ('A new version is available — Reload'), and even then the reload waits for a call to end.
 */
export type UpdateStatus =
  /** Nothing to do. */
  | 'idle'
  /** A new version is installed and waiting: ask the user. */
  | 'available'
  /** The user chose Reload during a call: it happens when the call ends. */
  | 'after-call'
  /** Switching to the new version; the page reloads as soon as the new worker controls it. */
  | 'reloading';

let status: UpdateStatus = 'idle';
const listeners = new Set<() => void>();
let workbox: Workbox | undefined;
let started = false;
/** Another tab already activated the new worker: reloading is all that is left. */
let newWorkerControls = false;
let reloadRequested = false;

function setStatus(next: UpdateStatus) {
  if (status === next) return;
  status = next;
  listeners.forEach((l) => l());
}

export function getUpdateStatus(): UpdateStatus {
  return status;
}

export function subscribeUpdateStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Hides the prompt until the next visit (the waiting worker stays waiting). */
export function dismissUpdate(): void {
  if (status === 'available') setStatus('idle');
}

function reloadNow() {
  // A call may have started since the user chose Reload: wait for it to end first.
  if (isCallActive()) {
    setStatus('after-call');
    void whenNoCallActive().then(reloadNow);
    return;
  }
  window.location.reload();
}

async function activateAndReload() {
  setStatus('reloading');
  reloadRequested = true;
  // The new build busts the persisted cache anyway (buster); dropping it now avoids a stale restore.
  try {
    localStorage.removeItem(PERSIST_KEY);
  } catch {
    /* storage disabled */
  }
  if (newWorkerControls || !workbox) {
    reloadNow();
    return;
  }
  workbox.messageSkipWaiting();
  // Should 'controlling' never come (the worker was replaced meanwhile), reload anyway: the user asked.
  window.setTimeout(reloadNow, 4000);
}

/** The user chose Reload: switch to the new version now, or as soon as the active call ends. */
export function applyUpdate(): void {
  if (status === 'reloading') return;
  if (isCallActive()) {
    setStatus('after-call');
    void whenNoCallActive().then(activateAndReload);
    return;
  }
  void activateAndReload();
}

/** Registers /sw.js once, in production builds only (development has no service worker). */
export async function registerServiceWorker(): Promise<void> {
  if (started || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  started = true;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  workbox = wb;
  // A page that loaded without a worker came from the network, as new as the server: the first worker to
  // take it over (installed by this page, or by the page before it when the visitor moved on while it was
  // still installing) is no new version. Only a worker that replaces one is.
  let controlled = !!navigator.serviceWorker.controller;
  // Also fires when a worker was already waiting from an earlier visit, or another tab installed it.
  wb.addEventListener('waiting', () => {
    if (status === 'idle' && navigator.serviceWorker.controller) setStatus('available');
  });
  wb.addEventListener('controlling', (event) => {
    const first = !controlled;
    controlled = true;
    if (reloadRequested) reloadNow();
    else if (!first && (event.isExternal || event.isUpdate)) {
      // Another tab switched versions: this page keeps running, and offers the reload itself.
      newWorkerControls = true;
      if (status === 'idle') setStatus('available');
    }
  });
  try {
    await wb.register();
  } catch {
    started = false; // e.g. private mode without service workers: the app works without one
  }
}
