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
const CallLayer = lazy(() =>
  retried(() =>
    Promise.all([
      import('./call-layer'),
      loadAreas(['callsInCall', 'callCounter', 'callsAppointments', 'sellerCare', 'sellerPhone']),
    ]).then(([m]) => m),
  ),
);

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
