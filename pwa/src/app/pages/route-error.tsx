import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';

/**
 * A page that crashed while rendering, or whose chunk failed to load (usually a new version was deployed
 * while this tab was open): offer a reload instead of a blank screen.
 */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main id="main" className="min-h-dvh">
      <EmptyState
        headingLevel={1}
        icon={<TriangleAlert className="h-8 w-8" />}
        title={t('errors.pageCrashed.title')}
        description={<p>{t('errors.pageCrashed.description')}</p>}
        action={<Button onClick={() => window.location.reload()}>{t('errors.pageCrashed.reload')}</Button>}
      />
    </main>
  );
}
