import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { loadAreas } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';

// With its strings: selling, summaries, outcomes, the in-call notices and appointment notices (lib/locale-areas.ts).
const CallLayer = lazy(() =>
  Promise.all([import('./call-layer'), loadAreas(['callsInCall', 'callCounter', 'callsAppointments'])]).then(
    ([m]) => m,
  ),
);

/** Globals entry: mounts the call layer (its own chunk) for signed-in users only (docs/product-rules.md §1). */
export function CallGlobals() {
  const { data: user } = useQuery(sessionQuery());
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <CallLayer user={user} />
    </Suspense>
  );
}
