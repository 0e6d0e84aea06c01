import { useEffect, useState } from 'react';
import type { FamilyGuestStateResponse, FamilyParty } from '../../../../../api/contract/call-family';
import { GuestSession } from './guest-session';

const storageKey = (invite: string) => `nagai:family-guest:${invite.slice(0, 12)}`;

/** The guest's token for this link, kept by the tab so a reload stays in the call. */
export function keptGuestToken(invite: string): string | null {
  try {
    return sessionStorage.getItem(storageKey(invite));
  } catch {
    return null;
  }
}
export function keepGuestToken(invite: string, guest: string | null): void {
  try {
    if (guest) sessionStorage.setItem(storageKey(invite), guest);
    else sessionStorage.removeItem(storageKey(invite));
  } catch {
    /* storage off: a reload asks again */
  }
}

/**
 * A guest's part in the call (issue #52): the event stream, the polls and the mesh of GuestSession
 * (guest-session.ts), its state and the others' videos for the page.
 */
export function useGuestCall(guestToken: string | null, local: MediaStream | null) {
  const [state, setState] = useState<FamilyGuestStateResponse | null>(null);
  const [lost, setLost] = useState(false);
  const [streams, setStreams] = useState<ReadonlyMap<FamilyParty, MediaStream>>(new Map());

  useEffect(() => {
    if (!guestToken) return;
    const session = new GuestSession(guestToken, local, {
      state: setState,
      streams: setStreams,
      lost: () => setLost(true),
    });
    session.start();
    return () => session.stop();
  }, [guestToken, local]);

  return { state, streams, lost };
}
