import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { User } from '../../../../../api/contract/accounts';

import { callQueries } from '../api';
import type { ActiveCall } from '../lib/call-state';

const LIVE_RECOVERY_WINDOW_MS = 10 * 60_000;

/** Picks up a live call after a reload (the beacon normally ends it; this covers a lost beacon). */
export function useLiveCallRecovery(user: User, track: (call: ActiveCall) => void) {
  const queryClient = useQueryClient();
  const latest = useRef(track);
  useEffect(() => {
    latest.current = track;
  });
  useEffect(() => {
    if (user.role === 'admin') return;
    let cancelled = false;
    void queryClient
      // Always the server's word, never a cached history: a call that ended while the page reloaded (the
      // other side hung up, the unload beacon ended it) must not come back as "Loading video call…".
      .fetchQuery({ ...callQueries.history(), staleTime: 0 })
      .then(({ calls }) => {
        if (cancelled) return;
        // A call in progress is rejoined however long it has run; a ringing one only if it is recent.
        const live = calls.find(
          (c) =>
            c.status === 'active' ||
            (Date.now() - Date.parse(c.createdAt) < LIVE_RECOVERY_WINDOW_MS &&
              !c.isIncoming &&
              (c.status === 'pending' || c.status === 'ringing')),
        );
        if (live)
          latest.current({
            callId: live.callId,
            status: live.status,
            isIncoming: live.isIncoming,
            participantId: live.participantId,
            participantName: live.participantName,
            product: live.product,
            answeredAt: live.answeredAt ? Date.parse(live.answeredAt) : null,
          });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [user.id, user.role, queryClient]);
}
