import { useCallback, useEffect, useRef, useState } from 'react';
import {
  FAMILY_GUEST_POLL_MS,
  type FamilyGuestStateResponse,
  type FamilyParty,
} from '../../../../../api/contract/call-family';
import { ApiError } from '../../../lib/api-client';
import { FamilyMesh } from '../lib/family-mesh';
import { familyApi, guestApi } from './family-api';

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
 * The call as the page knows it after a poll: the guest's state, the members and the piece as they are now,
 * and the items and likes kept so far with the new ones after them (a call that is over, or a part that
 * ended, keeps none).
 */
export function withNews(
  was: FamilyGuestStateResponse | null,
  s: FamilyGuestStateResponse,
): FamilyGuestStateResponse {
  if (!was || s.state !== 'admitted' || !s.callLive) return s;
  return { ...s, items: [...was.items, ...s.items], likes: [...was.likes, ...s.likes] };
}

/**
 * A guest's part in the call (issue #52): the call's state read every FAMILY_GUEST_POLL_MS (a guest has no
 * event stream), and once admitted the mesh with everyone, the guest offering (lib/family-mesh.ts).
 */
export function useGuestCall(guestToken: string | null, local: MediaStream | null) {
  const [state, setState] = useState<FamilyGuestStateResponse | null>(null);
  const [lost, setLost] = useState(false);
  const [streams, setStreams] = useState<ReadonlyMap<FamilyParty, MediaStream>>(new Map());
  const mesh = useRef<FamilyMesh | null>(null);
  // The last signal, item and like this page has: each poll brings only what came since.
  const cursor = useRef({ after: 0, afterItem: 0, afterLike: 0 });

  const closeMesh = useCallback(() => {
    mesh.current?.close();
    mesh.current = null;
    setStreams(new Map());
  }, []);

  useEffect(() => {
    if (!guestToken) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const s = await guestApi.state(guestToken, cursor.current);
        if (stopped) return;
        const at = cursor.current;
        cursor.current = {
          after: at.after,
          afterItem: Math.max(at.afterItem, ...s.items.map((i) => i.id)),
          afterLike: Math.max(at.afterLike, ...s.likes.map((l) => l.id)),
        };
        setState((was) => withNews(was, s));
        if (s.state === 'admitted' && s.callLive) {
          // The guest's own ICE servers (relay credentials for this call), once, as the mesh starts.
          const iceServers = mesh.current
            ? []
            : await guestApi
                .iceServers(guestToken)
                .then((r) => r.iceServers as RTCIceServer[])
                .catch(() => []);
          if (stopped) return;
          mesh.current ??= new FamilyMesh(
            s.me,
            local,
            iceServers,
            (to, kind, payload) =>
              familyApi.signal(s.callId, to, kind, payload, guestToken).then(() => undefined),
            setStreams,
          );
          for (const sig of s.signals) {
            cursor.current.after = Math.max(cursor.current.after, sig.id);
            await mesh.current.handle(sig).catch(() => undefined);
          }
          mesh.current.sync(s.members.map((m) => m.party));
        } else if (mesh.current) closeMesh();
      } catch (err) {
        // A token the server no longer knows: this tab's part is over.
        if (err instanceof ApiError && err.status === 401) setLost(true);
      }
      if (!stopped) timer = setTimeout(() => void tick(), FAMILY_GUEST_POLL_MS);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      closeMesh();
    };
  }, [guestToken, local, closeMesh]);

  return { state, streams, lost };
}
