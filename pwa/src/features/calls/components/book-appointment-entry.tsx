import { useQuery } from '@tanstack/react-query';
import { CalendarDays } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product, StoreProfile } from '../../../../../api/contract/catalog';
import { Button } from '../../../components/ui/button';
import { LocaleGate } from '../../../lib/locale-gate';
import { sessionQuery } from '../../../lib/session';

const loadPicker = () => import('./slot-picker-dialog');
// The slot picker (with its queries and toasts) loads when the button is pressed; the button needs only its
// strings, which load on the page that shows it (LocaleGate below), not with a visitor's first page.
const SlotPickerDialog = lazy(() => loadPicker().then((m) => ({ default: m.SlotPickerDialog })));

/** "Book a video appointment": opens the slot picker (customers; a visitor is sent to log in). */
function BookButton({
  sellerId,
  shopName,
  productId,
  signedIn,
}: {
  sellerId: number;
  shopName: string;
  productId?: number;
  signedIn: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        onPointerEnter={signedIn ? () => void loadPicker() : undefined}
        onClick={() => {
          if (signedIn) setOpen(true);
          else window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname)}`);
        }}
      >
        <CalendarDays aria-hidden="true" className="h-4 w-4" />
        {t('calls.appointments.book')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SlotPickerDialog
            sellerId={sellerId}
            shopName={shopName}
            productId={productId}
            open={open}
            onOpenChange={setOpen}
          />
        </Suspense>
      )}
    </>
  );
}

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
      <LocaleGate areas={['callsAppointments']}>
        <BookButton
          sellerId={props.sellerId}
          shopName={props.shopName}
          productId={props.productId}
          signedIn={!!user}
        />
      </LocaleGate>
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
