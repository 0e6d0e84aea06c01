import { CloudOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';

/** The session could not be checked (network or server down): say so and offer to try again. */
export function SessionError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      headingLevel={1}
      icon={<CloudOff className="h-8 w-8" />}
      title={t('messages.accounts.sessionCheckFailed')}
      description={<p>{t('errors.tryAgainLater')}</p>}
      action={
        <Button variant="outline" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
