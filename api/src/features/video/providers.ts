import crypto from 'node:crypto';
import AccessToken from 'twilio/lib/jwt/AccessToken';
import {
  VIDEO_TOKEN_TTL_SECONDS,
  videoIdentity,
  videoRoomName,
  type VideoProviderName,
  type VideoTokenResponse,
} from '../../../contract/video';
import type { Config } from '../../config';

/** What a provider needs to admit one participant to one call's room. */
export interface VideoAdmission {
  callId: number;
  userId: number;
  /** At most this long for relay credentials (a ringing call's caller: the rest of the ring). */
  ttlSeconds?: number;
}

/** A way of carrying a call's media; the call state machine is the same for every provider. */
export interface VideoProvider {
  readonly name: VideoProviderName;
  issueToken(admission: VideoAdmission): VideoTokenResponse;
}

/** Our relay's settings: coturn with `use-auth-secret` and the same shared secret. */
export interface TurnRelay {
  urls: string[];
  secret: string;
  ttlSeconds: number;
}

/**
 * The TURN REST username of one party of one call: `<expiry>:<user>`, the user naming both: `c<call>u<userId>`
 * for a participant, `c<call>g<guestId>` for a family guest (docs/product-rules.md §21.6).
 */
export const turnUsername = (expiresAtSeconds: number, callId: number, party: number | `g${number}`) =>
  `${expiresAtSeconds}:c${callId}${typeof party === 'number' ? `u${party}` : party}`;

/**
 * Short-lived relay credentials in the TURN REST scheme coturn checks with `use-auth-secret`: the password
 * is base64(HMAC-SHA1(secret, username)) and the username carries its own expiry, so coturn needs no
 * database and a credential is worthless after it. They are minted only for a participant of an active
 * call (the token endpoint checks that), so nothing static ever reaches a client.
 */
export function turnCredentials(
  relay: TurnRelay,
  callId: number,
  party: number | `g${number}`,
  nowMs: number,
) {
  const username = turnUsername(Math.floor(nowMs / 1000) + relay.ttlSeconds, callId, party);
  const credential = crypto.createHmac('sha1', relay.secret).update(username).digest('base64');
  return { urls: relay.urls, username, credential };
}

/**
 * WebRTC between the two browsers, signalling relayed through /_api/call/signal(s). The token is a random
 * value for the client's symmetry with Twilio; it grants nothing, because the signalling endpoints already
 * check the session and call membership on every request. With a relay configured it carries that
 * participant's relay credentials after the static ICE servers.
 */
export function p2pProvider(
  iceServers: unknown[],
  relay?: TurnRelay,
  now: () => Date = () => new Date(),
): VideoProvider {
  return {
    name: 'p2p',
    issueToken({ callId, userId, ttlSeconds }) {
      return {
        provider: 'p2p',
        token: crypto.randomBytes(24).toString('base64url'),
        roomName: videoRoomName(callId),
        identity: videoIdentity(userId),
        iceServers: relay
          ? [
              ...iceServers,
              turnCredentials(
                { ...relay, ttlSeconds: Math.min(relay.ttlSeconds, ttlSeconds ?? relay.ttlSeconds) },
                callId,
                userId,
                now().getTime(),
              ),
            ]
          : iceServers,
      };
    },
  };
}

/** Twilio Video: an AccessToken JWT (signed offline with the API key secret) granting one room. */
export function twilioProvider(
  credentials: { accountSid: string; apiKeySid: string; apiKeySecret: string },
  ttlSeconds = VIDEO_TOKEN_TTL_SECONDS,
): VideoProvider {
  const ttl = Math.min(ttlSeconds, VIDEO_TOKEN_TTL_SECONDS);
  return {
    name: 'twilio',
    issueToken({ callId, userId }) {
      const roomName = videoRoomName(callId);
      const identity = videoIdentity(userId);
      const token = new AccessToken(credentials.accountSid, credentials.apiKeySid, credentials.apiKeySecret, {
        identity,
        ttl,
      });
      token.addGrant(new AccessToken.VideoGrant({ room: roomName }));
      return { provider: 'twilio', token: token.toJwt(), roomName, identity, ttlSeconds: ttl };
    },
  };
}

/** The providers this configuration can serve, by name (twilio only with credentials). */
export function createVideoProviders(
  config: Config,
  now?: () => Date,
): Partial<Record<VideoProviderName, VideoProvider>> {
  return {
    p2p: p2pProvider(config.video.iceServers, config.video.turn, now),
    ...(config.video.twilio ? { twilio: twilioProvider(config.video.twilio) } : {}),
  };
}
