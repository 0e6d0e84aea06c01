import { queryOptions } from '@tanstack/react-query';
import {
  CALL_MESSAGES,
  type CallHistoryResponse,
  type CallStatusResponse,
  type EndCallResponse,
  type IncomingCallsResponse,
  type InitiateCallResponse,
  type RespondCallResponse,
} from '../../../../api/contract/calls';
import { CALL_LIMITS } from '../../../../api/contract/constants';
import { ApiError, api, REQUEST_FAILED } from '../../lib/api-client';

/**
 * The spec's client defaults (§8): the body's `error`, else the raw text, else a per-call default. The api
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
  /** Initiate is sent superjson-style (spec §7); the server accepts both shapes. */
  initiate: (sellerId: number) =>
    withDefault(
      api.post<InitiateCallResponse>('/_api/call/initiate', { json: { sellerId } }),
      CALL_MESSAGES.initiateFailed,
    ),
  respond: (callId: number, response: 'accept' | 'decline') =>
    withDefault(
      api.post<RespondCallResponse>('/_api/call/respond', { callId, response }),
      CALL_MESSAGES.respondFailed,
    ),
  end: (callId: number) =>
    withDefault(api.post<EndCallResponse>('/_api/call/end', { callId }), CALL_MESSAGES.endFailed),
  status: (callId: number, signal?: AbortSignal) =>
    withDefault(
      api.get<CallStatusResponse>('/_api/call/status', { callId }, { signal }),
      CALL_MESSAGES.statusFailed,
    ),
  incoming: (signal?: AbortSignal) =>
    withDefault(
      api.get<IncomingCallsResponse>('/_api/call/incoming', undefined, { signal }),
      CALL_MESSAGES.incomingFailed,
    ),
  history: (signal?: AbortSignal) =>
    withDefault(
      api.get<CallHistoryResponse>('/_api/calls/history', undefined, { signal }),
      CALL_MESSAGES.historyFailed,
    ),
};

/** Query factories of the calls area. */
export const callQueries = {
  all: () => ['calls'] as const,
  /** Sellers' incoming calls: every 4 s, also in background tabs and on focus (spec §7). */
  incoming: () =>
    queryOptions({
      queryKey: [...callQueries.all(), 'incoming'] as const,
      queryFn: ({ signal }) => callsApi.incoming(signal),
      refetchInterval: CALL_LIMITS.incomingPollMs,
      refetchIntervalInBackground: true,
      refetchOnWindowFocus: 'always',
      staleTime: 0,
      retry: 1,
      meta: { silentErrors: true },
    }),
  /** A tracked call's status: every 2 s, also in background tabs and on focus (spec §7). */
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
