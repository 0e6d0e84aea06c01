import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { onQueuedCallLost } from '../../../lib/call-store';
import { loadAreas } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';

/** Tries of the call layer's code before a tap's call is given up (a chunk a just-started server was slow to give). */
const LAYER_TRIES = 3;

/** `load`, tried again after 0.5 s and 1 s when it fails (a dropped connection, a server restarting). */
async function retried<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await load();
    } catch (err) {
      if (attempt >= LAYER_TRIES) throw err;
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

// With its strings: selling, summaries, outcomes, the in-call notices and appointment notices
// (lib/locale-areas.ts).
let layer: ReturnType<typeof loadLayer> | undefined;
const loadLayer = () =>
  retried(() =>
    Promise.all([
      import('./call-layer'),
      loadAreas(['callsInCall', 'callCounter', 'callsAppointments', 'sellerCare', 'sellerPhone', 'family']),
    ]).then(([m]) => m),
  );
/** The layer's code and strings, asked for once (again after a failure). */
const layerOnce = () =>
  (layer ??= loadLayer().catch((err: unknown) => {
    layer = undefined;
    throw err;
  }));
const CallLayer = lazy(layerOnce);

/**
 * A reader with a live call (the page reloaded during it): the call layer and the call screen are fetched
 * now, alongside the app's own modules, not after the session and the layer have loaded (issue #50).
 */
export function preloadCallScreen(): void {
  void layerOnce().catch(() => undefined);
  void import('./call-modal').catch(() => undefined);
}

/**
 * Globals entry: mounts the call layer (its own chunk) for signed-in users only (docs/product-rules.md §1). A
 * call tapped before the layer has loaded waits for it (lib/call-store.ts requestCall); one that waited in vain
 * says so (issue #50: no tap goes unanswered).
 */
export function CallGlobals() {
  const { t } = useTranslation();
  const { data: user } = useQuery(sessionQuery());
  useEffect(
    () =>
      onQueuedCallLost(() => {
        void import('sonner').then(({ toast }) => toast.error(t('callButton.notStarted')));
      }),
    [t],
  );
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <CallLayer user={user} />
    </Suspense>
  );
}
