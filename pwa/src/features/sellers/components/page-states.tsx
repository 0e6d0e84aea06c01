import { useQuery } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries } from '../api';

/** Three skeleton blocks while a seller page loads (docs/product-rules.md §9: 3 skeletons outside product grids). */
export function SellerPageSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-4">
      <Skeleton className="h-10 w-64" />
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-28 w-full" />
      ))}
    </div>
  );
}

/** A load failure with the message and a retry button. */
export function ErrorCard({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card role="alert" className="border-red-200 bg-red-50">
      <CardContent className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <CircleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-red-800" />
          <div>
            <p className="font-semibold text-red-900">{title}</p>
            <p className="text-sm text-red-900">{message}</p>
          </div>
        </div>
        {onRetry && (
          <Button variant="outline" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * The seller's own profile for a page that needs it (`title` becomes the document title), and what the page shows
 * while it is not there: the skeleton while it loads, the error card when it failed; `pending` is null once the
 * profile query has an answer (which may be "no shop": null).
 */
export function useOwnProfile(title: string) {
  const { t } = useTranslation();
  const profile = useQuery(sellerQueries.profile());
  useDocumentTitle(title);
  let pending: ReactNode = null;
  if (profile.isPending) pending = <SellerPageSkeleton label={t('common.loading')} />;
  else if (profile.isError)
    pending = (
      <ErrorCard
        title={t('seller.dashboard.failedToLoadProfile')}
        message={translateMessage(errorMessage(profile.error))}
        onRetry={() => void profile.refetch()}
      />
    );
  return { profile, pending };
}
