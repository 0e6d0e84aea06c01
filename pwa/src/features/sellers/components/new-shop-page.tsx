import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries } from '../api';
import { ErrorCard, SellerPageSkeleton } from './page-states';

/**
 * The frame of the pages that create a shop (/seller/profile/setup, /seller/register): title and subtitle,
 * then the form once the seller's profile is known to be missing. One profile per seller: someone who already
 * has a shop manages it from the dashboard.
 */
export function NewShopPage({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const profile = useQuery(sellerQueries.profile());
  useDocumentTitle(title);

  let body;
  if (profile.isPending) body = <SellerPageSkeleton label={t('common.loading')} />;
  else if (profile.isError)
    body = (
      <ErrorCard
        title={t('seller.dashboard.failedToLoadProfile')}
        message={translateMessage(errorMessage(profile.error))}
        onRetry={() => void profile.refetch()}
      />
    );
  else if (profile.data) return <Navigate to="/seller/dashboard" replace />;
  else body = children;

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold text-brand-800">{title}</h1>
        <p className="text-muted">{subtitle}</p>
      </div>
      {body}
    </div>
  );
}
