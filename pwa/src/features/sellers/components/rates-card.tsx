import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { METAL_PURITIES, METALS, type Metal, type MetalPurity } from '../../../../../api/contract/pricing';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { api, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';

const PAIRS = METALS.flatMap((metal) =>
  (METAL_PURITIES[metal] as readonly MetalPurity[]).map((purity) => ({ metal, purity })),
);
const key = (metal: Metal, purity: string) => `${metal}:${purity}`;
export const ratesQuery = { queryKey: ['sellers', 'rates'] as const };

/**
 * The dashboard card with today's metal rates (docs/product-rules.md §10): one field per metal and purity, the
 * time each was set; saving sends the changed ones, and the server reprices the shop's rate-linked products.
 */
export function RatesCard() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const rates = useQuery({
    ...ratesQuery,
    queryFn: ({ signal }) => api.call(API_ROUTES.sellerRates, undefined, { signal }),
  });
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const current = new Map((rates.data?.rates ?? []).map((r) => [key(r.metal, r.purity), r]));
  const save = useMutation({
    mutationFn: (list: { metal: Metal; purity: MetalPurity; ratePerGram: string }[]) =>
      api.call(API_ROUTES.sellerRatesSet, { rates: list }),
    onSuccess: (answer) => {
      queryClient.setQueryData(ratesQuery.queryKey, { rates: answer.rates });
      void queryClient.invalidateQueries({ queryKey: ['sellers', 'products'] });
      void queryClient.invalidateQueries({ queryKey: ['catalog'] });
      setDraft({});
      toast.success(t('seller.rates.saved', { n: answer.repriced ?? 0 }));
    },
    onError: (err) => setError(t('seller.rates.failed', { message: translateMessage(errorMessage(err)) })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const list = PAIRS.filter(({ metal, purity }) => {
      const v = draft[key(metal, purity)]?.trim();
      return v && v !== current.get(key(metal, purity))?.ratePerGram;
    }).map(({ metal, purity }) => ({ metal, purity, ratePerGram: draft[key(metal, purity)].trim() }));
    if (!list.length) return setError(t('seller.rates.nothingChanged'));
    save.mutate(list);
  };
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(iso));

  return (
    <Card data-testid="rates-card">
      <CardHeader className="flex flex-row items-center gap-2">
        <Coins aria-hidden="true" className="h-5 w-5 text-brand-700" />
        <CardTitle className="text-lg">{t('seller.rates.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="mb-3 text-sm text-muted">{t('seller.rates.description')}</p>
        <form onSubmit={submit} className="space-y-3" noValidate>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {PAIRS.map(({ metal, purity }) => {
              const k = key(metal, purity);
              const rate = current.get(k);
              const id = `rate-${metal}-${purity}`;
              return (
                <div key={k} className="space-y-1">
                  <Label htmlFor={id}>
                    {t('seller.rates.label', { metal: t(`catalog.pricing.metals.${metal}`), purity })}
                  </Label>
                  <Input
                    id={id}
                    inputMode="decimal"
                    value={draft[k] ?? rate?.ratePerGram ?? ''}
                    onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
                    aria-describedby={`${id}-set`}
                  />
                  <p id={`${id}-set`} className="text-xs text-muted">
                    {rate ? t('seller.rates.setAt', { when: when(rate.setAt) }) : t('seller.rates.notSet')}
                  </p>
                </div>
              );
            })}
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? t('seller.rates.saving') : t('seller.rates.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
