import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, PhoneCall } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { CallHistoryEntry } from '../../../../../api/contract/calls';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { callQueries } from '../api';
import { capitalise, formatCallDuration, HISTORY_STATUS_KEYS } from '../lib/call-state';

const SKELETONS = 3;

function statusLabel(t: (k: string) => string, status: string): string {
  return (HISTORY_STATUS_KEYS as readonly string[]).includes(status)
    ? t(`calls.status.${status}`)
    : capitalise(status);
}

const badgeVariant: Record<string, 'success' | 'destructive' | 'warning' | 'outline'> = {
  ended: 'success',
  missed: 'warning',
  declined: 'destructive',
  pending: 'outline',
};

function Row({ entry, base }: { entry: CallHistoryEntry; base: string }) {
  const { t, i18n } = useTranslation();
  const created = new Date(entry.createdAt);
  // Talk time: from the answer to the end; a call never answered lasted 00:00.
  const duration = entry.answeredAt ? formatCallDuration(entry.answeredAt, entry.endedAt) : '00:00';
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4 sm:flex-row sm:items-center sm:gap-4">
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold text-ink">
          <Link
            to={`${base}/${entry.callId}`}
            className="hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {entry.isIncoming ? entry.participantName : entry.calleeName || entry.participantName}
          </Link>
        </p>
        {entry.product && (
          <p className="truncate text-sm text-muted" data-testid="history-product">
            {t('calls.selling.about', { name: entry.product.name })}
          </p>
        )}
        <p className="text-sm text-muted">
          <time dateTime={entry.createdAt}>
            {created.toLocaleString(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
              dateStyle: 'medium',
              timeStyle: 'short',
            })}
          </time>
        </p>
      </div>
      <div className="flex items-center gap-3">
        <Badge variant={badgeVariant[entry.status] ?? 'outline'}>{statusLabel(t, entry.status)}</Badge>
        <span className="text-sm text-muted">
          <span className="sr-only">{t('calls.history.duration')}: </span>
          <span className="font-mono text-ink tabular-nums" data-testid="call-duration">
            {duration}
          </span>
        </span>
      </div>
    </li>
  );
}

/** Call history (customers' /call-history, sellers' /seller/history): rows, 3 skeletons, empty and error. */
export function CallHistory({ title }: { title: string }) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  const history = useQuery(callQueries.history());
  const { pathname } = useLocation();
  const base = pathname.startsWith('/seller/') ? '/seller/history' : '/call-history';
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="mb-6 text-2xl font-bold text-ink">{title}</h1>
      {history.isPending ? (
        <div role="status" aria-label={t('common.loading')}>
          <ul className="space-y-3">
            {Array.from({ length: SKELETONS }, (_, i) => (
              <li key={i} className="rounded-xl border border-stone-200 bg-white p-4">
                <Skeleton className="mb-2 h-5 w-1/3" />
                <Skeleton className="h-4 w-1/4" />
              </li>
            ))}
          </ul>
        </div>
      ) : history.isError ? (
        <EmptyState
          icon={<AlertTriangle className="h-8 w-8" />}
          title={t('calls.history.errorTitle')}
          description={
            <p role="alert">
              {history.error
                ? translateMessage(errorMessage(history.error, t('calls.history.errorDefault')))
                : t('calls.history.errorDefault')}
            </p>
          }
          action={
            <Button variant="outline" onClick={() => void history.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : history.data.calls.length === 0 ? (
        <EmptyState
          icon={<PhoneCall className="h-8 w-8" />}
          title={t('calls.history.emptyTitle')}
          description={t('calls.history.emptyText')}
        />
      ) : (
        <ul className="space-y-3" aria-label={title}>
          {history.data.calls.map((c) => (
            <Row key={c.id} entry={c} base={base} />
          ))}
        </ul>
      )}
    </div>
  );
}
