import { useTranslation } from 'react-i18next';
import { CallHistory } from '../components/call-history';

/** /seller/history: the seller's calls. */
export default function SellerCallHistoryPage() {
  const { t } = useTranslation();
  return <CallHistory title={t('calls.history.sellerTitle')} />;
}
