import { useQuery } from '@tanstack/react-query';
import { Store, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { adminQueries } from '../api';
import { CallQualityCard } from '../components/call-quality-card';
import { CustomersList } from '../components/customers-list';
import { PayoutsSection } from '../components/payouts-section';
import { SellersList } from '../components/sellers-list';

/** /admin/dashboard: counts, the sellers (with approve and disapprove) and the customers. */
export default function AdminDashboardPage() {
  const { t } = useTranslation();
  const sellers = useQuery(adminQueries.sellers());
  const customers = useQuery(adminQueries.customers());
  useDocumentTitle(t('admin.dashboard.title'));
  const pending = sellers.data?.filter((s) => s.sellerProfile && s.sellerProfile.isApproved === null).length;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-8 px-4 py-8">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold text-brand-800">{t('admin.dashboard.title')}</h1>
        <p className="text-muted">{t('admin.dashboard.subtitle')}</p>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Count
          icon={<Store className="h-6 w-6" />}
          label={t('admin.dashboard.sellersCount')}
          value={sellers.data?.length}
          note={pending ? t('admin.dashboard.pendingCount', { count: pending }) : undefined}
          failed={sellers.isError}
        />
        <Count
          icon={<Users className="h-6 w-6" />}
          label={t('admin.dashboard.customersCount')}
          value={customers.data?.length}
          failed={customers.isError}
        />
      </div>
      <CallQualityCard />
      <PayoutsSection />
      <section aria-labelledby="admin-sellers-title" className="space-y-4">
        <h2 id="admin-sellers-title" className="text-2xl font-semibold text-ink">
          {t('admin.sellers.title')}
        </h2>
        <SellersList sellers={sellers} />
      </section>
      <section aria-labelledby="admin-customers-title" className="space-y-4">
        <h2 id="admin-customers-title" className="text-2xl font-semibold text-ink">
          {t('admin.customers.title')}
        </h2>
        <CustomersList customers={customers} />
      </section>
    </div>
  );
}

function Count({
  icon,
  label,
  value,
  note,
  failed,
}: {
  icon: ReactNode;
  label: string;
  value: number | undefined;
  note?: string;
  failed: boolean;
}) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span aria-hidden="true" className="rounded-full bg-brand-50 p-3 text-brand-700">
        {icon}
      </span>
      <div>
        <p className="text-sm font-medium text-muted">{label}</p>
        {value !== undefined ? (
          <p className="text-3xl font-bold text-ink">{value}</p>
        ) : failed ? (
          <p className="text-3xl font-bold text-ink">—</p>
        ) : (
          <Skeleton className="mt-1 h-9 w-16" />
        )}
        {note && <p className="text-sm text-amber-900">{note}</p>}
      </div>
    </Card>
  );
}
