import { useLayoutEffect, useRef } from 'react';
import {
  publishCall,
  registerCallActions,
  type CallActions,
  type CallSnapshot,
} from '../../../lib/call-store';

/**
 * Hands the provider's state and actions to the one call store (`pwa/src/lib/call-store.ts`). The actions
 * read the latest closures; they are registered once for the provider's life (before the first publish, so
 * whoever reads the store finds both), and the state goes to the store as soon as it is rendered, before
 * the browser paints.
 */
export function usePublishCall(actions: CallActions, snapshot: CallSnapshot) {
  const latestActions = useRef<CallActions | null>(null);
  useLayoutEffect(() => {
    latestActions.current = actions;
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
  const { user, activeCall, callState, incoming, responding, initiatingSellerId, audioUnlocked, ended } =
    snapshot;
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
}
