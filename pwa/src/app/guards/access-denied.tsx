import { ShieldX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';

/** Shown to a signed-in user whose role may not open the page. */
export function AccessDenied({ role }: { role: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      headingLevel={1}
      icon={<ShieldX className="h-8 w-8" />}
      title={t('auth.accessDenied.title')}
      description={<p>{t('auth.accessDenied.message', { role })}</p>}
      action={
        <Link to="/" className={buttonClasses('outline')}>
          {t('common.goHome')}
        </Link>
      }
    />
  );
}
