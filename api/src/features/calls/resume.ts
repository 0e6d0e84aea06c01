import type { Knex } from 'knex';
import { CALL_ERROR_CODES } from '../../../contract/calls';
import type { CallResumeResponse } from '../../../contract/video';
import { TERMINAL_CALL_STATUSES } from '../../../contract/constants';
import { VIDEO_MESSAGES } from '../../../contract/video';
import type { AppDeps, SessionUser } from '../../http/context';
import { conflict } from '../../http/errors';
import type { createVideoProviders } from '../video/providers';
import { issueVideoToken } from '../video/service';
import { getCallStatus, listSignals } from './service';

type ResumeDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/**
 * A page reloaded during a call (issue #50): the call's status, the video token and the signals addressed to
 * the viewer, in one answer instead of one request after another. The same rules as the three requests it
 * replaces: only a participant (anyone else: 404), only a live call (an ended one: 409); the token only once
 * the call is active (null while it still rings).
 */
export async function resumeCall(
  deps: ResumeDeps,
  providers: ReturnType<typeof createVideoProviders>,
  user: SessionUser,
  callId: number,
): Promise<CallResumeResponse> {
  const call = await getCallStatus(deps, user, callId);
  if ((TERMINAL_CALL_STATUSES as readonly string[]).includes(call.status))
    throw conflict(VIDEO_MESSAGES.callNotLive, CALL_ERROR_CODES.callNotActive);
  const token = call.status === 'active' ? await issueVideoToken(deps.db, providers, user.id, callId) : null;
  const { signals } = await listSignals(deps, user, callId, 0);
  return { call, token, signals };
}

/**
 * The signed-in user's live call, for the page the server serves them (api/src/http/static.ts): an active
 * call either side, or one this user placed that still rings. The same calls the app picks up after a reload
 * (pwa/src/features/calls/hooks/use-live-call-recovery.ts); null when there is none.
 */
export async function liveCallIdOf(
  db: Knex,
  userId: number,
  now: Date,
  ringTimeoutMs: number,
): Promise<number | null> {
  const row = (await db('calls')
    .where((w) => w.where('caller_id', userId).orWhere('seller_id', userId))
    .where((w) =>
      w.where('status', 'active').orWhere((r) =>
        r
          .whereIn('status', ['pending', 'ringing'])
          .where('created_at', '>', new Date(now.getTime() - ringTimeoutMs))
          .whereRaw(`(case when direction = 'to_customer' then seller_id else caller_id end) = ?`, [userId]),
      ),
    )
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first('id')) as { id: number } | undefined;
  return row?.id ?? null;
}
