import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import { sessionQuery } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { CallSummary } from '../components/call-summary';

/** /call-history/:callId and /seller/history/:callId: one call's summary, for either participant. */
export default function CallDetailPage() {
  const { t } = useTranslation();
  const { callId } = useParams();
  const { pathname } = useLocation();
  const session = useQuery(sessionQuery());
  const id = Number(callId);
  const back = pathname.startsWith('/seller/') ? '/seller/history' : '/call-history';
  useDocumentTitle(t('calls.summary.pageTitle'));
  return (
    <div className="mx-auto max-w-2xl px-4 py-6">
      <Link to={back} className="mb-4 inline-flex items-center gap-1 text-brand-700 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {t('calls.history.title')}
      </Link>
      <h1 className="mb-4 text-2xl font-bold text-ink">{t('calls.summary.pageTitle')}</h1>
      {Number.isInteger(id) && id > 0 && session.data ? (
        <CallSummary callId={id} userId={session.data.id} />
      ) : (
        <p role="alert">{t('calls.summary.notFound')}</p>
      )}
    </div>
  );
}
