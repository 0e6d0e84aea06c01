import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useOwnProfile } from './page-states';

/**
 * The frame of the pages that create a shop (/seller/profile/setup, /seller/register): title and subtitle,
 * then the form once the seller's profile is known to be missing. One profile per seller: someone who already
 * has a shop manages it from the dashboard.
 */
export function NewShopPage({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  const { profile, pending } = useOwnProfile(title);

  let body: ReactNode;
  if (pending) body = pending;
  else if (profile.data) return <Navigate to="/seller/dashboard" replace />;
  else body = children;

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold text-brand-800">{title}</h1>
        <p className="text-muted">{subtitle}</p>
      </div>
      {body}
    </div>
  );
}
