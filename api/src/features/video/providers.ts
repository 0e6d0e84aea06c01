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
}

/** A way of carrying a call's media; the call state machine is the same for every provider. */
export interface VideoProvider {
  readonly name: VideoProviderName;
  issueToken(admission: VideoAdmission): VideoTokenResponse;
}

/**
 * WebRTC between the two browsers, signalling relayed through /_api/call/signal(s). The token is a random
 * value for the client's symmetry with Twilio; it grants nothing, because the signalling endpoints already
 * check the session and call membership on every request.
 */
export function p2pProvider(iceServers: unknown[]): VideoProvider {
  return {
    name: 'p2p',
    issueToken({ callId, userId }) {
      return {
        provider: 'p2p',
        token: crypto.randomBytes(24).toString('base64url'),
        roomName: videoRoomName(callId),
        identity: videoIdentity(userId),
        iceServers,
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
export function createVideoProviders(config: Config): Partial<Record<VideoProviderName, VideoProvider>> {
  return {
    p2p: p2pProvider(config.video.iceServers),
    ...(config.video.twilio ? { twilio: twilioProvider(config.video.twilio) } : {}),
  };
}
