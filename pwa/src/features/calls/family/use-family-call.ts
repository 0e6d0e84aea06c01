import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  FamilyGuest,
  FamilyLike,
  FamilyParty,
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
 * opens, at once on every 'family' event, and every 2 s while the event stream is not open (6 s while it is).
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
  const ice = useRef<RTCIceServer[] | null>(null);
  useEffect(() => video?.follow((track) => mesh.current?.replaceVideo(track)), [video]);

  const apply = useCallback(
    async (answer: FamilyStateResponse) => {
      setState({ guests: answer.guests, likes: answer.likes });
      // The mesh (and its relay credentials) only once a guest is in: a call without family asks nothing more.
      const admitted = answer.guests.filter((g) => g.state === 'admitted').map((g) => g.party);
      if (!localStream || (!mesh.current && !admitted.length && !answer.signals.length)) return;
      if (!mesh.current) {
        ice.current ??= await familyApi
          .iceServers(callId)
          .then((r) => r.iceServers as RTCIceServer[])
          .catch(() => []);
        mesh.current ??= new FamilyMesh(
          answer.me,
          localStream,
          ice.current,
          (to, kind, payload) => familyApi.signal(callId, to, kind, payload).then(() => undefined),
          setStreams,
        );
        // A try-on already running: the links made from now on send its picture.
        mesh.current.replaceVideo(video?.sending() ?? null);
      }
      const m = mesh.current;
      for (const s of answer.signals) {
        cursor.current = Math.max(cursor.current, s.id);
        await m.handle(s).catch(() => undefined);
      }
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
    useCallback((e: FamilyEvent) => e.callId === callId && refresh(), [callId, refresh]),
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
