import { z } from 'zod';
import { CALL_MESSAGES, type CallSignal, type CallStatusResponse } from './calls';

export const VIDEO_PROVIDERS = ['p2p', 'twilio'] as const;
export type VideoProviderName = (typeof VIDEO_PROVIDERS)[number];

/** GET /_api/video/token query: callId a positive integer, coerced from a number (docs/product-rules.md §5). */
export const videoTokenQuerySchema = z.object({
  callId: z.coerce
    .number({ error: CALL_MESSAGES.invalidCallId })
    .int({ error: CALL_MESSAGES.invalidCallId })
    .positive({ error: CALL_MESSAGES.invalidCallId }),
});

/** The room both participants join; derived from the call id (docs/product-rules.md §4). */
export const videoRoomName = (callId: number) => `nagai-call-${callId}`;
/** The identity of a user in a room. */
export const videoIdentity = (userId: number) => `user-${userId}`;

/** Longest life of a Twilio access token, in seconds. */
export const VIDEO_TOKEN_TTL_SECONDS = 3600;

import type { VideoTokenResponse } from './video-token';

export type { P2pVideoTokenResponse, TwilioVideoTokenResponse, VideoTokenResponse } from './video-token';
/**
 * GET /_api/video/ice-servers (same query as the token): the caller's ICE servers while the call still rings,
 * so its browser allocates relay candidates and makes its offer before the accept (p2p calls only; the
 * participants of an active call get them with the token).
 */
export interface IceServersResponse {
  iceServers: unknown[];
  /**
   * How long the relay credentials in `iceServers` live, when there are any: the rest of the ring for a ringing
   * call's caller; TURN_CREDENTIAL_TTL_SECONDS in an active call, whose participants fetch them again before then.
   */
  ttlSeconds?: number;
}

/** The failing shape of GET /_api/video/token (every API error has it). */
export interface VideoTokenError {
  error: string;
  code?: string;
}

/** Server texts of the token endpoint. */
export const VIDEO_MESSAGES = {
  callNotFound: CALL_MESSAGES.callNotFound,
  callNotActive: 'Video is only available while the call is active.',
  callNotLive: 'This call is over.',
  tooManyIceRequests: 'Too many requests for call connection details. Please wait a moment and try again.',
  providerUnavailable: 'Video calling is not configured on this server.',
} as const;

export interface VideoErrorInfo {
  code: number;
  meaning: string;
  message: string;
  /** Retried with backoff (docs/product-rules.md §4: up to 3 tries, 1 s / 2 s / 4 s). */
  retryable: boolean;
  /** Fetch a fresh token before retrying. */
  refetchToken: boolean;
}

/**
 * The product rules' video error table (docs/product-rules.md §8), used for both providers: Twilio errors arrive with these codes, and
 * the p2p client maps its failures onto the same codes. Where the product rules leave the retry open (53106,
 * 53118), a vanished room means the call is over (no retry) while a dropped connection is worth retrying.
 */
export const VIDEO_ERRORS: Record<number, VideoErrorInfo> = {
  53113: {
    code: 53113,
    meaning: 'duplicate identity',
    message:
      'You are already connected to this call from another device. Please disconnect from the other device and try again.',
    retryable: false,
    refetchToken: false,
  },
  53106: {
    code: 53106,
    meaning: 'room not found',
    message: 'The video call room could not be found. The call may have ended.',
    retryable: false,
    refetchToken: false,
  },
  20104: {
    code: 20104,
    meaning: 'token expired',
    message: 'Your connection token has expired. Attempting to refresh...',
    retryable: true,
    refetchToken: true,
  },
  20101: {
    code: 20101,
    meaning: 'token invalid',
    message: 'Invalid connection token. Please try refreshing the page.',
    retryable: false,
    refetchToken: false,
  },
  53405: {
    code: 53405,
    meaning: 'media connection failed',
    message:
      'Failed to connect to video/audio services. Please check your internet connection and try again.',
    retryable: true,
    refetchToken: false,
  },
  53000: {
    code: 53000,
    meaning: 'signalling failed',
    message: 'Failed to establish connection to call servers. Please check your internet connection.',
    retryable: true,
    refetchToken: false,
  },
  53117: {
    code: 53117,
    meaning: 'room full',
    message: 'The video call is currently full. Please try again later.',
    retryable: false,
    refetchToken: false,
  },
  53118: {
    code: 53118,
    meaning: 'disconnected',
    message: 'Disconnected from the video call due to connection issues.',
    retryable: true,
    refetchToken: false,
  },
};

/** The product rules' other video connection texts (docs/product-rules.md §8). */
export const VIDEO_CONNECTION_MESSAGES = {
  network: 'Network connection issue. Please check your internet connection and try again.',
  /** {message} is the underlying error's message. */
  generic: 'Video call connection failed: {message}',
  retriesExhausted: 'Failed to connect after multiple attempts. Please refresh the page and try again.',
  connectTimeout: 'Connection timeout. Please check your internet connection and try again.',
  /** {reason} is the token endpoint's error. */
  tokenFailed: 'Failed to get video call token: {reason}',
  /** {status} is the HTTP status text. */
  tokenFetchFailed: 'Failed to fetch token: {status}',
  loading: 'Loading video call...',
  /** {reason} is the mapped message. */
  callFailed: 'Call Failed - {reason}',
  /** No network path between the two (strict NATs and no relay, or the relay unreachable). */
  noRoute:
    'The call could not connect: no network path between you and the other side. Try again, or switch between Wi-Fi and mobile data.',
  /** Media gone for 30 s after a drop. */
  connectionLost: 'The call ended: the connection was lost.',
} as const;

/** Result of mapping any connection failure onto the product rules' table. */
export interface MappedVideoError {
  message: string;
  retryable: boolean;
  refetchToken: boolean;
  code?: number;
}

/** Maps a provider error (Twilio's { code, message } or a p2p failure) onto the product rules' message and retry rule. */
export function mapVideoError(
  err: { code?: unknown; message?: unknown } | null | undefined,
): MappedVideoError {
  const code = typeof err?.code === 'number' ? err.code : Number(err?.code);
  const known = Number.isFinite(code) ? VIDEO_ERRORS[code] : undefined;
  if (known)
    return { message: known.message, retryable: known.retryable, refetchToken: known.refetchToken, code };
  const message = typeof err?.message === 'string' ? err.message : String(err?.message ?? 'Unknown error');
  const networkish = /network|timeout|timed out/i.test(message);
  return {
    message: /network/i.test(message)
      ? VIDEO_CONNECTION_MESSAGES.network
      : VIDEO_CONNECTION_MESSAGES.generic.replace('{message}', message),
    retryable: networkish,
    refetchToken: false,
  };
}

/**
 * Answer of GET /_api/call/resume: what a page reloaded during a call needs to show it again, in one answer
 * instead of three in turn (issue #50): the call's status, the video token (null while it still rings: the
 * token is only for an active call) and the signals addressed to the viewer so far.
 */
export interface CallResumeResponse {
  call: CallStatusResponse;
  token: VideoTokenResponse | null;
  signals: CallSignal[];
}
