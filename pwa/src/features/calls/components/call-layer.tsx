import { lazy, Suspense, useEffect } from 'react';
import type { User } from '../../../../../api/contract/accounts';
import { HeaderSlot } from '../../../app/header-slots';
import { CallEndedDialog } from './call-ended-dialog';
import { CallProvider, useCall } from './call-provider';
import { InCallIndicator } from './in-call-indicator';
import { IncomingCallModal } from './incoming-call-modal';
import { SellerCallPrompts } from './seller-call-prompts';

// The video UI (WebRTC, Twilio) loads only when a call is tracked.
const loadCallModal = () => import('./call-modal');
const CallModal = lazy(loadCallModal);

function CallUi() {
  const { user, activeCall, incoming, callState, initiatingSellerId } = useCall();
  // Fetched while the call rings (or is being placed), not after the accept.
  const soon = !!(incoming || activeCall || initiatingSellerId !== null);
  useEffect(() => {
    if (soon) void loadCallModal().catch(() => undefined);
  }, [soon]);
  return (
    <>
      {callState === 'connected' ? (
        <HeaderSlot name="inCall">
          <InCallIndicator />
        </HeaderSlot>
      ) : (
        soon && (
          // Placed, ringing or connecting: nothing to show yet, but the slot tells the rest of the app
          // (e.g. an app update waiting to reload) that a call is under way.
          <HeaderSlot name="inCall">
            <span hidden data-call-pending="" />
          </HeaderSlot>
        )
      )}
      {incoming && <IncomingCallModal />}
      {activeCall && !incoming && (
        <Suspense fallback={null}>
          <CallModal key={activeCall.callId} />
        </Suspense>
      )}
      {/* Mounted while no call is on: it also keeps the slot picker it opens after a call (issue #22). */}
      {!activeCall && !incoming && <CallEndedDialog />}
      {user.role === 'seller' && <SellerCallPrompts />}
    </>
  );
}

/** The signed-in user's call layer: provider, incoming modal, call modal, header indicator, prompts. */
export default function CallLayer({ user }: { user: User }) {
  return (
    <CallProvider key={user.id} user={user}>
      <CallUi />
    </CallProvider>
  );
}
