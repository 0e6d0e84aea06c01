import { lazy, Suspense } from 'react';

const PushOptIn = lazy(() => import('./push-opt-in'));

/** The seller's push opt-in as an extension entry: its code loads only where the settings are shown. */
export function PushOptInEntry() {
  return (
    <Suspense fallback={null}>
      <PushOptIn />
    </Suspense>
  );
}
