import type { UserRole } from '../../../../../api/contract/constants';

/** Where each role lands after signing in when nothing else was asked for (spec §2). */
export const HOME_BY_ROLE: Record<UserRole, string> = {
  customer: '/marketplace',
  seller: '/seller/dashboard',
  admin: '/admin/dashboard',
};

/** A `?redirect=` value, accepted only when it is a path on this site (never `//host` or a full URL). */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/** The place a signed-in user belongs: the requested redirect, else their role's home. */
export function placeFor(role: UserRole, redirect?: string | null): string {
  return safeRedirect(redirect) ?? HOME_BY_ROLE[role];
}

/** The login URL that brings the visitor back to `path` afterwards. */
export function loginUrl(path: string, base = '/login'): string {
  return path && path !== '/' ? `${base}?redirect=${encodeURIComponent(path)}` : base;
}
