import { queryOptions } from '@tanstack/react-query';
import { CALL_LIMITS } from '../../../../api/contract/constants';
import type { CallSignalsResponse, SignalKind } from '../../../../api/contract/calls';
import type { IceServersResponse, VideoTokenResponse } from '../../../../api/contract/video';
import { API_ROUTES } from '../../../../api/contract/routes';
import { VIDEO_CONNECTION_MESSAGES } from '../../../../api/contract/video';
import { ApiError, api, REQUEST_FAILED } from '../../lib/api-client';

/** GET /_api/video/token: the body's error, else 'Failed to fetch token: {status text}' (docs/product-rules.md §8). */
async function fetchToken(callId: number, signal?: AbortSignal): Promise<VideoTokenResponse> {
  try {
    return await api.call(API_ROUTES.videoToken, { callId }, { signal });
  } catch (err) {
    if (err instanceof ApiError && err.message === REQUEST_FAILED) {
      const status = err.status ? String(err.status) : 'Network error';
      throw new ApiError(
        VIDEO_CONNECTION_MESSAGES.tokenFetchFailed.replace('{status}', status),
        err.status,
        err.code,
      );
    }
    throw err;
  }
}

/** Ring-time ICE servers that came with the call's initiation (one call's at a time). */
let given: { callId: number; iceServers: unknown[] } | null = null;

/** Keeps the ICE servers the initiate answer carried, for the call's preparation while it rings. */
export function rememberIceServers(callId: number, iceServers: unknown[] | undefined): void {
  if (iceServers?.length) given = { callId, iceServers };
}

/**
 * A participant's ICE servers while the call rings (see GET /_api/video/ice-servers), or those its initiation
 * already brought (once).
 */
export const fetchIceServers = (callId: number, signal?: AbortSignal): Promise<IceServersResponse> => {
  if (given?.callId === callId) {
    const { iceServers } = given;
    given = null;
    return Promise.resolve({ iceServers });
  }
  return api.call(API_ROUTES.videoIceServers, { callId }, { signal });
};

export const videoQueries = {
  /** The call's video token: cached 5 min, 1 retry, never refetched on focus or reconnect (docs/product-rules.md §7). */
  token: (callId: number) =>
    queryOptions({
      queryKey: ['video', 'token', callId] as const,
      queryFn: ({ signal }) => fetchToken(callId, signal),
      staleTime: CALL_LIMITS.videoTokenCacheMs,
      gcTime: CALL_LIMITS.videoTokenCacheMs,
      retry: 1,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      meta: { silentErrors: true },
    }),
};

/** A primed first read serves only this long after it was read (older, the server is asked). */
const PRIMED_SIGNALS_MS = 10_000;
let primed: { callId: number; answer: CallSignalsResponse; at: number } | null = null;

/**
 * The call's signals as a resume just read them (GET /_api/call/resume, a page reloaded during the call):
 * the connection's first read (from the start) is answered with them once, instead of asking again.
 */
export function primeSignals(callId: number, answer: CallSignalsResponse): void {
  primed = { callId, answer, at: Date.now() };
}

/** p2p signalling relay (participants of an active call only). */
export const signallingApi = {
  send: (callId: number, kind: SignalKind, payload: Record<string, unknown>) =>
    api.call(API_ROUTES.callSignal, { callId, kind, payload }),
  list: (callId: number, after: number, signal?: AbortSignal): Promise<CallSignalsResponse> => {
    const first = primed;
    if (first && first.callId === callId && after === 0) {
      primed = null;
      if (Date.now() - first.at < PRIMED_SIGNALS_MS) return Promise.resolve(first.answer);
    }
    return api.call(API_ROUTES.callSignals, { callId, after }, { signal });
  },
};
