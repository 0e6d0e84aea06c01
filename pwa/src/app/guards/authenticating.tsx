import { useTranslation } from 'react-i18next';
import { Skeleton } from '../../components/ui/skeleton';

/** The skeleton shown while the session loads (docs/product-rules.md §2: labelled 'Authenticating'). */
export function Authenticating() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-label={t('auth.authenticating')}
      aria-busy="true"
      className="mx-auto w-full max-w-5xl space-y-4 px-4 py-8"
    >
      <span className="sr-only">{t('auth.authenticating')}</span>
      <Skeleton className="h-8 w-1/3" />
      <Skeleton className="h-4 w-2/3" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Skeleton className="h-32" />
        <Skeleton className="h-32" />
        <Skeleton className="h-32" />
      </div>
    </div>
  );
}
