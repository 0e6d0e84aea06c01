import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import type { Product, StoreProfile } from '../../../../../api/contract/catalog';
import { loadAreas } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';

// The slot picker loads on the page that shows the button, not with a visitor's first page (with its strings).
const BookAppointmentButton = lazy(() =>
  Promise.all([import('./appointments'), loadAreas(['callsAppointments'])]).then(([m]) => m),
);

function BookEntry(props: {
  sellerId: number;
  shopName: string;
  videoCallEnabled: boolean;
  productId?: number;
}) {
  const { data: user, isPending } = useQuery(sessionQuery());
  // Customers and visitors (asked to log in) of shops that take video calls, whatever the shop's state now.
  if (!props.videoCallEnabled || isPending || (user && user.role !== 'customer')) return null;
  return (
    <Suspense fallback={null}>
      <BookAppointmentButton
        sellerId={props.sellerId}
        shopName={props.shopName}
        productId={props.productId}
        signedIn={!!user}
      />
    </Suspense>
  );
}

/** "Book a video appointment" in the storefront header (issue #22), beside the call button. */
export function StorefrontBookAppointment({ store }: { store: StoreProfile }) {
  return (
    <BookEntry
      sellerId={store.sellerId}
      shopName={store.shopName}
      videoCallEnabled={store.videoCallEnabled}
    />
  );
}

/** The same on the product page, about the product. */
export function ProductBookAppointment({ product }: { product: Product }) {
  return (
    <BookEntry
      sellerId={product.sellerId}
      shopName={product.shopName}
      videoCallEnabled={product.videoCallEnabled}
      productId={product.id}
    />
  );
}
