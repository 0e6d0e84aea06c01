import { useQuery } from '@tanstack/react-query';
import { ShoppingCart } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HeaderSlot } from '../../../app/header-slots';
import { loadAreas } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';
import { cartQueries } from '../api';

// The panel (Radix dialog, lists, mutations) loads on the first click, keeping every page's first load light.
const CartPanel = lazy(() => Promise.all([import('./cart-panel'), loadAreas(['messages'])]).then(([m]) => m));

/**
 * The cart's global part (extension `globals`): for customers, the header button with the total quantity and
 * the 'Shopping Cart' side panel it opens.
 */
export default function CartGlobal() {
  const session = useQuery(sessionQuery());
  if (session.data?.role !== 'customer') return null;
  return <CustomerCart />;
}

function CustomerCart() {
  const { t } = useTranslation();
  const cart = useQuery({ ...cartQueries.list(), meta: { silentErrors: true } });
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const count = cart.data?.totalQuantity ?? 0;

  return (
    <>
      <HeaderSlot name="cart">
        <button
          type="button"
          onClick={() => {
            setRequested(true);
            setOpen(true);
          }}
          // Preload the panel's code when the pointer or focus arrives, so the click opens it at once.
          onPointerEnter={() => setRequested(true)}
          onFocus={() => setRequested(true)}
          aria-haspopup="dialog"
          className="relative inline-flex h-9 w-9 items-center justify-center rounded-md text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          data-testid="cart-button"
        >
          <ShoppingCart aria-hidden="true" className="h-5 w-5" />
          <span className="sr-only">{t('cart.open', { count })}</span>
          {count > 0 && (
            <span
              aria-hidden="true"
              className="absolute -top-1 -right-1 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-700 px-1 text-xs font-semibold text-white"
            >
              {count > 99 ? '99+' : count}
            </span>
          )}
        </button>
      </HeaderSlot>
      {requested && (
        <Suspense fallback={null}>
          <CartPanel open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
