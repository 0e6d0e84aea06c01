import type { UseQueryResult } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { AdminCustomer } from '../../../../../api/contract/admin';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { ErrorCard } from './error-card';

/** The customers list: name, email and when they joined. */
export function CustomersList({ customers }: { customers: UseQueryResult<AdminCustomer[]> }) {
  const { t, i18n } = useTranslation();
  if (customers.isPending)
    return (
      <div role="status" aria-label={t('common.loading')} className="space-y-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    );
  if (customers.isError)
    return (
      <ErrorCard
        message={translateMessage(errorMessage(customers.error))}
        onRetry={() => void customers.refetch()}
      />
    );
  if (customers.data.length === 0)
    return (
      <Card>
        <EmptyState
          icon={<Users className="h-8 w-8" />}
          title={t('admin.customers.empty')}
          headingLevel={3}
        />
      </Card>
    );
  const dateFormat = new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
    dateStyle: 'medium',
  });
  return (
    <Card className="overflow-hidden">
      <ul className="divide-y divide-stone-200">
        {customers.data.map((c) => (
          <li
            key={c.id}
            className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0">
              <p className="font-medium break-words text-ink">{c.displayName}</p>
              <p className="text-sm break-all text-muted">{c.email}</p>
            </div>
            <p className="shrink-0 text-sm text-muted">
              {t('admin.customers.joined', { date: dateFormat.format(new Date(c.createdAt)) })}
            </p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
