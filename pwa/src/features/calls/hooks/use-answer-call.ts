import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CALL_MESSAGES } from '../../../../../api/contract/calls';
import { CALL_LIMITS } from '../../../../../api/contract/constants';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { isOnline, OfflineError } from '../../../lib/online';
import { videoQueries } from '../../video/api';
import { prepareLocalMedia, releaseLocalMedia } from '../../video/lib/local-media';
import { markCall } from '../../video/lib/marks';
import {
  answerAccepted,
  answerForAccept,
  prepareAnswerPeer,
  releaseAnswerPeer,
} from '../../video/providers/p2p';
import { callQueries, callsApi } from '../api';
import { isAlreadyResponded, type ActiveCall, type IncomingCallRecord } from '../lib/call-state';
import type { CallSlots } from './use-call-slots';
import type { useIncomingCall } from './use-incoming-call';
import { useServiceWorkerMessages } from './use-service-worker-messages';

/**
 * Answering a call that rings here: accept or decline (the 30 s auto-decline too), the camera and the
 * answering peer made while it rings, and a notification's Show and Accept (the service worker's messages).
 */
export function useAnswerCall(
  slots: CallSlots,
  ringing: ReturnType<typeof useIncomingCall>,
  listens: boolean,
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { callRef, setActiveCall, setHangUpFailed, setEnded, clearCall } = slots;
  const { incoming, setIncoming, poll, reveal } = ringing;
  const [responding, setResponding] = useState(false);
  const pendingAccept = useRef<number | null>(null);

  const respond = useCallback(
    async (action: 'accept' | 'decline', record: IncomingCallRecord | null = incoming) => {
      if (!record || responding) return;
      // Not a mutation (so not guarded by the query client): offline, say so at once and keep the call ringing.
      if (!isOnline()) {
        toast.error(translateMessage(errorMessage(new OfflineError())));
        return;
      }
      setResponding(true);
      const optimistic: ActiveCall = {
        callId: record.callId,
        status: 'pending',
        isIncoming: true,
        participantId: record.callerId,
        participantName: record.callerName || t('calls.defaultCaller'),
        product: record.product,
      };
      if (action === 'accept') {
        setEnded(null);
        markCall('accept-clicked');
        // Camera and microphone start now, in parallel with the respond request.
        prepareLocalMedia(record.callId).catch(() => undefined);
        callRef.current = optimistic;
        setActiveCall(optimistic);
        setHangUpFailed(false);
        // The call screen takes the ringing dialog's place at the tap (the jeweller's own picture, "Connecting…"),
        // not when the accept answers: rendering it then held the video room's start by 0.2–0.3 s on a loaded
        // phone. Its room starts when the call is active and a token is there, once per call (§19), whichever
        // of the accept's answer and the event stream's 'active' comes first.
        setIncoming((cur) => (cur?.callId === record.callId ? null : cur));
      }
      try {
        // p2p: the answer to the offer that came while it rang goes with the accept (null: answered later).
        const answer = action === 'accept' ? await answerForAccept(record.callId) : null;
        const { call, token } = await callsApi.respond(record.callId, action, answer);
        markCall('respond-answered');
        if (action === 'accept') {
          if (call.status === 'active') {
            if (answer) answerAccepted(record.callId);
            // The video token came with the accept (else it is asked for now, while the call modal mounts).
            if (token) queryClient.setQueryData(videoQueries.token(record.callId).queryKey, token);
            else void queryClient.prefetchQuery(videoQueries.token(record.callId));
            const confirmed = { ...optimistic, status: call.status, answeredAt: Date.now() };
            callRef.current = confirmed;
            setActiveCall(confirmed);
            // An answered call-back closes its request.
            if (record.callBack)
              void queryClient.invalidateQueries({ queryKey: callQueries.myCallbacks().queryKey });
          } else clearCall(false);
        }
      } catch (err) {
        const message = errorMessage(err, CALL_MESSAGES.respondFailed);
        if (action === 'accept' && callRef.current?.callId === record.callId) clearCall(false);
        if (!isAlreadyResponded(message)) {
          toast.error(
            t(action === 'accept' ? 'calls.toast.acceptFailed' : 'calls.toast.declineFailed', {
              reason: translateMessage(message),
            }),
          );
        }
      } finally {
        setIncoming((cur) => (cur?.callId === record.callId ? null : cur));
        setResponding(false);
      }
    },
    [
      incoming,
      responding,
      t,
      clearCall,
      setIncoming,
      queryClient,
      callRef,
      setActiveCall,
      setEnded,
      setHangUpFailed,
    ],
  );

  // Auto-decline an unanswered incoming call after 30 s (docs/product-rules.md §4).
  const incomingId = incoming?.callId ?? null;
  const respondRef = useRef(respond);
  useEffect(() => {
    respondRef.current = respond;
  });
  useEffect(() => {
    if (incomingId === null) return;
    const timer = setTimeout(() => void respondRef.current('decline'), CALL_LIMITS.ringTimeoutMs);
    return () => clearTimeout(timer);
  }, [incomingId]);

  // While it rings: the camera, the microphone and the answering peer connection, so that after the accept
  // only the offer, the answer and the checks remain (nothing is sent before the accept). A call that stops
  // ringing without being answered here releases them.
  useEffect(() => {
    if (incomingId === null) return;
    const id = incomingId;
    prepareAnswerPeer(id, prepareLocalMedia(id));
    return () => {
      if (callRef.current?.callId === id) return;
      releaseLocalMedia(id);
      releaseAnswerPeer(id);
    };
  }, [incomingId, callRef]);

  // A notification's Accept: accept as soon as the call is on screen.
  useEffect(() => {
    if (incoming && pendingAccept.current === incoming.callId) {
      pendingAccept.current = null;
      void respondRef.current('accept', incoming);
    }
  }, [incoming]);

  useServiceWorkerMessages(listens, {
    poll,
    show: (callId) => {
      window.focus();
      if (incoming?.callId !== callId) reveal(callId);
      poll();
    },
    accept: (callId) => {
      window.focus();
      if (incoming?.callId === callId) void respondRef.current('accept', incoming);
      else {
        pendingAccept.current = callId;
        reveal(callId);
        poll();
      }
    },
  });

  const accept = useCallback(() => void respond('accept'), [respond]);
  const decline = useCallback(() => void respond('decline'), [respond]);
  return { accept, decline, responding };
}
