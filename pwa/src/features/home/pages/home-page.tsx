import { useQuery } from '@tanstack/react-query';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../../components/ui/spinner';
import { sessionQuery } from '../../../lib/session';
import Landing from '../components/landing';

// Signed-in users get the tabbed home; its code (tabs, grids) stays out of the visitors' landing load.
const SignedInHome = lazy(() => import('../components/signed-in-home'));

/** `/`: the landing for visitors, the tabbed home for signed-in users (docs/product-rules.md §2). */
export default function HomePage() {
  const { t } = useTranslation();
  const session = useQuery(sessionQuery());
  if (session.isPending) return <PageSpinner label={t('common.loading')} />;
  const user = session.data ?? null;
  return user ? <SignedInHome user={user} /> : <Landing />;
}
