/** Answer of GET /_api/video/token (and of an accept, POST /_api/call/respond): how to join the call's video. */

/**
 * p2p answer. `token` is an opaque random value for symmetry with Twilio: it is informational only, the
 * signalling endpoints authorise by session and call membership.
 */
export interface P2pVideoTokenResponse {
  provider: 'p2p';
  token: string;
  roomName: string;
  identity: string;
  /** RTCIceServer objects from ICE_SERVERS; empty on one machine or a LAN. */
  iceServers: unknown[];
}

/** Twilio answer: an AccessToken JWT with a VideoGrant for roomName. */
export interface TwilioVideoTokenResponse {
  provider: 'twilio';
  token: string;
  roomName: string;
  identity: string;
  /** Seconds the token is valid for. */
  ttlSeconds: number;
}

export type VideoTokenResponse = P2pVideoTokenResponse | TwilioVideoTokenResponse;
