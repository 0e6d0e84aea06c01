import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  FamilyGuest,
  FamilyLike,
  FamilyParty,
  FamilySignal,
  FamilyStateResponse,
} from '../../../../../api/contract/call-family';
import { CALL_LIMITS } from '../../../../../api/contract/constants';
import type { FamilyEvent } from '../../../../../api/contract/call-family';
import { isStreamOpen, useStreamEvent } from '../../../lib/event-stream';
import { FamilyMesh } from '../lib/family-mesh';
import { familyApi } from './family-api';
import type { SharedVideo } from './use-shared-video';

/**
 * The family of a call as its customer or jeweller has it (issue #52): the guests who asked and their
 * states, the likes, and the mesh with the admitted guests (their video by party). Read when the call screen
 * opens, at once on every 'family' event, and every 2 s while the event stream is not open (6 s while it is);
 * a mesh signal that comes with its event is handled from it, without a read.
 */
export function useFamilyCall(
  callId: number,
  localStream: MediaStream | null,
  enabled: boolean,
  /** The try-on's picture while one runs, sent instead of the camera on every link (use-shared-video.ts). */
  video?: Pick<SharedVideo, 'sending' | 'follow'>,
) {
  const [state, setState] = useState<{ guests: FamilyGuest[]; likes: FamilyLike[] }>({
    guests: [],
    likes: [],
  });
  const [streams, setStreams] = useState<ReadonlyMap<FamilyParty, MediaStream>>(new Map());
  const mesh = useRef<FamilyMesh | null>(null);
  const cursor = useRef(0);
  const inFlight = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  const ice = useRef<Promise<RTCIceServer[]> | null>(null);
  // Signals are handled one at a time, in order, whether they came with their event or by a read.
  const handling = useRef<Promise<void>>(Promise.resolve());
  const enqueue = (m: FamilyMesh, s: FamilySignal) => {
    handling.current = handling.current.then(() => m.handle(s).catch(() => undefined));
  };
  useEffect(() => video?.follow((track) => mesh.current?.replaceVideo(track)), [video]);

  const apply = useCallback(
    async (answer: FamilyStateResponse) => {
      setState({ guests: answer.guests, likes: answer.likes });
      // The relay credentials once a guest asks (fetched while the jeweller decides, so the guest's offer is
      // answered at once), the mesh once one is in: a call without family asks nothing more.
      const iceServers = () =>
        (ice.current ??= familyApi
          .iceServers(callId)
          .then((r) => r.iceServers as RTCIceServer[])
          .catch(() => []));
      if (localStream && answer.guests.some((g) => g.state === 'asked')) void iceServers();
      const admitted = answer.guests.filter((g) => g.state === 'admitted').map((g) => g.party);
      if (!localStream || (!mesh.current && !admitted.length && !answer.signals.length)) return;
      if (!mesh.current) {
        const servers = await iceServers();
        mesh.current ??= new FamilyMesh(
          answer.me,
          localStream,
          servers,
          (to, kind, payload) => familyApi.signal(callId, to, kind, payload).then(() => undefined),
          setStreams,
        );
        // A try-on already running: the links made from now on send its picture.
        mesh.current.replaceVideo(video?.sending() ?? null);
      }
      const m = mesh.current;
      for (const s of answer.signals) {
        // Already handled from its event.
        if (s.id <= cursor.current) continue;
        cursor.current = s.id;
        enqueue(m, s);
      }
      await handling.current;
      m.sync(admitted);
    },
    [callId, localStream, video],
  );

  /** One read at a time; a read asked for meanwhile runs once after it. */
  const refresh = useCallback(() => {
    if (!enabled) return;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    const run = async () => {
      do {
        again.current = false;
        try {
          await apply(await familyApi.state(callId, cursor.current));
        } catch {
          // The next event or poll reads again.
        }
      } while (again.current);
      inFlight.current = null;
    };
    inFlight.current = run();
  }, [apply, callId, enabled]);

  useEffect(() => {
    refresh();
    let ticks = 0;
    const timer = setInterval(() => {
      // Every 2 s without the stream; with it, every third tick only (a safety net under the events).
      if (!isStreamOpen() || ++ticks % 3 === 0) refresh();
    }, CALL_LIMITS.statusPollMs);
    return () => clearInterval(timer);
  }, [refresh]);
  useStreamEvent(
    'family',
    useCallback(
      (e: FamilyEvent) => {
        if (e.callId !== callId) return;
        // A guest's offer (or answer, candidate) answered from the event itself, with no read: when the mesh is
        // up and no read is under way (a read in flight may bring earlier signals; it then reads this one too).
        const s = e.signal;
        if (s && mesh.current && !inFlight.current) {
          if (s.id > cursor.current) {
            cursor.current = s.id;
            enqueue(mesh.current, s);
          }
          return;
        }
        refresh();
      },
      [callId, refresh],
    ),
  );
  useStreamEvent('hello', refresh);
  useEffect(
    () => () => {
      mesh.current?.close();
      mesh.current = null;
    },
    [],
  );

  const decide = useCallback(
    async (guestId: number, action: 'admit' | 'decline' | 'remove') => {
      await familyApi.decide(callId, guestId, action);
      refresh();
    },
    [callId, refresh],
  );
  return {
    ...state,
    streams,
    decide,
    replaceVideo: (t: MediaStreamTrack | null) => mesh.current?.replaceVideo(t),
  };
}
