import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { User } from '../../../../../api/contract/accounts';
import { CALL_MESSAGES } from '../../../../../api/contract/calls';
import { CALL_LIMITS } from '../../../../../api/contract/constants';
import { ApiError, errorMessage } from '../../../lib/api-client';
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
import { publishCallBridge, registerCallStarter } from '../lib/call-bridge';
import { prepareLocalMedia, releaseLocalMedia } from '../../video/lib/local-media';
import { markCall } from '../../video/lib/marks';
import { videoQueries } from '../../video/api';
import { isOnline, OfflineError } from '../../../lib/online';

/** Everything the call UI needs, from one provider (twilio-video-app-react style). */
export interface CallContextValue {
  user: User;
  activeCall: ActiveCall | null;
  /** Spec §4's client state; 'failed' also after a manual hang-up whose end request failed. */
  callState: ClientCallState;
  /** The incoming call on screen (sellers). */
  incoming: IncomingCallRecord | null;
  /** A response to the incoming call is in flight. */
  responding: boolean;
  /** The seller whose call is being initiated, while the request is pending. */
  initiatingSellerId: number | null;
  audioUnlocked: boolean;
  unlockAudio: () => void;
  startCall: (sellerId: number, sellerName?: string) => void;
  accept: () => void;
  decline: () => void;
  /** The user pressed End call. */
  hangUp: () => Promise<void>;
  /** The video layer found the meeting over (clean disconnect, or the remote left for good). */
  endMeeting: () => void;
  /** The video layer's signalling poll saw the call become active (before the 2 s status poll did). */
  noteActive: (callId: number) => void;
}

const CallContext = createContext<CallContextValue | null>(null);

/** The call state; throws outside CallProvider. */
export function useCall(): CallContextValue {
  const ctx = useContext(CallContext);
  if (!ctx) throw new Error('useCall must be used within a CallProvider');
  return ctx;
}

/** The call state, or null where no signed-in user has a provider (e.g. buttons shown to visitors). */
export function useOptionalCall(): CallContextValue | null {
  return useContext(CallContext);
}

const LIVE_RECOVERY_WINDOW_MS = 10 * 60_000;

/** A seller's incoming calls: polled every 4 s (also hidden), modal selection, seen ids, auto-decline. */
function useIncomingCall(enabled: boolean, inCall: boolean) {
  const incomingQuery = useQuery({ ...callQueries.incoming(), enabled });
  const [incoming, setIncoming] = useState<IncomingCallRecord | null>(null);
  // Ids already shown: a seen call is never shown again (spec §4).
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
        };
    }
  }
  if (next !== incoming) {
    setIncoming(next);
    if (next && !seen.has(next.callId)) setSeen(new Set(seen).add(next.callId));
  }

  const { refetch } = incomingQuery;
  const poll = useCallback(() => void refetch(), [refetch]);
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

/** A tracked call's status: every 2 s; the server's status overwrites the local one. */
function useCallStatus(
  activeCall: ActiveCall | null,
  onStatus: (s: { status: ActiveCall['status']; participantName: string; participantId: number }) => void,
  onGone: () => void,
) {
  const status = useQuery({ ...callQueries.status(activeCall?.callId ?? 0), enabled: !!activeCall });
  const latest = useRef({ onStatus, onGone });
  useEffect(() => {
    latest.current = { onStatus, onGone };
  });
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

/** Picks up a live call after a reload (the beacon normally ends it; this covers a lost beacon). */
function useLiveCallRecovery(user: User, track: (call: ActiveCall) => void) {
  const queryClient = useQueryClient();
  const latest = useRef(track);
  useEffect(() => {
    latest.current = track;
  });
  useEffect(() => {
    if (user.role === 'admin') return;
    let cancelled = false;
    void queryClient
      .fetchQuery(callQueries.history())
      .then(({ calls }) => {
        if (cancelled) return;
        const live = calls.find(
          (c) =>
            Date.now() - Date.parse(c.createdAt) < LIVE_RECOVERY_WINDOW_MS &&
            (c.status === 'active' || (!c.isIncoming && (c.status === 'pending' || c.status === 'ringing'))),
        );
        if (live)
          latest.current({
            callId: live.callId,
            status: live.status,
            isIncoming: live.isIncoming,
            participantId: live.participantId,
            participantName: live.participantName,
          });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [user.id, user.role, queryClient]);
}

/** The one call provider: composes the hooks above; mounted for signed-in users on every page. */
export function CallProvider({ user, children }: { user: User; children: ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isSeller = user.role === 'seller';
  const [activeCall, setActiveCall] = useState<ActiveCall | null>(null);
  const [hangUpFailed, setHangUpFailed] = useState(false);
  const [responding, setResponding] = useState(false);
  const callRef = useRef(activeCall);
  useEffect(() => {
    callRef.current = activeCall;
  }, [activeCall]);
  const pendingAccept = useRef<number | null>(null);

  const { unlocked: audioUnlocked, unlock: unlockAudio } = useAudioUnlock(true);
  const { incoming, setIncoming, poll, reveal } = useIncomingCall(isSeller, activeCall !== null);

  const clearCall = useCallback(
    (announce: boolean) => {
      if (!callRef.current) return;
      releaseLocalMedia(callRef.current.callId);
      callRef.current = null;
      setActiveCall(null);
      setHangUpFailed(false);
      if (announce) toast.info(t('calls.toast.ended'));
      void queryClient.invalidateQueries({ queryKey: callQueries.history().queryKey });
    },
    [queryClient, t],
  );

  useCallStatus(
    activeCall,
    (s) => {
      const current = callRef.current;
      if (!current) return;
      if (isTerminalStatus(s.status)) {
        clearCall(true);
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
  useUnloadBeacon(activeCall?.callId ?? null);
  useBackgroundAlerts(incoming);

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
    mutationFn: ({ sellerId }: { sellerId: number; sellerName?: string }) => callsApi.initiate(sellerId),
    onSuccess: (res, { sellerId, sellerName }) => {
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
      toast.success(t('calls.toast.initiated'));
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err, CALL_MESSAGES.initiateFailedToast))),
  });
  const { mutate: mutateInitiate, isPending: initiating } = initiate;
  const inFlight = useRef(false);
  const startCall = useCallback(
    (sellerId: number, sellerName?: string) => {
      // Repeat clicks are ignored while an initiation is pending (spec §2).
      if (inFlight.current) return;
      inFlight.current = true;
      mutateInitiate({ sellerId, sellerName }, { onSettled: () => (inFlight.current = false) });
    },
    [mutateInitiate],
  );

  useEffect(() => registerCallStarter(startCall), [startCall]);
  const initiatingSellerId = initiating ? (initiate.variables?.sellerId ?? null) : null;
  useEffect(() => {
    publishCallBridge({ initiatingSellerId });
    return () => publishCallBridge({ initiatingSellerId: null });
  }, [initiatingSellerId]);

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
      };
      if (action === 'accept') {
        markCall('accept-clicked');
        // Camera and microphone start now, in parallel with the respond request.
        prepareLocalMedia(record.callId).catch(() => undefined);
        callRef.current = optimistic;
        setActiveCall(optimistic);
        setHangUpFailed(false);
      }
      try {
        const { call } = await callsApi.respond(record.callId, action);
        markCall('respond-answered');
        if (action === 'accept') {
          if (call.status === 'active') {
            // The video token now, while the call modal mounts, not after it.
            void queryClient.prefetchQuery(videoQueries.token(record.callId));
            const confirmed = { ...optimistic, status: call.status };
            callRef.current = confirmed;
            setActiveCall(confirmed);
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

  // Auto-decline an unanswered incoming call after 30 s (spec §4).
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

  // A notification's Accept: accept as soon as the call is on screen.
  useEffect(() => {
    if (incoming && pendingAccept.current === incoming.callId) {
      pendingAccept.current = null;
      void respondRef.current('accept', incoming);
    }
  }, [incoming]);

  useServiceWorkerMessages(isSeller, {
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
      clearCall(true);
    } catch {
      setHangUpFailed(true);
      toast.error(t('calls.toast.hangUpFailed'));
    }
  }, [clearCall, t]);

  const endMeeting = useCallback(() => {
    const call = callRef.current;
    if (!call) return;
    callsApi.end(call.callId).then(
      () => clearCall(true),
      () => toast.error(t('calls.toast.endFailed')),
    );
  }, [clearCall, t]);

  const noteActive = useCallback((callId: number) => {
    const current = callRef.current;
    if (!current || current.callId !== callId || current.status === 'active') return;
    if (isTerminalStatus(current.status)) return;
    markCall('active-seen');
    const next: ActiveCall = { ...current, status: 'active' };
    callRef.current = next;
    setActiveCall(next);
  }, []);

  const accept = useCallback(() => void respond('accept'), [respond]);
  const decline = useCallback(() => void respond('decline'), [respond]);

  const callState: ClientCallState = hangUpFailed ? 'failed' : clientStateOf(activeCall);
  const value = useMemo<CallContextValue>(
    () => ({
      user,
      activeCall,
      callState,
      incoming,
      responding,
      initiatingSellerId,
      audioUnlocked,
      unlockAudio,
      startCall,
      accept,
      decline,
      hangUp,
      endMeeting,
      noteActive,
    }),
    [
      user,
      activeCall,
      callState,
      incoming,
      responding,
      initiatingSellerId,
      audioUnlocked,
      unlockAudio,
      startCall,
      accept,
      decline,
      hangUp,
      endMeeting,
      noteActive,
    ],
  );
  return <CallContext.Provider value={value}>{children}</CallContext.Provider>;
}
