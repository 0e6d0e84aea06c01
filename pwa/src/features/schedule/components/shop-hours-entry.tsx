import { lazy, Suspense } from 'react';

const ShopHoursSettings = lazy(() => import('./shop-hours-settings'));

/** The seller's video hours and away switch, loaded with the #video-settings section that shows it. */
export function ShopHoursEntry() {
  return (
    <Suspense fallback={null}>
      <ShopHoursSettings />
    </Suspense>
  );
}
