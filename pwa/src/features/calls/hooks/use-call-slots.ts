import { useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type RefObject,
  type SetStateAction,
} from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { VIDEO_CONNECTION_MESSAGES } from '../../../../../api/contract/video';
import { translateMessage } from '../../../lib/i18n';
import type { EndedCall } from '../../../lib/call-store';
import { releaseLocalMedia } from '../../video/lib/local-media';
import { releaseAnswerPeer, releaseCallerPeer } from '../../video/providers/p2p';
import { callQueries } from '../api';
import type { ActiveCall } from '../lib/call-state';

/** What a call ended on its own says (null: an ordinary end). */
export function endedOnItsOwnMessage(reason: string | null | undefined): string | null {
  if (reason === 'no_route') return translateMessage(VIDEO_CONNECTION_MESSAGES.noRoute);
  if (reason === 'connection_lost') return translateMessage(VIDEO_CONNECTION_MESSAGES.connectionLost);
  return null;
}

/** The call provider's state, and the setters its hooks share (the ref always holds the latest call). */
export interface CallSlots {
  activeCall: ActiveCall | null;
  /** The call now, also between a set and the next render. */
  callRef: RefObject<ActiveCall | null>;
  setActiveCall: Dispatch<SetStateAction<ActiveCall | null>>;
  hangUpFailed: boolean;
  setHangUpFailed: Dispatch<SetStateAction<boolean>>;
  ended: EndedCall | null;
  setEnded: Dispatch<SetStateAction<EndedCall | null>>;
  /** Forgets the call (its media and prepared peers too); `outcome` shows what comes next. */
  clearCall: (announce: boolean | string, outcome?: EndedCall['outcome']) => void;
}

/** The call being made, answered or shown, and what ended last; `isSeller` for the ended call's shop. */
export function useCallSlots(isSeller: boolean): CallSlots {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [activeCall, setActiveCall] = useState<ActiveCall | null>(null);
  const [hangUpFailed, setHangUpFailed] = useState(false);
  const [ended, setEnded] = useState<EndedCall | null>(null);
  const callRef = useRef(activeCall);
  useEffect(() => {
    callRef.current = activeCall;
  }, [activeCall]);

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

  return { activeCall, callRef, setActiveCall, hangUpFailed, setHangUpFailed, ended, setEnded, clearCall };
}
