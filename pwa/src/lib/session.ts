import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { SessionResponse, User } from '../../../api/contract/accounts';
import { API_ROUTES } from '../../../api/contract/routes';
import type { SellerProfile } from '../../../api/contract/sellers';
import { ApiError, api } from './api-client';

/** The key of the session query; the accounts area keeps it up to date on login, logout and profile edits. */
export const SESSION_KEY = ['accounts', 'session'] as const;

/** localStorage key of the person signed in on this device (docs/product-rules.md §20.6). */
export const KEPT_SESSION_KEY = 'nagai.signedIn';

/** Set when the session was answered from the device (offline): asked again once the browser is online. */
let answeredOffline = false;

/** Who the server last said is signed in on this device; null (forgotten) for a visitor or after logout. */
export function keepSessionUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(KEPT_SESSION_KEY, JSON.stringify(user));
    else localStorage.removeItem(KEPT_SESSION_KEY);
  } catch {
    /* storage disabled (or the server's render): nothing kept */
  }
}

/** The person kept on this device, or null. */
export function keptSessionUser(): User | null {
  try {
    const text = localStorage.getItem(KEPT_SESSION_KEY);
    const user = text ? (JSON.parse(text) as User) : null;
    return user && typeof user.id === 'number' && typeof user.role === 'string' ? user : null;
  } catch {
    return null;
  }
}

/**
 * Asks the server who is signed in. When the network fails before an answer (offline), the person the server
 * last named on this device stays signed in (the header, the call buttons), so an offline reload does not show
 * "Login"; the server is asked again as soon as the browser is online, and its answer wins. The cookie remains
 * the only proof: every request is still checked by the server.
 */
async function fetchSession(signal: AbortSignal): Promise<SessionResponse> {
  try {
    const answer = await api.call(API_ROUTES.session, undefined, { signal });
    answeredOffline = false;
    return answer;
  } catch (err) {
    const kept = err instanceof ApiError && err.status === 0 ? keptSessionUser() : null;
    if (!kept) throw err;
    answeredOffline = true;
    return { user: kept };
  }
}

/**
 * Keeps the device's copy in step with the session query (login, logout, profile edits, every answer of the
 * server) and asks the server again when the browser comes back online after an answer from the device.
 */
export function followSession(client: QueryClient): void {
  if (typeof window === 'undefined') return;
  let last: string | undefined;
  client.getQueryCache().subscribe((event) => {
    // A fetched answer, one set by login or logout, or one the server's page handed over (hydrated).
    if (event.type !== 'updated' && event.type !== 'added') return;
    const { queryKey, state } = event.query;
    if (queryKey[0] !== SESSION_KEY[0] || queryKey[1] !== SESSION_KEY[1] || state.status !== 'success')
      return;
    const user = (state.data as SessionResponse | undefined)?.user ?? null;
    const text = JSON.stringify(user);
    if (text === last) return;
    last = text;
    keepSessionUser(user);
  });
  window.addEventListener('online', () => {
    if (answeredOffline) void client.invalidateQueries({ queryKey: SESSION_KEY });
  });
}

/**
 * The signed-in user, or null for a visitor: the one way any area reads who is signed in
 * (`useQuery(sessionQuery())`). Kept indefinitely.
 */
export const sessionQuery = () =>
  queryOptions({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => fetchSession(signal),
    select: (data) => data.user,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 1,
    meta: { silentErrors: true },
  });

/**
 * The signed-in seller's or admin's own shop, or null when they have none: 'Seller profile not found.' means
 * "no shop", not an error (docs/product-rules.md §6). For the query functions of the areas that show it.
 */
export async function fetchOwnShop(signal?: AbortSignal): Promise<SellerProfile | null> {
  try {
    return (await api.call(API_ROUTES.sellerProfile, undefined, { signal })).profile;
  } catch (err) {
    // The server answers 'Seller profile not found.' with 404 (code seller_profile_not_found). No runtime import
    // of the sellers contract here: this module is in the first load, and that one carries zod.
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
