import type { UseQueryResult } from '@tanstack/react-query';
import { Check, Mail, MapPin, Phone, Store, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { AdminSeller } from '../../../../../api/contract/admin';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useSellerApprovalMutation } from '../api';
import { ErrorCard } from './error-card';

type ApprovalState = 'pending' | 'approved' | 'disapproved';

function approvalState(isApproved: boolean | null): ApprovalState {
  return isApproved === null ? 'pending' : isApproved ? 'approved' : 'disapproved';
}

const BADGE: Record<ApprovalState, BadgeVariant> = {
  pending: 'warning',
  approved: 'success',
  disapproved: 'destructive',
};

function formatDate(iso: string, language: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleDateString(language === 'ta' ? 'ta-IN' : 'en-IN', { dateStyle: 'medium' });
}

/** The sellers list with profile details, approval badges and the Approve / Disapprove actions. */
export function SellersList({ sellers }: { sellers: UseQueryResult<AdminSeller[]> }) {
  const { t } = useTranslation();
  if (sellers.isPending)
    return (
      <div role="status" aria-label={t('common.loading')} className="space-y-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-32 w-full" />
        ))}
      </div>
    );
  if (sellers.isError)
    return (
      <ErrorCard
        message={translateMessage(errorMessage(sellers.error))}
        onRetry={() => void sellers.refetch()}
      />
    );
  if (sellers.data.length === 0)
    return (
      <Card>
        <EmptyState icon={<Store className="h-8 w-8" />} title={t('admin.sellers.empty')} headingLevel={3} />
      </Card>
    );
  return (
    <ul className="space-y-3">
      {sellers.data.map((s) => (
        <li key={s.id}>
          <SellerRow seller={s} />
        </li>
      ))}
    </ul>
  );
}

function SellerRow({ seller }: { seller: AdminSeller }) {
  const { t, i18n } = useTranslation();
  const approval = useSellerApprovalMutation();
  const profile = seller.sellerProfile;
  const state = profile ? approvalState(profile.isApproved) : null;
  const titleId = `admin-seller-${seller.id}`;

  const decide = (isApproved: boolean) =>
    approval.mutate(
      { sellerUserId: seller.id, isApproved },
      {
        onSuccess: ({ message }) => toast.success(translateMessage(message)),
        onError: (err) => toast.error(translateMessage(errorMessage(err))),
      },
    );
  const busy = approval.isPending ? approval.variables?.isApproved : undefined;

  return (
    <Card aria-labelledby={titleId} role="article" className="p-4 sm:p-5">
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="text-lg font-semibold break-words text-ink">
              {profile?.shopName ?? seller.displayName}
            </h3>
            {state ? (
              <Badge variant={BADGE[state]}>{t(`admin.approval.${state}`)}</Badge>
            ) : (
              <Badge variant="outline">{t('admin.sellers.noProfile')}</Badge>
            )}
            {seller.role === 'admin' && <Badge variant="secondary">{t('header.roles.admin')}</Badge>}
          </div>
          <p className="text-sm text-ink">
            {seller.displayName} · {t('admin.sellers.userId', { id: seller.id })}
          </p>
          <ul className="space-y-1 text-sm text-muted">
            <li className="flex items-center gap-2 break-all">
              <Mail aria-hidden="true" className="h-4 w-4 shrink-0" />
              {seller.email}
            </li>
            {profile && (
              <>
                <li className="flex items-center gap-2">
                  <Phone aria-hidden="true" className="h-4 w-4 shrink-0" />
                  {profile.phone}
                  {profile.whatsappNumber &&
                    ` · ${t('admin.sellers.whatsapp', { number: profile.whatsappNumber })}`}
                </li>
                <li className="flex items-start gap-2">
                  <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
                  <span>
                    {profile.shopAddress}, {profile.city}, {profile.state} {profile.pincode}
                  </span>
                </li>
              </>
            )}
          </ul>
          {profile && (
            <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
              {profile.gstNumber && (
                <div className="flex gap-1">
                  <dt className="font-medium text-ink">{t('admin.sellers.gst')}:</dt>
                  <dd className="text-muted">{profile.gstNumber}</dd>
                </div>
              )}
              {profile.businessLicense && (
                <div className="flex gap-1">
                  <dt className="font-medium text-ink">{t('admin.sellers.license')}:</dt>
                  <dd className="text-muted">{profile.businessLicense}</dd>
                </div>
              )}
              {profile.urlSlug && (
                <div className="flex gap-1">
                  <dt className="font-medium text-ink">{t('admin.sellers.storeUrl')}:</dt>
                  <dd className="break-all text-muted">/{profile.urlSlug}</dd>
                </div>
              )}
              <div className="flex gap-1">
                <dt className="font-medium text-ink">{t('admin.sellers.registered')}:</dt>
                <dd className="text-muted">{formatDate(profile.createdAt, i18n.language)}</dd>
              </div>
            </dl>
          )}
          {profile?.description && <p className="text-sm text-muted">{profile.description}</p>}
        </div>
        {profile && (
          <div className="flex shrink-0 flex-wrap gap-2">
            {/* docs/product-rules.md §4: approve anything not approved, disapprove anything not disapproved. */}
            {profile.isApproved !== true && (
              <Button
                size="sm"
                loading={busy === true}
                disabled={approval.isPending}
                onClick={() => decide(true)}
                aria-label={t('admin.sellers.approveNamed', { name: profile.shopName })}
              >
                <Check aria-hidden="true" className="h-4 w-4" />
                {t('admin.sellers.approve')}
              </Button>
            )}
            {profile.isApproved !== false && (
              <Button
                size="sm"
                variant="destructive"
                loading={busy === false}
                disabled={approval.isPending}
                onClick={() => decide(false)}
                aria-label={t('admin.sellers.disapproveNamed', { name: profile.shopName })}
              >
                <X aria-hidden="true" className="h-4 w-4" />
                {t('admin.sellers.disapprove')}
              </Button>
            )}
          </div>
        )}
      </div>
    </Card>
  );
}
