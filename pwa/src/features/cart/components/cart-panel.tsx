import { useQuery } from '@tanstack/react-query';
import { Minus, Plus, ShoppingBag, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LIMITS } from '../../../../../api/contract/constants';
import type { CartItem } from '../../../../../api/contract/cart';
import { sumFigures } from '../../../../../api/contract/figures';
import { LineFigures, PriceFigureRows } from '../../../components/price-figures';
import { Button, buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ProductThumb } from '../../../components/ui/product-thumb';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { cartQueries, useRemoveCartItemMutation, useUpdateCartItemMutation } from '../api';
import { stockNoteKey } from '../stock-note';
import { notifyFailure, notifySuccess } from '../notify';

/** The 'Shopping Cart' side panel (docs/product-rules.md §2): lines, quantities within stock, summary, Proceed to Checkout. */
export default function CartPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="right" width="md" closeLabel={t('common.close')} data-testid="cart-panel">
        <div className="border-b border-stone-200 px-5 py-4 pr-14">
          <SheetTitle className="text-xl font-semibold text-ink">{t('cart.title')}</SheetTitle>
          <SheetDescription className="text-sm text-muted">{t('cart.description')}</SheetDescription>
        </div>
        <CartBody onClose={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}

function CartBody({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const cart = useQuery(cartQueries.list());

  if (cart.isPending) {
    return (
      <div role="status" aria-label={t('common.loading')} className="flex-1 space-y-4 p-5">
        {Array.from({ length: 3 }, (_, i) => (
          <div key={i} className="flex gap-3" data-testid="cart-skeleton">
            <Skeleton className="h-20 w-20 shrink-0" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-8 w-28" />
            </div>
          </div>
        ))}
      </div>
    );
  }

  if (cart.isError) {
    return (
      <div role="alert" className="flex-1 p-5 text-center">
        <p className="font-semibold text-ink">{t('cart.loadFailed')}</p>
        <p className="mt-1 text-sm text-muted">{translateMessage(errorMessage(cart.error))}</p>
        <Button variant="outline" className="mt-4" onClick={() => void cart.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }

  const { items, totalAmount } = cart.data;
  if (items.length === 0) {
    return (
      <div className="flex-1 overflow-y-auto">
        <EmptyState
          icon={<ShoppingBag className="h-8 w-8" />}
          title={t('messages.cart.emptyTitle')}
          description={t('messages.cart.emptyBody')}
          action={
            <Link to="/marketplace" onClick={onClose} className={buttonClasses('primary')}>
              {t('cart.continueShopping')}
            </Link>
          }
        />
      </div>
    );
  }

  const canCheckout = items.some((i) => i.available);
  return (
    <>
      <ul className="flex-1 divide-y divide-stone-200 overflow-y-auto px-5" aria-label={t('cart.itemsLabel')}>
        {items.map((item) => (
          <CartLine key={item.cartItemId} item={item} />
        ))}
      </ul>
      <div className="border-t border-stone-200 bg-stone-50 px-5 py-4">
        <h3 className="sr-only">{t('cart.summary')}</h3>
        <dl className="space-y-1.5 text-sm">
          {/* What the total is made of, GST included (issue #49): the available lines' figures summed. */}
          <PriceFigureRows
            figures={sumFigures(items.filter((i) => i.available))}
            testIdPrefix="cart-figures"
          />
          <div className="flex justify-between">
            <dt className="text-muted">{t('cart.shipping')}</dt>
            <dd className="font-medium text-green-800">{t('common.shippingFree')}</dd>
          </div>
          <div className="flex justify-between border-t border-stone-200 pt-2 text-base">
            <dt className="font-semibold text-ink">{t('cart.total')}</dt>
            <dd className="font-semibold text-ink" data-testid="cart-total">
              {formatPrice(totalAmount)}
            </dd>
          </div>
        </dl>
        {canCheckout ? (
          <Link
            to="/checkout"
            onClick={onClose}
            className={cn(buttonClasses('primary', 'lg'), 'mt-4 w-full')}
          >
            {t('cart.proceed')}
          </Link>
        ) : (
          <Button size="lg" className="mt-4 w-full" disabled>
            {t('cart.proceed')}
          </Button>
        )}
      </div>
    </>
  );
}

function CartLine({ item }: { item: CartItem }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateCartItemMutation();
  const remove = useRemoveCartItemMutation();
  const busy = update.isPending || remove.isPending;
  const canDecrease = item.available && item.quantity > 1;
  const canIncrease = item.available && (item.stockQuantity === null || item.quantity < item.stockQuantity);
  const note = stockNoteKey(item.stockQuantity);

  const setQuantity = (quantity: number) =>
    update.mutate(
      { cartItemId: item.cartItemId, quantity },
      {
        onSuccess: () => notifySuccess('messages.cart.updated'),
        onError: (err) => notifyFailure('messages.cart.updateFailed', err),
      },
    );
  const onRemove = () =>
    remove.mutate(
      { cartItemId: item.cartItemId },
      {
        onSuccess: () => notifySuccess('messages.cart.removed'),
        onError: (err) => notifyFailure('messages.cart.removeFailed', err),
      },
    );

  return (
    <li className="flex gap-3 py-4" data-testid="cart-line" aria-busy={busy || undefined}>
      <ProductThumb src={item.imageUrl} size="lg" lazy />
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="font-medium break-words text-ink">{item.productName}</p>
            {item.shopName && <p className="text-xs text-muted">{item.shopName}</p>}
            {item.hold && (
              <p className="text-xs font-medium text-green-800" data-testid="cart-held">
                {t('cart.heldUntil', {
                  time: new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
                    weekday: 'short',
                    day: 'numeric',
                    month: 'short',
                    hour: 'numeric',
                    minute: '2-digit',
                  }).format(new Date(item.hold.expiresAt)),
                })}
              </p>
            )}
            <p className="text-sm text-muted">
              {t('cart.unitPrice', {
                price: formatPrice(item.price, t('common.priceNotAvailable')),
              })}
            </p>
            {item.available && <LineFigures figures={item.figures} testIdPrefix="cart-line-figures" />}
            {item.priceChanged && item.priceAtAdd && (
              <p role="note" className="text-xs font-medium text-amber-800" data-testid="cart-price-changed">
                {t('cart.priceChanged', {
                  old: formatPrice(item.priceAtAdd, t('common.priceNotAvailable')),
                  new: formatPrice(item.price, t('common.priceNotAvailable')),
                })}
              </p>
            )}
          </div>
          <button
            type="button"
            onClick={onRemove}
            disabled={busy}
            aria-label={t('cart.remove', { name: item.productName })}
            className="shrink-0 rounded-md p-2 text-muted hover:bg-red-50 hover:text-red-800 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50"
          >
            <Trash2 aria-hidden="true" className="h-4 w-4" />
          </button>
        </div>
        {item.available ? (
          <>
            <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
              <div
                role="group"
                aria-label={t('cart.quantityOf', { name: item.productName })}
                className="inline-flex items-center rounded-md border border-stone-300"
              >
                <button
                  type="button"
                  onClick={() => setQuantity(item.quantity - 1)}
                  disabled={!canDecrease || busy}
                  aria-label={t('cart.decrease')}
                  className="inline-flex h-9 w-9 items-center justify-center rounded-l-md text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-stone-400"
                >
                  <Minus aria-hidden="true" className="h-4 w-4" />
                </button>
                <span
                  className="min-w-9 text-center text-sm font-semibold text-ink"
                  aria-live="polite"
                  data-testid="cart-quantity"
                >
                  <span className="sr-only">{t('cart.quantity')} </span>
                  {item.quantity}
                </span>
                <button
                  type="button"
                  onClick={() => setQuantity(item.quantity + 1)}
                  disabled={!canIncrease || busy}
                  aria-label={t('cart.increase')}
                  className="inline-flex h-9 w-9 items-center justify-center rounded-r-md text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-stone-400"
                >
                  <Plus aria-hidden="true" className="h-4 w-4" />
                </button>
              </div>
              <p className="text-sm font-semibold text-ink">
                <span className="sr-only">{t('cart.lineSubtotal')} </span>
                {formatPrice(item.lineTotal)}
              </p>
            </div>
            {note && (
              <p
                className={cn(
                  'mt-1 text-xs',
                  item.stockQuantity !== null && item.stockQuantity <= LIMITS.lowStockThreshold
                    ? 'font-medium text-amber-900'
                    : 'text-muted',
                )}
              >
                {t(note.key, { n: note.n })}
              </p>
            )}
          </>
        ) : (
          <p className="mt-2 text-sm font-medium text-red-800">{t('cart.unavailable')}</p>
        )}
      </div>
    </li>
  );
}
