import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  LoginInput,
  PasswordChangeInput,
  ProfileUpdateInput,
  RegisterInput,
  User,
} from '../../../../api/contract/accounts';
import { api } from '../../lib/api-client';
import { clearPersistedQueries } from '../../lib/query-persist';
import { beginLogout, endLogout } from './utils/redirects';

interface UserResponse {
  user: User;
}
interface SessionResponse {
  user: User | null;
}

/** Query factories of the accounts area (TkDodo): keys live beside their fetchers. */
export const accountQueries = {
  all: () => ['accounts'] as const,
  /** The signed-in user, or null for a visitor. Kept indefinitely; login, logout and profile edits update it. */
  session: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'session'] as const,
      queryFn: ({ signal }) => api.get<SessionResponse>('/_api/auth/session', undefined, { signal }),
      select: (data) => data.user,
      staleTime: Infinity,
      gcTime: Infinity,
      retry: 1,
      meta: { silentErrors: true },
    }),
};

/** Shorthand for `useQuery(sessionQuery())`. */
export const sessionQuery = accountQueries.session;

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
    mutationFn: (input: LoginInput) => api.post<UserResponse>('/_api/auth/login_with_password', input),
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
    mutationFn: (input: RegisterInput) => api.post<UserResponse>('/_api/auth/register_with_password', input),
    onSuccess: ({ user }) => {
      clearUserData(queryClient);
      setSessionUser(queryClient, user);
    },
  });
}

/** Clears the session locally first (spec §4), then tells the server; works offline for the local part. */
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
      return api.post<{ success: boolean }>('/_api/auth/logout', {});
    },
    onSettled: () => endLogout(),
  });
}

/** Sends only the changed profile fields; the session user is replaced with the server's answer. */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => api.post<UserResponse>('/_api/user/profile/update', input),
    onSuccess: ({ user }) => setSessionUser(queryClient, user),
  });
}

/** Changes the password; the server may rotate the session, so the session is checked again afterwards. */
export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      api.post<{ success: boolean }>('/_api/user/password/change', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueries.session().queryKey }),
  });
}
