import { queryOptions } from '@tanstack/react-query';
import { CALL_LIMITS } from '../../../../api/contract/constants';
import type { SignalKind } from '../../../../api/contract/calls';
import type { VideoTokenResponse } from '../../../../api/contract/video';
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

/** The caller's ICE servers while the call rings (see GET /_api/video/ice-servers). */
export const fetchIceServers = (callId: number, signal?: AbortSignal) =>
  api.call(API_ROUTES.videoIceServers, { callId }, { signal });

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

/** p2p signalling relay (participants of an active call only). */
export const signallingApi = {
  send: (callId: number, kind: SignalKind, payload: Record<string, unknown>) =>
    api.call(API_ROUTES.callSignal, { callId, kind, payload }),
  list: (callId: number, after: number, signal?: AbortSignal) =>
    api.call(API_ROUTES.callSignals, { callId, after }, { signal }),
};
