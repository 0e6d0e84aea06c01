import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { accountQueries } from '../api';

// The notice's own module loads only for an owner with failed sign-ins to hear of: not in a visitor's first load.
const LoginNoticeBody = lazy(() => import('./login-notice'));

/** Globals entry: the failed sign-ins notice (login-notice.tsx), mounted only when the session carries one. */
export function LoginNotice() {
  const { data: user } = useQuery(accountQueries.session());
  if (!user?.failedLogins) return null;
  return (
    <Suspense fallback={null}>
      <LoginNoticeBody />
    </Suspense>
  );
}
