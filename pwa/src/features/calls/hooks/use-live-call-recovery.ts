import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { User } from '../../../../../api/contract/accounts';
import type { CallStatusResponse } from '../../../../../api/contract/calls';

import { rememberLiveCall, resumingLiveCall, takeLiveCallStart } from '../../../lib/live-call';
import { primeSignals, videoQueries } from '../../video/api';
import { adoptLocalMedia, prepareLocalMedia, stopLocalMedia } from '../../video/lib/local-media';
import { markCall } from '../../video/lib/marks';
import { callQueries } from '../api';
import type { ActiveCall } from '../lib/call-state';

const LIVE_RECOVERY_WINDOW_MS = 10 * 60_000;

/** A call in progress is rejoined however long it has run; a ringing one only if this side placed it lately. */
const isLive = (c: { status: ActiveCall['status']; isIncoming: boolean; createdAt: string }) =>
  c.status === 'active' ||
  (Date.now() - Date.parse(c.createdAt) < LIVE_RECOVERY_WINDOW_MS &&
    !c.isIncoming &&
    (c.status === 'pending' || c.status === 'ringing'));

type Tracked = Pick<
  CallStatusResponse,
  'callId' | 'status' | 'isIncoming' | 'participantId' | 'participantName' | 'product' | 'answeredAt'
>;
const trackedFrom = (c: Tracked): ActiveCall => ({
  callId: c.callId,
  status: c.status,
  isIncoming: c.isIncoming,
  participantId: c.participantId,
  participantName: c.participantName,
  product: c.product,
  answeredAt: c.answeredAt ? Date.parse(c.answeredAt) : null,
});

/**
 * Picks up a live call after a reload (the beacon normally ends a ringing one; this covers a lost beacon, and
 * an active call is rejoined). The page names the live call, or this tab remembers it (lib/live-call.ts): its
 * status, video token and signals then came in one request started with the app; otherwise the history is
 * asked. `activeCallId` is remembered for the next reload. Returns true while a named call is being resumed
 * (the event stream opens meanwhile: the connection that follows then waits on no poll).
 */
export function useLiveCallRecovery(
  user: User,
  activeCallId: number | null,
  track: (call: ActiveCall) => void,
) {
  const queryClient = useQueryClient();
  const [resuming, setResuming] = useState(() => resumingLiveCall(user.id));
  const latest = useRef(track);
  useEffect(() => {
    latest.current = track;
  });
  useEffect(() => {
    if (user.role !== 'admin') rememberLiveCall(user.id, activeCallId);
  }, [user.id, user.role, activeCallId]);
  useEffect(() => {
    if (user.role === 'admin') return;
    let cancelled = false;
    const fromHistory = () =>
      queryClient
        // Always the server's word, never a cached history: a call that ended while the page reloaded (the
        // other side hung up, the unload beacon ended it) must not come back as "Loading video call…".
        .fetchQuery({ ...callQueries.history(), staleTime: 0 })
        .then(({ calls }) => {
          if (cancelled) return;
          const live = calls.find(isLive);
          if (live) latest.current(trackedFrom(live));
        });
    const known = takeLiveCallStart(user.id);
    // The server's page says there is no live call: nothing to ask.
    if (known?.callId === null) return;
    // The capture the entry module started with the resume (lib/live-call-early.ts), if it did.
    const capture = known?.capture ?? null;
    const recovered = known?.resume
      ? known.resume.then(
          ({ call, token, signals }) => {
            if (cancelled || !isLive(call)) {
              stopLocalMedia(capture);
              return;
            }
            markCall('resume-answered');
            // The video room finds its token, its first signals and its capture under way.
            if (token) queryClient.setQueryData(videoQueries.token(call.callId).queryKey, token);
            primeSignals(call.callId, { signals, status: call.status });
            if (capture) adoptLocalMedia(call.callId, capture);
            else if (call.status === 'active') prepareLocalMedia(call.callId).catch(() => undefined);
            latest.current(trackedFrom(call));
          },
          // Over, or not this reader's (a stale note), or the request failed: the history decides.
          () => {
            stopLocalMedia(capture);
            return cancelled ? undefined : fromHistory();
          },
        )
      : fromHistory();
    void recovered.catch(() => undefined).finally(() => setResuming(false));
    return () => {
      cancelled = true;
    };
  }, [user.id, user.role, queryClient]);
  return resuming;
}
