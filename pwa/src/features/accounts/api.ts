import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  LoginInput,
  PasswordChangeInput,
  ProfileUpdateInput,
  RegisterInput,
  User,
} from '../../../../api/contract/accounts';
import type {
  MobileCodeCheck,
  MobileCodeRequest,
  MobileSignUpInput,
  NoticeSettings,
  NoticeSettingsInput,
  PasswordResetInput,
  ReauthCodeRequest,
} from '../../../../api/contract/mobile';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';
import { clearPersistedQueries } from '../../lib/query-persist';
import { sessionQuery } from '../../lib/session';
import { beginLogout, endLogout } from './utils/redirects';

/** Query factories of the accounts area (TkDodo): keys live beside their fetchers. */
export const accountQueries = {
  all: () => ['accounts'] as const,
  /** The signed-in user, or null for a visitor (lib/session.ts). */
  session: sessionQuery,
};

export { sessionQuery };

function setSessionUser(queryClient: QueryClient, user: User | null) {
  queryClient.setQueryData(accountQueries.session().queryKey, { user });
}

/** Everything cached belongs to the previous user: drop it all except the session itself. */
function clearUserData(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'accounts' });
}

/** Signs in with email and password; the session query holds the user afterwards. */
export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => api.call(API_ROUTES.login, input),
    onSuccess: ({ user }) => {
      clearUserData(queryClient);
      setSessionUser(queryClient, user);
    },
  });
}

/** Creates an account and signs it in (role customer by default, seller from the seller page). */
export function useRegisterMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) => api.call(API_ROUTES.register, input),
    onSuccess: ({ user }) => {
      clearUserData(queryClient);
      setSessionUser(queryClient, user);
    },
  });
}

/** Clears the session locally first (docs/product-rules.md §4), then tells the server; works offline for the local part. */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { offlineAllowed: true },
    mutationFn: async () => {
      beginLogout();
      setSessionUser(queryClient, null);
      clearUserData(queryClient);
      // Nothing browsed before logging out survives it: persisted catalogue and the worker's copy.
      await clearPersistedQueries();
      return api.call(API_ROUTES.logout, undefined);
    },
    onSettled: () => endLogout(),
  });
}

/** Sends only the changed profile fields; the session user is replaced with the server's answer. */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => api.call(API_ROUTES.profileUpdate, input),
    onSuccess: ({ user }) => setSessionUser(queryClient, user),
  });
}

/** Changes the password; the server may rotate the session, so the session is checked again afterwards. */
export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) => api.call(API_ROUTES.passwordChange, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueries.session().queryKey }),
  });
}

/** Whether the server offers mobile sign-in (never in production without Twilio). */
export const mobileAvailabilityQuery = () => ({
  queryKey: ['accounts', 'mobile'] as const,
  queryFn: () => api.call(API_ROUTES.mobileAvailability, undefined),
  staleTime: 5 * 60_000,
});

/** Sends a sign-in code, or (mode reset) a code for the forgotten password. */
export function useSendCodeMutation(mode: 'sign-in' | 'reset') {
  return useMutation({
    mutationFn: (input: MobileCodeRequest) =>
      api.call(mode === 'reset' ? API_ROUTES.passwordResetCode : API_ROUTES.mobileCodeSend, input),
  });
}

/** Checks a sign-in code: signed in (the session query holds the user), or a ticket for the name step. */
export function useVerifyCodeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MobileCodeCheck) => api.call(API_ROUTES.mobileCodeVerify, input),
    onSuccess: (result) => {
      if (result.next !== 'signed-in') return;
      clearUserData(queryClient);
      setSessionUser(queryClient, result.user);
    },
  });
}

/** The display-name step of a new number: creates the customer account and signs it in. */
export function useMobileSignUpMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MobileSignUpInput) => api.call(API_ROUTES.mobileSignUp, input),
    onSuccess: ({ user }) => {
      clearUserData(queryClient);
      setSessionUser(queryClient, user);
    },
  });
}

/** Sets a new password with a code to the verified mobile; every other session ends, this one is signed in. */
export function usePasswordResetMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordResetInput) => api.call(API_ROUTES.passwordReset, input),
    onSuccess: ({ user }) => {
      clearUserData(queryClient);
      setSessionUser(queryClient, user);
    },
  });
}

/** The signed-in account's verified mobile and notice settings (switch, channel, language, consent wording). */
export const noticeSettingsQuery = () => ({
  queryKey: ['notices', 'settings'] as const,
  queryFn: () => api.call(API_ROUTES.noticeSettings, undefined),
});

/** Sends a code to a number the signed-in account adds or changes to. */
export function useProfileMobileCodeMutation() {
  return useMutation({
    mutationFn: (input: MobileCodeRequest) => api.call(API_ROUTES.profileMobileCode, input),
  });
}

/** Checks the code: the number becomes the account's verified mobile. */
export function useProfileMobileVerifyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MobileCodeCheck) => api.call(API_ROUTES.profileMobileVerify, input),
    onSuccess: (settings: NoticeSettings) =>
      queryClient.setQueryData(noticeSettingsQuery().queryKey, settings),
  });
}

/** Turns notices on or off, or changes their channel or language; each change is stored as a consent. */
export function useNoticeSettingsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NoticeSettingsInput) => api.call(API_ROUTES.noticeSettingsSet, input),
    onSuccess: (settings: NoticeSettings) =>
      queryClient.setQueryData(noticeSettingsQuery().queryKey, settings),
  });
}

/** A code to the account's own number: the proof an account without a password gives for a change (issue #46). */
export function useReauthCodeMutation() {
  return useMutation({
    mutationFn: (input: ReauthCodeRequest) => api.call(API_ROUTES.profileReauthCode, input),
  });
}
