import { useTranslation } from 'react-i18next';
import { CallHistory } from '../components/call-history';
import { MyCallbacks } from '../components/my-callbacks';
import { MyAppointments } from '../components/my-appointments';

/** /call-history: the customer's calls, and above them their call-back requests (issue #22). */
export default function CallHistoryPage() {
  const { t } = useTranslation();
  return (
    <>
      <div className="mx-auto w-full max-w-4xl px-4 pt-8">
        <MyAppointments />
        <MyCallbacks />
      </div>
      <CallHistory title={t('calls.history.title')} />
    </>
  );
}
