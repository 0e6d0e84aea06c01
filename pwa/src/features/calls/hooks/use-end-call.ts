import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { markCall } from '../../video/lib/marks';
import { callsApi } from '../api';
import { isTerminalStatus, type ActiveCall } from '../lib/call-state';
import { endedOnItsOwnMessage, type CallSlots } from './use-call-slots';

/** Ending a call (a hang-up, the meeting's end, an end on its own) and noting that the video room connected. */
export function useEndCall({ callRef, setActiveCall, setHangUpFailed, clearCall }: CallSlots) {
  const { t } = useTranslation();

  const hangUp = useCallback(async () => {
    const call = callRef.current;
    if (!call) return;
    try {
      await callsApi.end(call.callId);
      clearCall(true, 'summary');
    } catch {
      setHangUpFailed(true);
      toast.error(t('calls.toast.hangUpFailed'));
    }
  }, [clearCall, t, callRef, setHangUpFailed]);

  const endMeeting = useCallback(() => {
    const call = callRef.current;
    if (!call) return;
    callsApi.end(call.callId).then(
      () => clearCall(true, 'summary'),
      () => toast.error(t('calls.toast.endFailed')),
    );
  }, [clearCall, t, callRef]);

  const endOnItsOwn = useCallback(
    (reason: 'no_route' | 'connection_lost') => {
      const call = callRef.current;
      if (!call) return;
      const message = endedOnItsOwnMessage(reason) ?? t('calls.toast.ended');
      const outcome = reason === 'connection_lost' ? 'connection_lost' : 'summary';
      callsApi.end(call.callId, reason).then(
        () => clearCall(message, outcome),
        // The server ends it anyway once neither side polls it; say why here all the same.
        () => clearCall(message, outcome),
      );
    },
    [clearCall, t, callRef],
  );

  const noteActive = useCallback(
    (callId: number) => {
      const current = callRef.current;
      if (!current || current.callId !== callId || current.status === 'active') return;
      if (isTerminalStatus(current.status)) return;
      markCall('active-seen');
      const next: ActiveCall = { ...current, status: 'active', answeredAt: current.answeredAt ?? Date.now() };
      callRef.current = next;
      setActiveCall(next);
    },
    [callRef, setActiveCall],
  );

  return { hangUp, endMeeting, endOnItsOwn, noteActive };
}
