import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { api, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { callQueries } from '../api';
import { CallbackWindowText } from './callback-queue';

const VARIANT = { open: 'warning', answered: 'success', expired: 'outline', withdrawn: 'outline' } as const;

/** The customer's call-back requests (issue #22): open, answered, expired or withdrawn; an open one can be withdrawn. */
export function MyCallbacks() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mine = useQuery(callQueries.myCallbacks());
  const withdraw = useMutation({
    mutationFn: (requestId: number) => api.call(API_ROUTES.callbackWithdraw, { requestId }),
    onSuccess: () => {
      toast.success(t('calls.schedule.mine.withdrawn'));
      void queryClient.invalidateQueries({ queryKey: callQueries.myCallbacks().queryKey });
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
  });
  const requests = mine.data?.requests ?? [];
  if (!requests.length) return null;
  return (
    <section aria-labelledby="my-callbacks-title" className="mb-6 space-y-2" data-testid="my-callbacks">
      <h2 id="my-callbacks-title" className="text-lg font-semibold text-ink">
        {t('calls.schedule.mine.title')}
      </h2>
      <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {requests.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center gap-3 p-3 text-sm" data-status={r.status}>
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-ink">{r.shop.shopName}</p>
              {r.product && <p className="text-muted">{r.product.name}</p>}
              <p className="text-muted">
                <CallbackWindowText request={r} />
              </p>
            </div>
            <Badge variant={VARIANT[r.status]}>{t(`calls.schedule.mine.status.${r.status}`)}</Badge>
            {r.status === 'open' && (
              <Button
                size="sm"
                variant="outline"
                loading={withdraw.isPending && withdraw.variables === r.id}
                onClick={() => withdraw.mutate(r.id)}
              >
                {t('calls.schedule.mine.withdraw')}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
