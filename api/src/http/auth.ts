import type { Next } from 'koa';
import type { UserRole } from '../../contract/constants';
import type { AppContext, SessionUser } from './context';
import { forbidden, unauthorized } from './errors';

/** The spec's access text for a signed-in user whose role is not admitted. */
export const accessDeniedMessage = (role: string) =>
  `Access denied. Your role (${role}) lacks required permissions.`;

/** Requires a signed-in user, optionally of one of the given roles. */
export function requireAuth(...roles: UserRole[]) {
  return async function auth(ctx: AppContext, next: Next) {
    const user = ctx.state.user;
    if (!user) throw unauthorized();
    if (roles.length && !roles.includes(user.role)) throw forbidden(accessDeniedMessage(user.role));
    return next();
  };
}

/** Like requireAuth, with a message of the route's own for the wrong role (the spec names some). */
export function requireRole(roles: UserRole[], message: (role: UserRole) => string) {
  return async function auth(ctx: AppContext, next: Next) {
    const user = ctx.state.user;
    if (!user) throw unauthorized();
    if (!roles.includes(user.role)) throw forbidden(message(user.role));
    return next();
  };
}

/** The signed-in user; only call after requireAuth. */
export function currentUser(ctx: AppContext): SessionUser {
  if (!ctx.state.user) throw unauthorized();
  return ctx.state.user;
}
