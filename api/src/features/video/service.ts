import type { Knex } from 'knex';
import { CALL_ERROR_CODES } from '../../../contract/calls';
import { VIDEO_MESSAGES, type VideoProviderName, type VideoTokenResponse } from '../../../contract/video';
import { AppError, conflict, notFound } from '../../http/errors';
import type { VideoProvider } from './providers';

/**
 * A token for the call's room, only for one of its two participants and only while it is active. The
 * provider is the one the call was placed with, so a configuration change never splits a call in two.
 */
export async function issueVideoToken(
  db: Knex,
  providers: Partial<Record<VideoProviderName, VideoProvider>>,
  userId: number,
  callId: number,
): Promise<VideoTokenResponse> {
  const call = (await db('calls')
    .where('id', callId)
    .where((w) => w.where('caller_id', userId).orWhere('seller_id', userId))
    .first('id', 'status', 'provider')) as
    { id: number; status: string; provider: VideoProviderName } | undefined;
  if (!call) throw notFound(VIDEO_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
  if (call.status !== 'active') throw conflict(VIDEO_MESSAGES.callNotActive, CALL_ERROR_CODES.callNotActive);
  const provider = providers[call.provider];
  if (!provider) throw new AppError(503, 'video_unavailable', VIDEO_MESSAGES.providerUnavailable);
  return provider.issueToken({ callId: call.id, userId });
}
