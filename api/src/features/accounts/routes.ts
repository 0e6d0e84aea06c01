import {
  ACCOUNT_MESSAGES as M,
  LoginSchema,
  PasswordChangeSchema,
  ProfileUpdateSchema,
  RegisterSchema,
} from '../../../contract/accounts';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { sweepRateLimits } from '../../http/rate-limit';
import { presentUser } from './presenter';
import {
  changePassword,
  dismissLoginNotice,
  loginWithPassword,
  registerWithPassword,
  updateProfile,
  withShop,
} from './service';

/** Routes of the accounts area: session, login, registration, logout, profile and password. */
export const accountsFeature: Feature = (router, { deps, background }) => {
  // Failed-login and other counters are kept per account and address: old ones are dropped.
  background.every('rate-limits:sweep', 10 * 60_000, async () => {
    await sweepRateLimits(deps.db, deps.clock.now());
  });

  // A visitor is not an error here: the app asks on every start.
  endpoint(router, R.session, {
    handle: async (deps, user) => {
      const loaded = user ? await withShop(deps.db, user) : null;
      return { user: loaded ? presentUser(loaded.user, loaded.shop) : null };
    },
  });

  endpoint(router, R.login, {
    input: LoginSchema,
    handle: async (deps, _user, input, exchange) => {
      const loaded = await loginWithPassword(deps, exchange, input);
      return { user: presentUser(loaded.user, loaded.shop) };
    },
  });

  endpoint(router, R.register, {
    input: RegisterSchema,
    handle: async (deps, _user, input, exchange) => {
      const loaded = await registerWithPassword(deps, exchange, input);
      return { user: presentUser(loaded.user, loaded.shop) };
    },
  });

  endpoint(router, R.logout, {
    handle: async (deps, _user, _input, exchange) => {
      const sessionId = exchange.sessionId;
      await exchange.endSession();
      // The session's event streams close too, in whichever process they are open.
      if (sessionId) await deps.events.sessionEnded(sessionId);
      return { success: true as const };
    },
  });

  endpoint(router, R.profileUpdate, {
    visitorMessage: M.mustBeLoggedIn,
    input: ProfileUpdateSchema,
    handle: async (deps, user, input, exchange) => {
      const { loaded, sessionsEnded } = await updateProfile(deps, exchange, user, input);
      // A new email ended every other session (this tab got a new one): their event streams close.
      if (sessionsEnded) await deps.events.userSessionsRevoked(user.id);
      return { user: presentUser(loaded.user, loaded.shop) };
    },
  });

  endpoint(router, R.loginNoticeDismiss, {
    handle: async (deps, user) => {
      await dismissLoginNotice(deps.db, user.id);
      return { success: true as const };
    },
  });

  endpoint(router, R.passwordChange, {
    input: PasswordChangeSchema,
    handle: async (deps, user, input, exchange) => {
      await changePassword(deps, exchange, user, input);
      // Every session was revoked (this tab got a new one): their event streams close; this tab's reconnects.
      await deps.events.userSessionsRevoked(user.id);
      return { success: true as const };
    },
  });
};
