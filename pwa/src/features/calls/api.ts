import { queryOptions } from '@tanstack/react-query';
import { CALL_MESSAGES, type CallEndReasonInput } from '../../../../api/contract/calls';
import { CALL_LIMITS } from '../../../../api/contract/constants';
import { ApiError, api, REQUEST_FAILED } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';

/**
 * The product rules' client defaults (docs/product-rules.md §7): the body's `error`, else the raw text, else a per-call default. The api
 * client already uses the body's `error`; where it had nothing readable, the call's own default is used.
 */
async function withDefault<T>(promise: Promise<T>, fallback: string): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof ApiError && err.message === REQUEST_FAILED) {
      throw new ApiError(fallback, err.status, err.code, err.issues);
    }
    throw err;
  }
}

export const callsApi = {
  /** Every request goes through its route descriptor (api/contract/routes.ts). */
  initiate: (sellerId: number, productId?: number) =>
    withDefault(
      api.call(API_ROUTES.callInitiate, productId ? { sellerId, productId } : { sellerId }),
      CALL_MESSAGES.initiateFailed,
    ),
  /** An accept may carry the p2p answer to the offer that arrived while the call rang. */
  respond: (callId: number, response: 'accept' | 'decline', answer?: Record<string, unknown> | null) =>
    withDefault(
      api.call(API_ROUTES.callRespond, answer ? { callId, response, answer } : { callId, response }),
      CALL_MESSAGES.respondFailed,
    ),
  end: (callId: number, reason?: CallEndReasonInput) =>
    withDefault(
      api.call(API_ROUTES.callEnd, reason ? { callId, reason } : { callId }),
      CALL_MESSAGES.endFailed,
    ),
  status: (callId: number, signal?: AbortSignal) =>
    withDefault(api.call(API_ROUTES.callStatus, { callId }, { signal }), CALL_MESSAGES.statusFailed),
  incoming: (signal?: AbortSignal) =>
    withDefault(api.call(API_ROUTES.callIncoming, undefined, { signal }), CALL_MESSAGES.incomingFailed),
  history: (signal?: AbortSignal) =>
    withDefault(api.call(API_ROUTES.callHistory, undefined, { signal }), CALL_MESSAGES.historyFailed),
};

/** Query factories of the calls area. */
export const callQueries = {
  all: () => ['calls'] as const,
  /**
   * Sellers' incoming calls: every 4 s, also in background tabs and on focus (docs/product-rules.md §7). For a
   * customer with an open call-back request (`callBacks`), the jeweller's call-backs ringing them (issue #22).
   */
  incoming: (callBacks = false) =>
    queryOptions({
      queryKey: [...callQueries.all(), 'incoming', ...(callBacks ? ['call-backs'] : [])] as const,
      queryFn: ({ signal }) =>
        callBacks ? api.call(API_ROUTES.callbacksRinging, undefined, { signal }) : callsApi.incoming(signal),
      refetchInterval: CALL_LIMITS.incomingPollMs,
      refetchIntervalInBackground: true,
      refetchOnWindowFocus: 'always',
      staleTime: 0,
      retry: 1,
      meta: { silentErrors: true },
    }),
  /** A tracked call's status: every 2 s, also in background tabs and on focus (docs/product-rules.md §7). */
  status: (callId: number) =>
    queryOptions({
      queryKey: [...callQueries.all(), 'status', callId] as const,
      queryFn: ({ signal }) => callsApi.status(callId, signal),
      refetchInterval: CALL_LIMITS.statusPollMs,
      refetchIntervalInBackground: true,
      refetchOnWindowFocus: 'always',
      staleTime: 0,
      gcTime: 0,
      retry: 1,
      meta: { silentErrors: true },
    }),
  /** The customer's call-back requests (issue #22): with one open, the app listens for the shop's call. */
  myCallbacks: () =>
    queryOptions({
      queryKey: [...callQueries.all(), 'call-backs', 'mine'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.callbacksMine, undefined, { signal }),
      refetchInterval: 60_000,
      meta: { silentErrors: true },
    }),
  /** The jeweller's call-back queue (issue #22), with the open count for the dashboard's badge. */
  callbackQueue: () =>
    queryOptions({
      queryKey: [...callQueries.all(), 'call-backs', 'queue'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.callbackQueue, undefined, { signal }),
      refetchInterval: 30_000,
    }),
  /** The user's call history, cached 5 min; invalidated when a call ends. */
  history: () =>
    queryOptions({
      queryKey: [...callQueries.all(), 'history'] as const,
      queryFn: ({ signal }) => callsApi.history(signal),
      staleTime: CALL_LIMITS.historyCacheMs,
      gcTime: CALL_LIMITS.historyCacheMs,
      meta: { silentErrors: true },
    }),
};

/** Selling in the call: items (products shown, photos, chat), the shop's products, holds, the summary. */
export const sellingApi = {
  items: (callId: number, after: number, signal?: AbortSignal) =>
    api.call(API_ROUTES.callItems, { callId, after }, { signal }),
  searchProducts: (callId: number, q: string, signal?: AbortSignal) =>
    api.call(API_ROUTES.callProducts, { callId, q }, { signal }),
  share: (callId: number, productIds: number[]) => api.call(API_ROUTES.callShare, { callId, productIds }),
  message: (callId: number, text: string) => api.call(API_ROUTES.callMessage, { callId, text }),
  photo: (callId: number, image: string) => api.call(API_ROUTES.callPhotoSend, { callId, image }),
  detail: (callId: number, signal?: AbortSignal) => api.call(API_ROUTES.callDetail, { callId }, { signal }),
  hold: (callId: number, productId: number) => api.call(API_ROUTES.holdCreate, { callId, productId }),
  release: (holdId: number) => api.call(API_ROUTES.holdRelease, { holdId }),
  sellerHolds: (signal?: AbortSignal) => api.call(API_ROUTES.sellerHolds, undefined, { signal }),
};

export const sellingQueries = {
  detail: (callId: number) =>
    queryOptions({
      queryKey: [...callQueries.all(), 'detail', callId] as const,
      queryFn: ({ signal }) => sellingApi.detail(callId, signal),
    }),
  /**
   * The summary read during the call for the customer's holds of its pieces (the call screen's cards): a key of
   * its own under the summary's, so the summary shown when the call ends is read afresh, and a new hold
   * (which invalidates the summary's key) refreshes it too.
   */
  inCallHolds: (callId: number) =>
    queryOptions({
      queryKey: [...callQueries.all(), 'detail', callId, 'in-call'] as const,
      queryFn: ({ signal }) => sellingApi.detail(callId, signal),
      select: (d) => d.holds,
    }),
  sellerHolds: () =>
    queryOptions({
      queryKey: [...callQueries.all(), 'holds'] as const,
      queryFn: ({ signal }) => sellingApi.sellerHolds(signal),
    }),
};
