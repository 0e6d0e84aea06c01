import { useEffect, useRef } from 'react';
import { playWhenAllowed } from '../lib/playback';

type MediaEl = Pick<HTMLMediaElement, 'play'> & { srcObject: MediaProvider | null };
type VideoEl = MediaEl & { requestVideoFrameCallback?: (callback: () => void) => number };

/**
 * Puts a person's stream on a call's elements and plays it: the picture on the (muted) video element, the
 * sound on the audio element when there is one (none for one's own picture). Sound refused before a gesture
 * (Safari on iOS) starts at the next tap (lib/playback.ts). `onFirstFrame` runs once the first frame of this
 * stream is painted, where the browser can tell. Returns what undoes it (the stream changed, the view went).
 */
export function attachStream(
  video: VideoEl,
  audio: MediaEl | null,
  stream: MediaStream | null,
  onFirstFrame?: () => void,
): () => void {
  if (video.srcObject !== stream) video.srcObject = stream;
  if (audio && audio.srcObject !== stream) audio.srcObject = stream;
  if (!stream) return () => undefined;
  const stops = [playWhenAllowed(video), ...(audio ? [playWhenAllowed(audio)] : [])];
  let gone = false;
  if (onFirstFrame && video.requestVideoFrameCallback)
    video.requestVideoFrameCallback(() => {
      if (!gone) onFirstFrame();
    });
  return () => {
    gone = true;
    stops.forEach((stop) => stop());
  };
}

/**
 * The one way a call's view plays a remote (or one's own) stream: the 1:1 call's RemoteView and a family
 * call's tiles. Give the returned refs to a `<video muted>` and, for a person one hears, an `<audio>`.
 * `onFirstFrame` should be a stable function (a new one re-attaches the stream).
 */
export function useStreamPlayback(stream: MediaStream | null, onFirstFrame?: () => void) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    return attachStream(video, audioRef.current, stream, onFirstFrame);
  }, [stream, onFirstFrame]);
  return { videoRef, audioRef };
}
