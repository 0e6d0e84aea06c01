import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Bookmark, ShoppingCart } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { CallProduct, ProductHold } from '../../../../../api/contract/call-selling';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button } from '../../../components/ui/button';
import { api, errorMessage } from '../../../lib/api-client';
import { cartKey } from '../../../lib/cart-query';
import { cn } from '../../../lib/cn';
import { formatPrice, numberLocale } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { callQueries, sellingApi } from '../api';

/** "22K · 12.5 g": what a jeweller's customer reads first after the price. */
export function productFacts(product: CallProduct, language: string): string {
  const parts: string[] = [];
  if (product.purity) parts.push(product.purity);
  if (product.weight !== null)
    parts.push(
      `${new Intl.NumberFormat(numberLocale(language), { maximumFractionDigits: 3 }).format(product.weight)} g`,
    );
  return parts.join(' · ');
}

/** When a hold ends, in the viewer's language. */
export function formatHoldTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'ta' ? 'ta-IN' : 'en-IN', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(iso));
}

/**
 * The buttons' labels wrap onto a second line rather than being cut ("கூடையி…" on a 360 px phone in Tamil): the
 * button grows in height, never in width.
 */
const WRAP = 'h-auto! min-h-9 min-w-0 px-2! py-1.5 text-center leading-tight whitespace-normal break-words';

/**
 * The customer's two ways to act on a piece shown in the call: put it in the cart (the call goes on), or hold
 * one unit for HOLD_HOURS. Both are the server's to allow: stock, who may hold, what was shown.
 */
export function CallProductActions({
  callId,
  product,
  hold,
  onHeld,
  compact,
}: {
  callId: number;
  product: CallProduct;
  hold: ProductHold | null;
  onHeld?: (hold: ProductHold) => void;
  compact?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => api.call(API_ROUTES.cartAdd, { productId: product.id, quantity: 1 }),
    onSuccess: () => toast.success(t('calls.selling.addedToCart', { name: product.name })),
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKey }),
  });
  const holdIt = useMutation({
    mutationFn: () => sellingApi.hold(callId, product.id),
    onSuccess: ({ hold: h }) => {
      toast.success(t('calls.selling.held', { time: formatHoldTime(h.expiresAt, i18n.language) }));
      onHeld?.(h);
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: cartKey });
      void queryClient.invalidateQueries({ queryKey: [...callQueries.all(), 'detail', callId] });
    },
  });
  const size = compact ? 'sm' : 'md';
  return (
    <div className={cn('grid grid-cols-2 gap-2', compact && 'gap-1.5')}>
      <Button
        size={size}
        disabled={add.isPending || !product.available}
        aria-busy={add.isPending || undefined}
        onClick={() => add.mutate()}
        className={WRAP}
      >
        <ShoppingCart aria-hidden="true" className="h-4 w-4 shrink-0" />
        <span>{t('calls.selling.addToCart')}</span>
      </Button>
      {hold ? (
        <p
          className="flex min-w-0 items-center justify-center rounded-md bg-green-50 px-2 text-center text-xs font-medium text-green-800"
          data-testid="held-note"
        >
          {t('calls.selling.heldUntil', { time: formatHoldTime(hold.expiresAt, i18n.language) })}
        </p>
      ) : (
        <Button
          size={size}
          variant="outline"
          disabled={holdIt.isPending || !product.available}
          aria-busy={holdIt.isPending || undefined}
          onClick={() => holdIt.mutate()}
          className={WRAP}
        >
          <Bookmark aria-hidden="true" className="h-4 w-4 shrink-0" />
          <span>{t('calls.selling.hold')}</span>
        </Button>
      )}
    </div>
  );
}

/** Picture, name, price, purity and weight of a piece: the card over the call and in its summary. */
export function CallProductSummary({
  product,
  onOpen,
  dark,
}: {
  product: CallProduct;
  onOpen?: () => void;
  dark?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const facts = productFacts(product, i18n.language);
  const image = product.imageUrl ? (
    <img src={product.imageUrl} alt="" className="h-16 w-16 shrink-0 rounded-md bg-stone-200 object-cover" />
  ) : (
    <span className="h-16 w-16 shrink-0 rounded-md bg-stone-200" />
  );
  return (
    <div className="flex min-w-0 items-center gap-3">
      {onOpen ? (
        <button
          type="button"
          onClick={onOpen}
          aria-label={t('calls.selling.openProduct', { name: product.name })}
          className="shrink-0 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {image}
        </button>
      ) : (
        image
      )}
      <div className="min-w-0">
        <p className={cn('truncate font-semibold', dark ? 'text-white' : 'text-ink')}>{product.name}</p>
        <p className={cn('font-semibold', dark ? 'text-gold-100' : 'text-brand-700')}>
          {formatPrice(product.price, t('common.priceNotAvailable'))}
        </p>
        {facts && <p className={cn('text-sm', dark ? 'text-stone-300' : 'text-muted')}>{facts}</p>}
        {!product.available && (
          <p className={cn('text-sm font-medium', dark ? 'text-amber-200' : 'text-red-700')}>
            {t('cart.outOfStock')}
          </p>
        )}
      </div>
    </div>
  );
}
