import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CALL_SHARE_MAX_PRODUCTS, type CallItem } from '../../../../../api/contract/call-selling';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { callQueries, sellingApi } from '../api';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}

/**
 * "Show a product": the jeweller searches their own shop (name or SKU) and shows one or several pieces,
 * which appear on the customer's screen as cards over the call.
 */
export function ShowProductSheet({
  open,
  onOpenChange,
  callId,
  onShared,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  callId: number;
  onShared: (items: CallItem[]) => void;
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim(), 250);
  const [picked, setPicked] = useState<number[]>([]);
  const [sharing, setSharing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const results = useQuery({
    queryKey: [...callQueries.all(), 'products', callId, query] as const,
    queryFn: ({ signal }) => sellingApi.searchProducts(callId, query, signal),
    enabled: open,
    staleTime: 30_000,
    meta: { silentErrors: true },
  });
  const toggle = (id: number) =>
    setPicked((prev) =>
      prev.includes(id)
        ? prev.filter((p) => p !== id)
        : prev.length >= CALL_SHARE_MAX_PRODUCTS
          ? prev
          : [...prev, id],
    );
  const share = async () => {
    if (!picked.length) return;
    setSharing(true);
    setError(null);
    try {
      const res = await sellingApi.share(callId, picked);
      onShared(res.items);
      setPicked([]);
      onOpenChange(false);
    } catch (err) {
      setError(translateMessage(errorMessage(err)));
    } finally {
      setSharing(false);
    }
  };
  const products = results.data?.products ?? [];
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-[65] bg-black/40" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-x-0 bottom-0 z-[65] flex max-h-[80dvh] flex-col rounded-t-2xl bg-white text-ink shadow-2xl focus:outline-none md:inset-x-auto md:right-6 md:bottom-6 md:w-[28rem] md:rounded-2xl"
        >
          <div className="flex items-center justify-between border-b border-stone-200 px-4 py-2">
            <DialogPrimitive.Title className="font-semibold">
              {t('calls.selling.showProduct')}
            </DialogPrimitive.Title>
            <DialogPrimitive.Close
              aria-label={t('common.close')}
              className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </DialogPrimitive.Close>
          </div>
          <div className="px-3 pt-3">
            <label htmlFor="call-product-search" className="sr-only">
              {t('calls.selling.searchLabel')}
            </label>
            <input
              id="call-product-search"
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder={t('calls.selling.searchPlaceholder')}
              className="h-11 w-full rounded-xl border border-stone-300 px-3 text-base focus-visible:outline-2 focus-visible:outline-brand-600"
            />
          </div>
          <div
            className="min-h-40 flex-1 overflow-y-auto px-3 py-2"
            aria-busy={results.isFetching || undefined}
          >
            {results.isPending ? (
              <div className="flex justify-center py-8">
                <Spinner className="h-6 w-6" />
              </div>
            ) : results.isError ? (
              <p role="alert" className="py-6 text-center text-red-700">
                {translateMessage(errorMessage(results.error))}
              </p>
            ) : !products.length ? (
              <p className="py-6 text-center text-muted">{t('calls.selling.noProducts')}</p>
            ) : (
              <ul className="space-y-1">
                {products.map((p) => {
                  const on = picked.includes(p.id);
                  return (
                    <li key={p.id}>
                      <button
                        type="button"
                        aria-pressed={on}
                        onClick={() => toggle(p.id)}
                        className={cn(
                          'flex w-full items-center gap-3 rounded-lg border p-2 text-left focus-visible:outline-2 focus-visible:outline-brand-600',
                          on ? 'border-brand-700 bg-brand-50' : 'border-stone-200 hover:bg-stone-50',
                        )}
                      >
                        {p.imageUrl ? (
                          <img
                            src={p.imageUrl}
                            alt=""
                            className="h-12 w-12 shrink-0 rounded-md object-cover"
                          />
                        ) : (
                          <span className="h-12 w-12 shrink-0 rounded-md bg-stone-200" />
                        )}
                        <span className="min-w-0 flex-1">
                          <span className="block truncate font-medium">{p.name}</span>
                          <span className="block text-sm text-muted">
                            {formatPrice(p.price, t('common.priceNotAvailable'))}
                            {p.sku ? ` · ${p.sku}` : ''}
                          </span>
                        </span>
                        <span
                          aria-hidden="true"
                          className={cn(
                            'inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full border',
                            on ? 'border-brand-700 bg-brand-700 text-white' : 'border-stone-400',
                          )}
                        >
                          {on && <Check className="h-4 w-4" />}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
          <div className="border-t border-stone-200 p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">
            {error && (
              <p role="alert" className="pb-2 text-sm text-red-700">
                {error}
              </p>
            )}
            <Button
              className="w-full"
              size="lg"
              disabled={!picked.length || sharing}
              loading={sharing}
              onClick={() => void share()}
            >
              {t('calls.selling.showPicked', { count: picked.length })}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
