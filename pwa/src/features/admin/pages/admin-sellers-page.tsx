import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { adminQueries } from '../api';
import { SellersList } from '../components/sellers-list';

/** /admin/sellers: every shop with its approval state and the approve / disapprove actions. */
export default function AdminSellersPage() {
  const { t } = useTranslation();
  const sellers = useQuery(adminQueries.sellers());
  useDocumentTitle(t('admin.sellers.title'));
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold text-brand-800">{t('admin.sellers.title')}</h1>
        <p className="text-muted">
          {sellers.data
            ? t('admin.sellers.subtitle', { count: sellers.data.length })
            : t('admin.sellers.intro')}
        </p>
      </div>
      <SellersList sellers={sellers} />
    </div>
  );
}
