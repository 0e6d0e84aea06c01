import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { sessionQuery } from '../../../lib/session';

const CallLayer = lazy(() => import('./call-layer'));

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
