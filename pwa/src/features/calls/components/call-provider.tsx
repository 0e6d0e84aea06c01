import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { User } from '../../../../../api/contract/accounts';
import { CALL_ERROR_CODES, CALL_MESSAGES } from '../../../../../api/contract/calls';
import { CALL_LIMITS } from '../../../../../api/contract/constants';
import { SHOP_HOURS_ERROR_CODES } from '../../../../../api/contract/shop-call-state';
import { VIDEO_CONNECTION_MESSAGES } from '../../../../../api/contract/video';
import { ApiError, api, errorMessage } from '../../../lib/api-client';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { translateMessage } from '../../../lib/i18n';
import { callQueries, callsApi } from '../api';
import {
  clientStateOf,
  isAlreadyResponded,
  isTerminalStatus,
  type ActiveCall,
  type ClientCallState,
  type IncomingCallRecord,
} from '../lib/call-state';
import { useAudioUnlock } from '../hooks/use-audio-unlock';
import { useBackgroundAlerts } from '../hooks/use-background-alerts';
import { useRingtone } from '../hooks/use-ringtone';
import { useServiceWorkerMessages } from '../hooks/use-service-worker-messages';
import { useUnloadBeacon } from '../hooks/use-unload-beacon';
import {
  callActions,
  publishCall,
  registerCallActions,
  useCallState,
  type CallActions,
  type CallBackTarget,
  type CallSnapshot,
  type EndedCall,
} from '../../../lib/call-store';
import {
  assignPlacedMedia,
  prepareLocalMedia,
  prepareLocalMediaForPlacing,
  releaseLocalMedia,
  releasePlacedMedia,
} from '../../video/lib/local-media';
import {
  answerAccepted,
  answerForAccept,
  prepareAnswerPeer,
  prepareCallerAhead,
  releaseAnswerPeer,
  releaseCallerPeer,
} from '../../video/providers/p2p';
import { markCall } from '../../video/lib/marks';
import { rememberIceServers, videoQueries } from '../../video/api';
import { isOnline, OfflineError } from '../../../lib/online';
import { useEventStream, useStreamEvent } from '../../../lib/event-stream';
import { appointmentsKey, myAppointmentsQuery } from '../../../lib/appointments-query';
import type { AppointmentEvent } from '../../../../../api/contract/events';

import { useIncomingCall } from '../hooks/use-incoming-call';
import { useCallStatus } from '../hooks/use-call-status';
import { useLiveCallRecovery } from '../hooks/use-live-call-recovery';
import { TIME_OF_DAY } from '../../../../../api/contract/time-format';

/** Everything the call UI needs: the call store's state and the provider's actions. */
export type CallContextValue = CallSnapshot & CallActions & { user: User };

/** Initiate refusals of a shop that cannot be rung now (issue #40). */
const UNRINGABLE_CODES = new Set<string>(Object.values(SHOP_HOURS_ERROR_CODES));

/** The call state and actions, from the one call store; throws where no provider is mounted. */

export function useCall(): CallContextValue {
  const state = useCallState((s) => s);
  if (!state.user) throw new Error('useCall must be used within a CallProvider');
  return { ...state, user: state.user, ...callActions() };
}

/** What the person reads when a call ended on its own (null: an ordinary end). */
function endedOnItsOwnMessage(reason: string | null | undefined): string | null {
  if (reason === 'no_route') return translateMessage(VIDEO_CONNECTION_MESSAGES.noRoute);
  if (reason === 'connection_lost') return translateMessage(VIDEO_CONNECTION_MESSAGES.connectionLost);
  return null;
}

/** The one call provider: composes the hooks above; mounted for signed-in users on every page. */
export function CallProvider({ user, children }: { user: User; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const isSeller = user.role === 'seller';
  const [activeCall, setActiveCall] = useState<ActiveCall | null>(null);
  const [hangUpFailed, setHangUpFailed] = useState(false);
  const [responding, setResponding] = useState(false);
  const [ended, setEnded] = useState<EndedCall | null>(null);
  const callRef = useRef(activeCall);
  useEffect(() => {
    callRef.current = activeCall;
  }, [activeCall]);
  const pendingAccept = useRef<number | null>(null);

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
  // they have a call.
  const stream = useEventStream(listens || activeCall !== null ? user.id : null);
  // An appointment booked, reminded, starting, moved or cancelled (issue #22): told at once, lists refreshed.
  useStreamEvent(
    'appointment',
    useCallback(
      (e: AppointmentEvent) => {
        void queryClient.invalidateQueries({ queryKey: appointmentsKey });
        if (e.notice === 'booked' && !isSeller) return;
        const when = new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
          weekday: 'short',
          ...TIME_OF_DAY,
        }).format(new Date(e.startsAt));
        const text = t(`calls.appointments.notice.${e.notice}`, { name: e.otherName, time: when });
        const full = e.reason ? `${text} ${t('calls.appointments.reasonLine', { reason: e.reason })}` : text;
        if (e.notice === 'cancelled') toast.error(full, { duration: 15_000 });
        else toast.info(full, { duration: 15_000 });
      },
      [queryClient, t, i18n.language, isSeller],
    ),
  );
  const { incoming, setIncoming, poll, reveal } = useIncomingCall(
    listens,
    activeCall !== null,
    stream,
    !isSeller,
  );

  const clearCall = useCallback(
    (announce: boolean | string, outcome?: EndedCall['outcome']) => {
      const call = callRef.current;
      if (!call) return;
      releaseLocalMedia(call.callId);
      releaseAnswerPeer(call.callId);
      releaseCallerPeer(call.callId);
      // What the person sees next: the call's summary, or why it did not happen (a ringing call that the
      // caller cancels needs neither).
      const answered = call.status === 'active' || outcome === 'connection_lost';
      if (outcome && (answered || outcome !== 'summary'))
        setEnded({
          callId: call.callId,
          isIncoming: call.isIncoming,
          sellerId: isSeller ? null : call.participantId,
          participantName: call.participantName,
          outcome,
          productId: call.product?.id ?? null,
        });
      callRef.current = null;
      setActiveCall(null);
      setHangUpFailed(false);
      // A call that ended on its own says why and stays on screen long enough to be read.
      if (typeof announce === 'string') toast.error(announce, { duration: 12_000 });
      else if (announce) toast.info(t('calls.toast.ended'));
      void queryClient.invalidateQueries({ queryKey: callQueries.history().queryKey });
    },
    [queryClient, t, isSeller],
  );

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
  useLiveCallRecovery(user, (call) => {
    if (!callRef.current) {
      callRef.current = call;
      setActiveCall(call);
    }
  });
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

  const initiate = useMutation({
    mutationFn: ({
      sellerId,
      productId,
      appointmentId,
    }: {
      sellerId: number;
      sellerName?: string;
      productId?: number;
      appointmentId?: number;
    }) =>
      appointmentId !== undefined
        ? api.call(API_ROUTES.appointmentStart, { appointmentId })
        : callsApi.initiate(sellerId, productId),
    onSuccess: (res, { sellerId, sellerName }) => {
      if ('iceServers' in res) rememberIceServers(res.callId, res.iceServers);
      // The offer is made now, with the capture started at the tap, while the jeweller's phone starts ringing.
      prepareCallerAhead(res.callId, assignPlacedMedia(res.callId));
      const call: ActiveCall = {
        callId: res.callId,
        status: 'pending',
        isIncoming: false,
        participantId: sellerId,
        participantName: sellerName || t('calls.defaultSeller'),
      };
      callRef.current = call;
      setActiveCall(call);
      setHangUpFailed(false);
      // No toast: the call screen says "Calling …" already (issue #49).
    },
    onError: (err, { sellerId, sellerName, productId }) => {
      releasePlacedMedia();
      // A shop on another call: say so with what to do next, not only a toast.
      if (err instanceof ApiError && err.code === CALL_ERROR_CODES.sellerBusy) {
        setEnded({
          callId: null,
          isIncoming: false,
          sellerId,
          participantName: sellerName || t('calls.defaultSeller'),
          outcome: 'busy',
          productId: productId ?? null,
        });
        return;
      }
      // A shop that cannot be rung now (the page was older than its state): why, and what to do instead.
      if (err instanceof ApiError && UNRINGABLE_CODES.has(err.code ?? '')) {
        setEnded({
          callId: null,
          isIncoming: false,
          sellerId,
          participantName: sellerName || t('calls.defaultSeller'),
          outcome: 'unreachable',
          reason: translateMessage(err.message),
          productId: productId ?? null,
        });
        return;
      }
      toast.error(translateMessage(errorMessage(err, CALL_MESSAGES.initiateFailedToast)));
    },
  });
  const { mutate: mutateInitiate, isPending: initiating } = initiate;
  const inFlight = useRef(false);
  const startCall = useCallback(
    (sellerId: number, sellerName?: string, productId?: number, appointmentId?: number) => {
      // Repeat clicks are ignored while an initiation is pending (docs/product-rules.md §2).
      if (inFlight.current) return;
      inFlight.current = true;
      setEnded(null);
      // Camera and microphone from the tap, while the request that places the call is in flight.
      prepareLocalMediaForPlacing();
      mutateInitiate(
        { sellerId, sellerName, productId, appointmentId },
        { onSettled: () => (inFlight.current = false) },
      );
    },
    [mutateInitiate],
  );

  // The jeweller's "Call back" (issue #22): the call rings the customer; this side offers the video.
  const callBackMutation = useMutation({
    mutationFn: ({ target }: { target: CallBackTarget; customerName: string }) =>
      'requestId' in target
        ? api.call(API_ROUTES.callbackCall, { requestId: target.requestId })
        : 'appointmentId' in target
          ? api.call(API_ROUTES.appointmentStart, { appointmentId: target.appointmentId })
          : api.call(API_ROUTES.callbackCallMissed, { callId: target.missedCallId }),
    onSuccess: (res, { customerName }) => {
      prepareCallerAhead(res.callId, prepareLocalMedia(res.callId));
      const call: ActiveCall = {
        callId: res.callId,
        status: 'pending',
        isIncoming: false,
        participantId: res.call.callerId,
        participantName: customerName || t('calls.defaultCaller'),
      };
      setEnded(null);
      callRef.current = call;
      setActiveCall(call);
      setHangUpFailed(false);
      void queryClient.invalidateQueries({ queryKey: callQueries.callbackQueue().queryKey });
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err, CALL_MESSAGES.initiateFailedToast))),
  });
  const { mutate: mutateCallBack } = callBackMutation;
  const callBack = useCallback(
    (target: CallBackTarget, customerName: string) => {
      if (callRef.current) return;
      mutateCallBack({ target, customerName });
    },
    [mutateCallBack],
  );

  const initiatingSellerId = initiating ? (initiate.variables?.sellerId ?? null) : null;

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
      }
      try {
        // p2p: the answer to the offer that came while it rang goes with the accept (null: answered later).
        const answer = action === 'accept' ? await answerForAccept(record.callId) : null;
        const { call } = await callsApi.respond(record.callId, action, answer);
        markCall('respond-answered');
        if (action === 'accept') {
          if (call.status === 'active') {
            if (answer) answerAccepted(record.callId);
            // The video token now, while the call modal mounts, not after it.
            void queryClient.prefetchQuery(videoQueries.token(record.callId));
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
    [incoming, responding, t, clearCall, setIncoming, queryClient],
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
  }, [incomingId]);

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
  }, [clearCall, t]);

  const endMeeting = useCallback(() => {
    const call = callRef.current;
    if (!call) return;
    callsApi.end(call.callId).then(
      () => clearCall(true, 'summary'),
      () => toast.error(t('calls.toast.endFailed')),
    );
  }, [clearCall, t]);

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
    [clearCall, t],
  );

  const noteActive = useCallback((callId: number) => {
    const current = callRef.current;
    if (!current || current.callId !== callId || current.status === 'active') return;
    if (isTerminalStatus(current.status)) return;
    markCall('active-seen');
    const next: ActiveCall = { ...current, status: 'active', answeredAt: current.answeredAt ?? Date.now() };
    callRef.current = next;
    setActiveCall(next);
  }, []);

  const accept = useCallback(() => void respond('accept'), [respond]);
  const decline = useCallback(() => void respond('decline'), [respond]);
  const dismissEnded = useCallback(() => setEnded(null), []);

  const callState: ClientCallState = hangUpFailed ? 'failed' : clientStateOf(activeCall);
  // The actions read the latest closures; registered once for the provider's life (before the first
  // publish, so whoever reads the store finds both).
  const latestActions = useRef<CallActions | null>(null);
  useLayoutEffect(() => {
    latestActions.current = {
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
    };
  });
  useLayoutEffect(() => {
    const act = () => latestActions.current!;
    registerCallActions({
      startCall: (...a) => act().startCall(...a),
      callBack: (...a) => act().callBack(...a),
      dismissEnded: () => act().dismissEnded(),
      accept: () => act().accept(),
      decline: () => act().decline(),
      hangUp: () => act().hangUp(),
      endMeeting: () => act().endMeeting(),
      endOnItsOwn: (reason) => act().endOnItsOwn(reason),
      noteActive: (callId) => act().noteActive(callId),
      unlockAudio: () => act().unlockAudio(),
    });
    return () => registerCallActions(null);
  }, []);
  // The state goes to the one call store as soon as it is rendered, before the browser paints.
  useLayoutEffect(() => {
    publishCall({
      user,
      activeCall,
      callState,
      incoming,
      responding,
      initiatingSellerId,
      audioUnlocked,
      ended,
    });
  }, [user, activeCall, callState, incoming, responding, initiatingSellerId, audioUnlocked, ended]);
  const ready = useCallState((s) => s.user !== null);
  // What reads the store renders once the store holds this provider's state and actions.
  return ready ? <>{children}</> : null;
}
