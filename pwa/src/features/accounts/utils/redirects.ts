import type { UserRole } from '../../../../../api/contract/constants';

/** Where each role lands after signing in when nothing else was asked for (docs/product-rules.md §2). */
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

let loggingOut = false;

/**
 * Marks a logout in progress. The session is cleared before the route changes (route changes render as a
 * transition, the session change at once), so a guarded page would otherwise send the user to /login.
 */
export function beginLogout(): void {
  loggingOut = true;
}

/** The logout has been carried out (or failed); guards send visitors to /login again. */
export function endLogout(): void {
  loggingOut = false;
}

/** Where a guard sends a visitor: home right after a logout, else the login page that brings them back. */
export function unauthenticatedTarget(path: string): string {
  return loggingOut ? '/' : loginUrl(path);
}
