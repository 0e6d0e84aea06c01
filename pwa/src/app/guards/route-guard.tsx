import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import type { UserRole } from '../../../../api/contract/constants';
import { sessionQuery } from '../../features/accounts/api';
import { placeFor, unauthenticatedTarget } from '../../features/accounts/utils/redirects';
import { AccessDenied } from './access-denied';
import { Authenticating } from './authenticating';
import { SessionError } from './session-error';

/**
 * Who may open a route:
 * - 'public': everyone (the default);
 * - 'guest': visitors only — signed-in users are sent on to their place (login pages);
 * - 'signed-in': any role;
 * - a list of roles: those roles only, others see Access Denied.
 */
export type RouteAccess = 'public' | 'guest' | 'signed-in' | readonly UserRole[];

export function RouteGuard({ access, children }: { access: RouteAccess; children: ReactNode }) {
  if (access === 'public') return <>{children}</>;
  if (access === 'guest') return <GuestOnly>{children}</GuestOnly>;
  return <RequireAuth roles={access === 'signed-in' ? undefined : access}>{children}</RequireAuth>;
}

function RequireAuth({ roles, children }: { roles?: readonly UserRole[]; children: ReactNode }) {
  const session = useQuery(sessionQuery());
  const location = useLocation();
  if (session.isPending) return <Authenticating />;
  if (session.isError) return <SessionError onRetry={() => void session.refetch()} />;
  const user = session.data;
  if (!user) {
    return (
      <Navigate to={unauthenticatedTarget(location.pathname + location.search + location.hash)} replace />
    );
  }
  if (roles && !roles.includes(user.role)) return <AccessDenied role={user.role} />;
  return <>{children}</>;
}

/**
 * Login pages. A user who arrives already signed in goes on to the redirect or their role's home. One who
 * signs in on the page stays until the page itself navigates (after the product rules' 200 ms delay, to its target).
 */
function GuestOnly({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery());
  const [searchParams] = useSearchParams();
  const [arrivedAs, setArrivedAs] = useState<UserRole | 'visitor' | null>(null);
  if (arrivedAs === null && !session.isPending) {
    setArrivedAs(session.data?.role ?? 'visitor');
  }
  if (session.isPending || arrivedAs === null) return <Authenticating />;
  if (arrivedAs !== 'visitor' && session.data) {
    return <Navigate to={placeFor(session.data.role, searchParams.get('redirect'))} replace />;
  }
  return <>{children}</>;
}
