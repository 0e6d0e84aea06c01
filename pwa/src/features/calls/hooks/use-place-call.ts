import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CALL_ERROR_CODES, CALL_MESSAGES } from '../../../../../api/contract/calls';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { SHOP_HOURS_ERROR_CODES } from '../../../../../api/contract/shop-call-state';
import { ApiError, api, errorMessage } from '../../../lib/api-client';
import type { CallBackTarget } from '../../../lib/call-store';
import { translateMessage } from '../../../lib/i18n';
import { rememberIceServers } from '../../video/api';
import {
  assignPlacedMedia,
  prepareLocalMedia,
  prepareLocalMediaForPlacing,
  releasePlacedMedia,
} from '../../video/lib/local-media';
import { prepareCallerAhead } from '../../video/providers/p2p';
import { callQueries, callsApi } from '../api';
import type { ActiveCall } from '../lib/call-state';
import type { CallSlots } from './use-call-slots';

/** Initiate refusals of a shop that cannot be rung now (issue #40). */
const UNRINGABLE_CODES = new Set<string>(Object.values(SHOP_HOURS_ERROR_CODES));

/**
 * Placing a call: the customer's "Video Call" (a shop, a product, a booked appointment) and the jeweller's
 * "Call back" (issue #22). The capture starts at the tap and the offer is made while the other side rings.
 */
export function usePlaceCall({ callRef, setActiveCall, setHangUpFailed, setEnded }: CallSlots) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

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
    [mutateInitiate, setEnded],
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
    [mutateCallBack, callRef],
  );

  /** The shop whose call is being placed (its button shows 'Calling…'). */
  const initiatingSellerId = initiating ? (initiate.variables?.sellerId ?? null) : null;
  return { startCall, callBack, initiatingSellerId };
}
