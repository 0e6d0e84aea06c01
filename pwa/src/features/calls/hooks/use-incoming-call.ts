import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import type { CallStateEvent, IncomingEvent } from '../../../../../api/contract/events';
import type { IncomingCallsResponse } from '../../../../../api/contract/calls';
import { CALL_LIMITS } from '../../../../../api/contract/constants';

import { useStreamEvent, type StreamState } from '../../../lib/event-stream';
import { callQueries } from '../api';
import type { IncomingCallRecord } from '../lib/call-state';

/** While the event stream is open, polls only guard against a gap; while it is not, they run at full pace. */
export const STREAMING_SAFETY_POLL_MS = 30_000;

/**
 * A seller's incoming calls: pushed by the event stream the moment they are placed, and polled every 4 s
 * (also hidden) whenever the stream is not open; modal selection, seen ids, auto-decline.
 */
export function useIncomingCall(enabled: boolean, inCall: boolean, stream: StreamState, callBacks = false) {
  const queryClient = useQueryClient();
  const incomingQuery = useQuery({
    ...callQueries.incoming(callBacks),
    enabled,
    refetchInterval: stream === 'open' ? STREAMING_SAFETY_POLL_MS : CALL_LIMITS.incomingPollMs,
  });
  useStreamEvent(
    'incoming',
    useCallback(
      (call: IncomingEvent) => {
        if (!enabled) return;
        queryClient.setQueryData<IncomingCallsResponse>(callQueries.incoming(callBacks).queryKey, (prev) => ({
          calls: [...(prev?.calls ?? []).filter((c) => c.callId !== call.callId), call],
        }));
      },
      [enabled, queryClient, callBacks],
    ),
  );
  useStreamEvent(
    'call',
    useCallback(
      (e: CallStateEvent) => {
        if (!enabled || e.status === 'pending' || e.status === 'ringing') return;
        // Answered, declined, hung up or rung out: no longer waiting for this seller.
        queryClient.setQueryData<IncomingCallsResponse>(callQueries.incoming(callBacks).queryKey, (prev) =>
          prev && prev.calls.some((c) => c.callId === e.callId)
            ? { calls: prev.calls.filter((c) => c.callId !== e.callId) }
            : prev,
        );
      },
      [enabled, queryClient, callBacks],
    ),
  );
  const [incoming, setIncoming] = useState<IncomingCallRecord | null>(null);
  // Ids already shown: a seen call is never shown again (docs/product-rules.md §4).
  const [seen, setSeen] = useState<ReadonlySet<number>>(() => new Set());
  const calls = incomingQuery.data?.calls;

  // Derived while rendering (no effect round trip): the modal vanishes when the server no longer lists the
  // call (caller hung up, expired); otherwise the first unseen call comes up when the seller is free.
  let next = incoming;
  if (calls) {
    if (next && !calls.some((c) => c.callId === next!.callId)) next = null;
    if (!next && !inCall) {
      const fresh = calls.find((c) => !seen.has(c.callId));
      if (fresh)
        next = {
          callId: fresh.callId,
          callerId: fresh.caller.id,
          callerName: fresh.caller.displayName,
          callerAvatarUrl: fresh.caller.avatarUrl,
          product: fresh.product ?? null,
          callBack: fresh.callBack === true,
        };
    }
  }
  if (next !== incoming) {
    setIncoming(next);
    if (next && !seen.has(next.callId)) setSeen(new Set(seen).add(next.callId));
  }

  const { refetch } = incomingQuery;
  const poll = useCallback(() => void refetch(), [refetch]);
  useStreamEvent(
    'hello',
    useCallback(() => {
      if (enabled) poll();
    }, [enabled, poll]),
  );
  /** Lets a notification bring back a call that was seen but is still ringing. */
  const reveal = useCallback(
    (callId: number) =>
      setSeen((prev) => {
        const copy = new Set(prev);
        copy.delete(callId);
        return copy;
      }),
    [],
  );
  return { incoming, setIncoming, poll, reveal };
}
