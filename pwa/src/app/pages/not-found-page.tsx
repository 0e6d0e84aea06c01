import { Compass } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Any path without a page (docs/product-rules.md §2: 'Not Found' with a link home). */
export default function NotFoundPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('errors.notFound.title'));
  return (
    <EmptyState
      headingLevel={1}
      icon={<Compass className="h-8 w-8" />}
      title={t('errors.notFound.title')}
      description={<p>{t('errors.notFound.description')}</p>}
      action={
        <Link to="/" className={buttonClasses('primary')}>
          {t('errors.notFound.home')}
        </Link>
      }
    />
  );
}
