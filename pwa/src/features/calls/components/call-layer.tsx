import { lazy, Suspense } from 'react';
import type { User } from '../../../../../api/contract/accounts';
import { HeaderSlot } from '../../../app/header-slots';
import { CallProvider, useCall } from './call-provider';
import { InCallIndicator } from './in-call-indicator';
import { IncomingCallModal } from './incoming-call-modal';
import { SellerCallPrompts } from './seller-call-prompts';

// The video UI (WebRTC, Twilio) loads only when a call is tracked.
const CallModal = lazy(() => import('./call-modal'));

function CallUi() {
  const { user, activeCall, incoming, callState } = useCall();
  return (
    <>
      {callState === 'connected' && (
        <HeaderSlot name="inCall">
          <InCallIndicator />
        </HeaderSlot>
      )}
      {incoming && <IncomingCallModal />}
      {activeCall && !incoming && (
        <Suspense fallback={null}>
          <CallModal key={activeCall.callId} />
        </Suspense>
      )}
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
