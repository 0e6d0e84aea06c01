import { useTranslation } from 'react-i18next';
import { CallHistory } from '../components/call-history';

/** /call-history: the customer's outgoing calls. */
export default function CallHistoryPage() {
  const { t } = useTranslation();
  return <CallHistory title={t('calls.history.title')} />;
}
