import { useCallback, useMemo, useRef } from 'react';
import type { CallVideoSwap } from '../../tryon/public';

type Follower = (track: MediaStreamTrack | null) => void;

/** The video a call sends, as the call screen shares it between the try-on and the family's mesh. */
export interface SharedVideo {
  /** The camera (and microphone) of this side. */
  camera: MediaStream | null;
  /** What the try-on swaps: the call's own connection, then every connection with a guest. */
  swap: CallVideoSwap;
  /** The track sent instead of the camera's now (the try-on's picture), or null: the camera's. */
  sending: () => MediaStreamTrack | null;
  /** Told at once of every swap (before the try-on stops its old picture); returns the way to stop. */
  follow: (fn: Follower) => () => void;
}

/**
 * The customer's try-on reaches the guests too (issue #52, docs/product-rules.md §21.2): the try-on's swap
 * changes the video of the call's own connection (`replaceOutgoingVideo`, the customer–jeweller link), then
 * tells the family's mesh, which sends the track on every link with a guest and on every link made while it
 * runs (a guest admitted during the try-on); null sends the camera again.
 */
export function useSharedVideo(room: {
  localStream: MediaStream | null;
  replaceOutgoingVideo: (track: MediaStreamTrack | null) => Promise<boolean>;
}): SharedVideo {
  const { localStream, replaceOutgoingVideo } = room;
  const now = useRef<MediaStreamTrack | null>(null);
  const followers = useRef(new Set<Follower>());
  const replace = useCallback(
    async (track: MediaStreamTrack | null) => {
      const swapped = await replaceOutgoingVideo(track);
      // A try-on that could not start (false) is stopped by the try-on, which sends null next.
      if (swapped || !track) {
        now.current = track;
        for (const fn of followers.current) fn(track);
      }
      return swapped;
    },
    [replaceOutgoingVideo],
  );
  const sending = useCallback(() => now.current, []);
  const follow = useCallback((fn: Follower) => {
    followers.current.add(fn);
    return () => void followers.current.delete(fn);
  }, []);
  return useMemo(
    () => ({ camera: localStream, swap: { camera: localStream, replace }, sending, follow }),
    [localStream, replace, sending, follow],
  );
}
