import { useQuery } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import type { User } from '../../../../../api/contract/accounts';
import { useEventStream } from '../../../lib/event-stream';
import { callActions, useCallState, type CallActions, type CallSnapshot } from '../../../lib/call-store';
import { myAppointmentsQuery } from '../../../lib/appointments-query';
import { markCall } from '../../video/lib/marks';
import { callQueries } from '../api';
import { clientStateOf, isTerminalStatus, type ClientCallState } from '../lib/call-state';
import { useAnswerCall } from '../hooks/use-answer-call';
import { useAppointmentNotices } from '../hooks/use-appointment-notices';
import { useAudioUnlock } from '../hooks/use-audio-unlock';
import { useBackgroundAlerts } from '../hooks/use-background-alerts';
import { endedOnItsOwnMessage, useCallSlots } from '../hooks/use-call-slots';
import { useCallStatus } from '../hooks/use-call-status';
import { useEndCall } from '../hooks/use-end-call';
import { useIncomingCall } from '../hooks/use-incoming-call';
import { useLiveCallRecovery } from '../hooks/use-live-call-recovery';
import { usePlaceCall } from '../hooks/use-place-call';
import { usePublishCall } from '../hooks/use-publish-call';
import { useRingtone } from '../hooks/use-ringtone';
import { useUnloadBeacon } from '../hooks/use-unload-beacon';

/** Everything the call UI needs: the call store's state and the provider's actions. */
export type CallContextValue = CallSnapshot & CallActions & { user: User };

/** The call state and actions, from the one call store; throws where no provider is mounted. */
export function useCall(): CallContextValue {
  const state = useCallState((s) => s);
  if (!state.user) throw new Error('useCall must be used within a CallProvider');
  return { ...state, user: state.user, ...callActions() };
}

/**
 * The one call provider, mounted for signed-in users on every page. It composes the call's hooks:
 * - `use-call-slots`: the call now, the ended call, and how a call is forgotten;
 * - `use-incoming-call`, `use-answer-call`: a call that rings here, and accepting or declining it;
 * - `use-place-call`: placing a call (the customer's Video Call, the jeweller's Call back);
 * - `use-call-status`, `use-live-call-recovery`: the call's status from the server, and a live call after a reload;
 * - `use-end-call`: hanging up and ending on its own;
 * - `use-publish-call`: the state and actions handed to the call store everything else reads.
 */
export function CallProvider({ user, children }: { user: User; children: ReactNode }) {
  const isSeller = user.role === 'seller';
  const slots = useCallSlots(isSeller);
  const { activeCall, callRef, setActiveCall, hangUpFailed, ended, setEnded, clearCall } = slots;
  // A live call after a reload: the one the page names (or this tab remembers) is resumed in one request.
  const resuming = useLiveCallRecovery(user, activeCall?.callId ?? null, (call) => {
    if (!callRef.current) {
      callRef.current = call;
      setActiveCall(call);
    }
  });

  const { unlocked: audioUnlocked, unlock: unlockAudio } = useAudioUnlock(true);
  // A customer with an open call-back request listens for the shop's call (issue #22); other customers do not.
  const myCallbacks = useQuery({ ...callQueries.myCallbacks(), enabled: !isSeller });
  // So does a customer with a booked video appointment (the jeweller may start its call).
  const myAppointments = useQuery({ ...myAppointmentsQuery(), enabled: !isSeller });
  const awaitingCallBack =
    !isSeller &&
    ((myCallbacks.data?.openCount ?? 0) > 0 ||
      (myAppointments.data?.appointments ?? []).some((a) => a.status === 'booked'));
  const listens = isSeller || awaitingCallBack;
  // Sellers (and customers awaiting a call-back) keep the event stream open to ring at once; others while
  // they have a call (or one is being resumed after a reload).
  const stream = useEventStream(listens || activeCall !== null || resuming ? user.id : null);
  useAppointmentNotices(isSeller);
  const ringing = useIncomingCall(listens, activeCall !== null, stream, !isSeller);
  const { incoming } = ringing;

  useCallStatus(
    activeCall,
    stream,
    (s) => {
      const current = callRef.current;
      if (!current) return;
      if (isTerminalStatus(s.status)) {
        const onItsOwn = endedOnItsOwnMessage(s.endReason);
        clearCall(
          onItsOwn ?? true,
          s.status === 'declined' && !current.isIncoming
            ? 'declined'
            : s.status === 'missed' && !current.isIncoming
              ? 'missed'
              : onItsOwn
                ? 'connection_lost'
                : 'summary',
        );
        return;
      }
      // A call never goes back from active to pending/ringing: such an answer was sent before the accept
      // (which the respond request or the signalling poll already reported), so it is stale.
      if (current.status === 'active' && (s.status === 'pending' || s.status === 'ringing')) return;
      if (s.status !== current.status) {
        if (s.status === 'active') markCall('active-seen');
        const next = {
          ...current,
          status: s.status,
          participantName: s.participantName || current.participantName,
          product: s.product !== undefined ? s.product : current.product,
          answeredAt: s.answeredAt ? Date.parse(s.answeredAt) : (current.answeredAt ?? null),
        };
        callRef.current = next;
        setActiveCall(next);
      }
    },
    () => clearCall(false),
  );
  useUnloadBeacon(activeCall?.callId ?? null, activeCall?.status !== 'active');
  useBackgroundAlerts(incoming, !audioUnlocked);

  const ringtone =
    incoming && !activeCall
      ? 'incoming'
      : activeCall &&
          !activeCall.isIncoming &&
          (activeCall.status === 'pending' || activeCall.status === 'ringing')
        ? 'outgoing'
        : null;
  useRingtone(ringtone, audioUnlocked);

  const { startCall, callBack, initiatingSellerId } = usePlaceCall(slots);
  const { accept, decline, responding } = useAnswerCall(slots, ringing, listens);
  const { hangUp, endMeeting, endOnItsOwn, noteActive } = useEndCall(slots);
  const dismissEnded = useCallback(() => setEnded(null), [setEnded]);

  const callState: ClientCallState = hangUpFailed ? 'failed' : clientStateOf(activeCall);
  usePublishCall(
    {
      startCall,
      callBack,
      dismissEnded,
      accept,
      decline,
      hangUp,
      endMeeting,
      endOnItsOwn,
      noteActive,
      unlockAudio,
    },
    { user, activeCall, callState, incoming, responding, initiatingSellerId, audioUnlocked, ended },
  );
  const ready = useCallState((s) => s.user !== null);
  // What reads the store renders once the store holds this provider's state and actions.
  return ready ? <>{children}</> : null;
}
