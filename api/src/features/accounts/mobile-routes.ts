import {
  MobileCodeCheckSchema,
  MobileCodeRequestSchema,
  MobileSignUpSchema,
  PasswordResetSchema,
  ProfileMobileCodeSchema,
  ReauthCodeRequestSchema,
} from '../../../contract/mobile';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { presentUser } from './presenter';
import {
  resetPassword,
  sendAddMobileCode,
  sendResetCode,
  sendSignInCode,
  signUpWithMobile,
  verifyAddMobile,
  verifySignIn,
} from './mobile';
import { noticeSettingsOf } from '../notices/service';
import { sendReauthCode } from './proof';

/** Mobile sign-in and sign-up, adding a number in the profile, and the password reset by code (issue #37). */
export const mobileFeature: Feature = (router) => {
  endpoint(router, R.mobileAvailability, {
    handle: (deps) => ({
      available: !!deps.sms,
      channels: deps.sms ? (['sms', 'whatsapp'] as const).slice() : [],
    }),
  });

  endpoint(router, R.mobileCodeSend, {
    input: MobileCodeRequestSchema,
    handle: (deps, _user, input, exchange) => sendSignInCode(deps, exchange, input),
  });

  endpoint(router, R.mobileCodeVerify, {
    input: MobileCodeCheckSchema,
    handle: async (deps, _user, input, exchange) => {
      const result = await verifySignIn(deps, exchange, input);
      return result.next === 'name'
        ? result
        : { next: 'signed-in' as const, user: presentUser(result.loaded.user, result.loaded.shop) };
    },
  });

  endpoint(router, R.mobileSignUp, {
    input: MobileSignUpSchema,
    handle: async (deps, _user, input, exchange) => {
      const loaded = await signUpWithMobile(deps, exchange, input);
      return { user: presentUser(loaded.user, loaded.shop) };
    },
  });

  endpoint(router, R.passwordResetCode, {
    input: MobileCodeRequestSchema,
    handle: (deps, _user, input, exchange) => sendResetCode(deps, exchange, input),
  });

  endpoint(router, R.passwordReset, {
    input: PasswordResetSchema,
    handle: async (deps, _user, input, exchange) => {
      const loaded = await resetPassword(deps, exchange, input);
      // Every other session was revoked: their event streams close wherever they are open.
      await deps.events.userSessionsRevoked(loaded.user.id);
      return { user: presentUser(loaded.user, loaded.shop) };
    },
  });

  endpoint(router, R.profileMobileCode, {
    input: ProfileMobileCodeSchema,
    handle: (deps, user, input, exchange) => sendAddMobileCode(deps, exchange, user, input),
  });

  endpoint(router, R.profileMobileVerify, {
    input: MobileCodeCheckSchema,
    handle: async (deps, user, input, exchange) => {
      await verifyAddMobile(deps, exchange, user, input);
      // Every other session was revoked (this tab got a new one): their event streams close.
      await deps.events.userSessionsRevoked(user.id);
      return noticeSettingsOf(deps, user.id);
    },
  });

  endpoint(router, R.profileReauthCode, {
    input: ReauthCodeRequestSchema,
    handle: (deps, user, input, exchange) => sendReauthCode(deps, exchange, user, input),
  });
};
