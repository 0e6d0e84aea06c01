import {
  ACCOUNT_MESSAGES as M,
  LoginSchema,
  PasswordChangeSchema,
  ProfileUpdateSchema,
  RegisterSchema,
  type SessionResponse,
  type SuccessResponse,
  type UserResponse,
} from '../../../contract/accounts';
import type { Feature } from '../../app';
import { unauthorized } from '../../http/errors';
import { endSession } from '../../http/session';
import { parseBody } from '../../http/validate';
import { presentUser } from './presenter';
import { changePassword, loginWithPassword, registerWithPassword, updateProfile, withShop } from './service';

/** Routes of the accounts area: session, login, registration, logout, profile and password. */
export const accountsFeature: Feature = (router) => {
  // A visitor is not an error here: the app asks on every start.
  router.get('/_api/auth/session', async (ctx) => {
    const user = ctx.state.user;
    const loaded = user ? await withShop(ctx.deps.db, user) : null;
    ctx.body = { user: loaded ? presentUser(loaded.user, loaded.shop) : null } satisfies SessionResponse;
  });

  router.post('/_api/auth/login_with_password', async (ctx) => {
    const input = parseBody(ctx, LoginSchema);
    const loaded = await loginWithPassword(ctx, input);
    ctx.body = { user: presentUser(loaded.user, loaded.shop) } satisfies UserResponse;
  });

  router.post('/_api/auth/register_with_password', async (ctx) => {
    const input = parseBody(ctx, RegisterSchema);
    const loaded = await registerWithPassword(ctx, input);
    ctx.status = 201;
    ctx.body = { user: presentUser(loaded.user, loaded.shop) } satisfies UserResponse;
  });

  router.post('/_api/auth/logout', async (ctx) => {
    await endSession(ctx, ctx.deps.db);
    ctx.body = { success: true } satisfies SuccessResponse;
  });

  router.post('/_api/user/profile/update', async (ctx) => {
    const user = ctx.state.user;
    if (!user) throw unauthorized(M.mustBeLoggedIn);
    const input = parseBody(ctx, ProfileUpdateSchema);
    const loaded = await updateProfile(ctx.deps.db, user.id, input, ctx.deps.clock.now());
    ctx.body = { user: presentUser(loaded.user, loaded.shop) } satisfies UserResponse;
  });

  router.post('/_api/user/password/change', async (ctx) => {
    const user = ctx.state.user;
    if (!user) throw unauthorized();
    const input = parseBody(ctx, PasswordChangeSchema);
    await changePassword(ctx, user, input);
    ctx.body = { success: true } satisfies SuccessResponse;
  });
};
