import type { Knex } from 'knex';
import { CALL_ERROR_CODES } from '../../../contract/calls';
import {
  VIDEO_MESSAGES,
  type IceServersResponse,
  type VideoProviderName,
  type VideoTokenResponse,
} from '../../../contract/video';
import type { AppDeps } from '../../http/context';
import { AppError, conflict, notFound, tooManyRequests } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import type { VideoProvider } from './providers';

type Providers = Partial<Record<VideoProviderName, VideoProvider>>;
interface CallForVideo {
  id: number;
  status: string;
  provider: VideoProviderName;
  caller_id: number;
  created_at: Date | string;
}

/** The call if the user is one of its participants (anyone else: not found), with its provider. */
async function participantCall(
  db: Knex,
  providers: Providers,
  userId: number,
  callId: number,
): Promise<{ call: CallForVideo; provider: VideoProvider }> {
  const call = (await db('calls')
    .where('id', callId)
    .where((w) => w.where('caller_id', userId).orWhere('seller_id', userId))
    .first('id', 'status', 'provider', 'caller_id', 'created_at')) as CallForVideo | undefined;
  if (!call) throw notFound(VIDEO_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
  const provider = providers[call.provider];
  if (!provider) throw new AppError(503, 'video_unavailable', VIDEO_MESSAGES.providerUnavailable);
  return { call, provider };
}

/**
 * A token for the call's room, only for one of its two participants and only while it is active. The
 * provider is the one the call was placed with, so a configuration change never splits a call in two.
 */
export async function issueVideoToken(
  db: Knex,
  providers: Providers,
  userId: number,
  callId: number,
): Promise<VideoTokenResponse> {
  const { call, provider } = await participantCall(db, providers, userId, callId);
  if (call.status !== 'active') throw conflict(VIDEO_MESSAGES.callNotActive, CALL_ERROR_CODES.callNotActive);
  return provider.issueToken({ callId: call.id, userId });
}

/**
 * The ICE servers (with this user's relay credentials) for a participant of a call that still rings or is
 * active. While it rings the caller's browser gathers relay candidates and makes its offer, and the rung side's
 * browser allocates its relay and prepares the answer, so after the accept only the checks remain. Twilio calls
 * need none (their token carries what they need): an empty list.
 */
export async function issueIceServers(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  providers: Providers,
  userId: number,
  callId: number,
  /** false: minted with the call's initiation, which has its own, tighter bound. */
  limited = true,
): Promise<IceServersResponse> {
  const { db, clock, config } = deps;
  const now = clock.now();
  // Each answer mints relay credentials: a bound per user (ICE_SERVERS_LIMIT_PER_USER_PER_MINUTE).
  const limit = limited
    ? await hitRateLimit(db, `ice:user:${userId}`, config.limits.iceServersPerUserPerMinute, 60_000, now)
    : { allowed: true, retryAfterMs: 0 };
  if (!limit.allowed)
    throw tooManyRequests(
      VIDEO_MESSAGES.tooManyIceRequests,
      limit.retryAfterMs / 1000,
      'too_many_ice_requests',
    );
  const { call, provider } = await participantCall(db, providers, userId, callId);
  // While it rings, both sides prepare: the one who placed it makes its offer, the one it rings its answer
  // (relay allocation included), so that after the accept only the checks remain.
  const ringing =
    (call.status === 'pending' || call.status === 'ringing') &&
    new Date(call.created_at).getTime() + config.callRingTimeoutMs > now.getTime();
  if (!ringing && call.status !== 'active')
    throw conflict(VIDEO_MESSAGES.callNotLive, CALL_ERROR_CODES.callNotActive);
  // A ringing call's participants get relay credentials for the rest of the ring only (and a little more for
  // the answer to arrive), at most RING_CREDENTIAL_MAX_SECONDS; an active call's participants get the configured
  // life and fetch them again while the call lives. Nothing is minted once it ended.
  const ttlSeconds = ringing
    ? Math.min(
        RING_CREDENTIAL_MAX_SECONDS,
        Math.max(
          RING_CREDENTIAL_GRACE_SECONDS,
          Math.ceil((new Date(call.created_at).getTime() + config.callRingTimeoutMs - now.getTime()) / 1000) +
            RING_CREDENTIAL_GRACE_SECONDS,
        ),
      )
    : config.video.turn?.ttlSeconds;
  const token = provider.issueToken({ callId: call.id, userId, ttlSeconds });
  if (token.provider !== 'p2p') return { iceServers: [] };
  return config.video.turn && ttlSeconds
    ? { iceServers: token.iceServers, ttlSeconds }
    : { iceServers: token.iceServers };
}

/** The most a ringing call's caller's relay credentials live, and the margin after the ring for the answer. */
const RING_CREDENTIAL_MAX_SECONDS = 300;
const RING_CREDENTIAL_GRACE_SECONDS = 15;
