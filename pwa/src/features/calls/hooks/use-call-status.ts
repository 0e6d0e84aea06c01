import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

import type { CallProduct } from '../../../../../api/contract/call-selling';
import type { CallStateEvent } from '../../../../../api/contract/events';

import { CALL_LIMITS } from '../../../../../api/contract/constants';
import { ApiError } from '../../../lib/api-client';
import { useStreamEvent, type StreamState } from '../../../lib/event-stream';
import { callQueries } from '../api';
import type { ActiveCall } from '../lib/call-state';
import { STREAMING_SAFETY_POLL_MS } from './use-incoming-call';

/**
 * A tracked call's status: pushed by the event stream, and polled every 2 s whenever the stream is not open;
 * the server's status overwrites the local one.
 */
export function useCallStatus(
  activeCall: ActiveCall | null,
  stream: StreamState,
  onStatus: (s: {
    status: ActiveCall['status'];
    participantName: string;
    participantId: number;
    endReason?: string | null;
    /** Only in the status answer (undefined in a stream event: the event does not carry it). */
    product?: CallProduct | null;
    answeredAt?: string | null;
  }) => void,
  onGone: () => void,
) {
  const status = useQuery({
    ...callQueries.status(activeCall?.callId ?? 0),
    enabled: !!activeCall,
    refetchInterval: stream === 'open' ? STREAMING_SAFETY_POLL_MS : CALL_LIMITS.statusPollMs,
  });
  const latest = useRef({ onStatus, onGone });
  useEffect(() => {
    latest.current = { onStatus, onGone };
  });
  const callId = activeCall?.callId ?? null;
  useStreamEvent(
    'call',
    useCallback(
      (e: CallStateEvent) => {
        if (e.callId !== callId) return;
        latest.current.onStatus({
          status: e.status,
          participantName: '',
          participantId: 0,
          endReason: e.endReason,
          answeredAt: e.answeredAt,
        });
      },
      [callId],
    ),
  );
  // A stream that (re)opened may have missed something: ask once.
  const { refetch } = status;
  useStreamEvent(
    'hello',
    useCallback(() => {
      if (callId !== null) void refetch();
    }, [callId, refetch]),
  );
  const data = status.data;
  const error = status.error;
  useEffect(() => {
    if (data) latest.current.onStatus(data);
  }, [data]);
  useEffect(() => {
    // The call no longer exists for this user: stop tracking it.
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) latest.current.onGone();
  }, [error]);
}
