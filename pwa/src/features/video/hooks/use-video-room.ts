import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CALL_LIMITS } from '../../../../../api/contract/constants';
import {
  VIDEO_CONNECTION_MESSAGES,
  mapVideoError,
  type MappedVideoError,
  type VideoTokenResponse,
} from '../../../../../api/contract/video';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { fetchIceServers, signallingApi, videoQueries } from '../api';
import { stopLocalMedia, takeLocalMedia } from '../lib/local-media';
import { watchCallStats, type ConnectionQuality } from '../lib/call-stats';
import { markCall } from '../lib/marks';
import {
  closePreparedPeer,
  connectP2p,
  prepareCallerPeer,
  takeCallerPeer,
  takeAnswerPeer,
  watchPreparedRemote,
  SIGNAL_POLL_RINGING_MS,
  SIGNAL_POLL_STREAMING_MS,
} from '../providers/p2p';
import { isStreamOpen, onStreamEvent } from '../../../lib/event-stream';
import {
  CallEndedError,
  VideoConnectError,
  type CallEndReason,
  type VideoConnector,
  type VideoSession,
} from '../providers/types';

/** Where the video connection is. */
export type VideoPhase = 'idle' | 'loading' | 'connected' | 'failed';

export interface VideoRoomState {
  phase: VideoPhase;
  /** The reason shown as 'Call Failed - {reason}' (English, from the table in docs/product-rules.md §8). */
  error: string | null;
  /** A transient notice while retrying (e.g. the token-expired text). */
  notice: string | null;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  audioEnabled: boolean;
  videoEnabled: boolean;
  toggleAudio: () => void;
  toggleVideo: () => void;
  /** Leaves the room; `hangUp` tells the other side at once (p2p 'bye'). */
  leave: (opts?: { hangUp?: boolean }) => void;
  /** Media dropped without a hang-up and is being restored (since, epoch ms; whose network seems gone). */
  reconnecting: { since: number; localOffline: boolean } | null;
  /** The call had to end on its own (no network path, or media lost too long); `error` says why. */
  endReason: CallEndReason | null;
  /** From the call's statistics, while connected. */
  quality: ConnectionQuality | null;
  /** The link is too thin for video: audio carries the call. */
  audioOnly: boolean;
  /**
   * Sends this track instead of the camera's (the try-on's composited picture, issue #36); null sends the
   * camera again. p2p only (false when there is no peer connection to swap on).
   */
  replaceOutgoingVideo: (track: MediaStreamTrack | null) => Promise<boolean>;
}

export interface UseVideoRoomOptions {
  callId: number;
  /** Connect only while the call is active. */
  enabled: boolean;
  isCaller: boolean;
  /**
   * The caller's side while the call rings: polls the signalling relay (which answers with the call's status)
   * every 250 ms and calls this the moment the seller accepted, instead of waiting up to 2 s for the status poll.
   */
  onActive?: () => void;
  /** The meeting is over: a clean room disconnect, or the remote left and nobody came back in 1.5 s. */
  onMeetingOver: () => void;
}

class TimeoutError extends VideoConnectError {
  constructor() {
    super(VIDEO_CONNECTION_MESSAGES.connectTimeout);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/** The mapping of docs/product-rules.md §8, plus the connect timeout (retryable, with its own text). */
export function mapConnectError(err: unknown): MappedVideoError {
  if (err instanceof TimeoutError)
    return { message: VIDEO_CONNECTION_MESSAGES.connectTimeout, retryable: true, refetchToken: false };
  if (err instanceof CallEndedError) return { message: err.message, retryable: false, refetchToken: false };
  if (err instanceof DOMException && (err.name === 'NotAllowedError' || err.name === 'NotFoundError'))
    return mapVideoError({ message: `${err.name}: ${err.message}` });
  return mapVideoError(err as { code?: unknown; message?: unknown });
}

async function connectorFor(token: VideoTokenResponse): Promise<VideoConnector> {
  if (token.provider === 'twilio') return (await import('../providers/twilio')).connectTwilio;
  return connectP2p;
}

/**
 * Joins the call's video room with either provider: token (cached 5 min), connect with a 30 s timeout,
 * up to 3 retries with 1 s / 2 s / 4 s backoff for retryable errors (refetching the token on 20104),
 * the 1.5 s grace when the remote participant leaves, and mute / camera toggles.
 */
export function useVideoRoom({
  callId,
  enabled,
  isCaller,
  onActive,
  onMeetingOver,
}: UseVideoRoomOptions): VideoRoomState {
  const queryClient = useQueryClient();
  const token = useQuery({ ...videoQueries.token(callId), enabled });
  const [phase, setPhase] = useState<VideoPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [localStream, setLocalStream] = useState<MediaStream | null>(null);
  const [remoteStream, setRemoteStream] = useState<MediaStream | null>(null);
  const [audioEnabled, setAudioEnabled] = useState(true);
  const [videoEnabled, setVideoEnabled] = useState(true);
  const [generation, setGeneration] = useState(0);
  const [reconnecting, setReconnecting] = useState<VideoRoomState['reconnecting']>(null);
  const [endReason, setEndReason] = useState<CallEndReason | null>(null);
  const [quality, setQuality] = useState<ConnectionQuality | null>(null);
  const [audioOnly, setAudioOnly] = useState(false);
  const session = useRef<VideoSession | null>(null);
  const captured = useRef<MediaStream | null>(null);
  const capturing = useRef<Promise<MediaStream> | null>(null);
  const preparedPeer = useRef<Promise<RTCPeerConnection | null> | null>(null);
  const media = useRef({ audio: true, video: true });
  const meetingOver = useRef(onMeetingOver);
  const activeSeen = useRef(onActive);
  useEffect(() => {
    meetingOver.current = onMeetingOver;
    activeSeen.current = onActive;
  }, [onMeetingOver, onActive]);

  // Camera and microphone from the moment the call UI shows (ringing, or the accept click), so the capture
  // is done by the time the call is active; released when the call UI goes away.
  useEffect(() => {
    const promise = takeLocalMedia(callId);
    promise.catch(() => undefined);
    capturing.current = promise;
    // The answering side's peer connection, made with that capture while the call rang (if it was).
    // Its remote media shows the moment it arrives, before the video token (p2p).
    let mounted = true;
    const showRemote = (stream: MediaStream) => mounted && setRemoteStream(stream);
    // The person's own picture the moment the camera gives it, not after the video token (Accept is instant).
    promise.then(
      (stream) => mounted && setLocalStream((cur) => cur ?? stream),
      () => undefined,
    );
    // The caller's, made when the server answered the initiation (call-provider), is taken here too: the
    // jeweller may have picked up before this screen mounted, and an offer already sent must be the one used.
    preparedPeer.current = isCaller ? takeCallerPeer(callId) : takeAnswerPeer(callId);
    void preparedPeer.current?.then((pc) => watchPreparedRemote(pc, showRemote));
    return () => {
      mounted = false;
      void preparedPeer.current?.then(closePreparedPeer);
      preparedPeer.current = null;
      stopLocalMedia(capturing.current);
      capturing.current = null;
      captured.current?.getTracks().forEach((t) => t.stop());
      captured.current = null;
    };
  }, [callId, isCaller]);

  // The caller's offer is made and sent while it rings, with the relay's candidates when one is configured; its
  // answer comes with the accept (p2p adopts the peer when the token brings the same ICE servers).
  const prepare = isCaller && !enabled;
  useEffect(() => {
    if (!prepare || preparedPeer.current || !capturing.current) return;
    const servers = fetchIceServers(callId).then(
      (r) => r.iceServers as RTCIceServer[],
      () => [] as RTCIceServer[],
    );
    // Kept when the call turns active (the first attempt adopts it); closed on unmount if never adopted.
    // Not waiting for the camera: the offer goes now, the capture's tracks join its senders when ready.
    const capture = capturing.current;
    preparedPeer.current = servers.then(
      async (iceServers) => {
        const pc = await prepareCallerPeer(capture, iceServers, callId);
        watchPreparedRemote(pc, (remote) => setRemoteStream(remote));
        return pc;
      },
      () => null,
    );
  }, [prepare, callId]);

  // The caller learns of the accept from the event stream at once, or from the fast signalling poll while the
  // stream is not open (the status poll still runs).
  const watchActive = isCaller && !enabled && !!onActive;
  useEffect(() => {
    if (!watchActive) return;
    const ctl = new AbortController();
    const active = () => {
      if (ctl.signal.aborted) return;
      ctl.abort();
      // Ask for the token now rather than after the re-render that enables the room.
      void queryClient.prefetchQuery(videoQueries.token(callId));
      activeSeen.current?.();
    };
    const unsubscribe = onStreamEvent('call', (e) => {
      if (e.callId === callId && e.status === 'active') active();
    });
    void (async () => {
      while (!ctl.signal.aborted) {
        try {
          const { status } = await signallingApi.list(callId, 0, ctl.signal);
          if (ctl.signal.aborted) return;
          if (status === 'active') {
            active();
            return;
          }
          // Over before it was answered: the status poll clears the call.
          if (status !== 'pending' && status !== 'ringing') return;
        } catch (err) {
          if (ctl.signal.aborted) return;
          // Not this user's call (any more): the status poll is authoritative and will clear it.
          if (err instanceof ApiError && err.status >= 400 && err.status < 500) return;
        }
        await sleep(isStreamOpen() ? SIGNAL_POLL_STREAMING_MS : SIGNAL_POLL_RINGING_MS, ctl.signal);
      }
    })();
    return () => {
      unsubscribe();
      ctl.abort();
    };
  }, [watchActive, callId, queryClient]);

  const tokenError = token.error;
  // The room starts once a token is there and is not started again when another token for the call arrives:
  // the jeweller's comes with the accept while a request for it may be in flight (the call turned active on
  // the event stream first), and restarting would close the connection the accept's answer belongs to (the
  // caller then waits on a peer that is gone). A retry asks for a fresh token itself.
  const hasToken = token.data !== undefined;

  useEffect(() => {
    const tokenData = queryClient.getQueryData(videoQueries.token(callId).queryKey);
    if (!enabled || !tokenData) return;
    const run = new AbortController();
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let stats: ReturnType<typeof watchCallStats> | null = null;
    const startedAt = Date.now();

    const fail = (message: string, reason?: CallEndReason) => {
      stats?.stop(true);
      stats = null;
      setNotice(null);
      setReconnecting(null);
      setError(message);
      if (reason) setEndReason(reason);
      setPhase('failed');
    };

    const events = {
      onRemoteStream: (s: MediaStream | null) => !run.signal.aborted && setRemoteStream(s),
      onRemoteLeft: () => {
        clearTimeout(graceTimer);
        graceTimer = setTimeout(() => {
          if (!run.signal.aborted) meetingOver.current();
        }, CALL_LIMITS.remoteLeaveGraceMs);
      },
      onRemoteJoined: () => clearTimeout(graceTimer),
      onDisconnected: (err?: VideoConnectError) => {
        if (run.signal.aborted) return;
        session.current = null;
        if (!err) {
          meetingOver.current();
          return;
        }
        const mapped = mapConnectError(err);
        if (mapped.retryable) setGeneration((g) => g + 1);
        else fail(mapped.message, err instanceof CallEndedError ? err.reason : undefined);
      },
      onReconnecting: (info: { since: number; localOffline: boolean }) =>
        !run.signal.aborted && setReconnecting(info),
      onReconnected: () => !run.signal.aborted && setReconnecting(null),
    };

    markCall('token');
    void (async () => {
      setPhase('loading');
      setError(null);
      let current: VideoTokenResponse = tokenData;
      for (let attempt = 0; ; attempt++) {
        const attemptCtl = new AbortController();
        const onRunAbort = () => attemptCtl.abort(new VideoConnectError('Aborted'));
        run.signal.addEventListener('abort', onRunAbort);
        const timer = setTimeout(() => attemptCtl.abort(new TimeoutError()), CALL_LIMITS.connectTimeoutMs);
        try {
          if (current.provider === 'p2p' && !captured.current) {
            capturing.current ??= takeLocalMedia(callId);
            try {
              captured.current = await capturing.current;
            } catch (mediaErr) {
              // Asked again on the next attempt (the user may have granted the permission meanwhile).
              capturing.current = null;
              throw mediaErr;
            }
            markCall('media');
            if (run.signal.aborted) return;
            setLocalStream(captured.current);
          } else if (current.provider !== 'p2p' && capturing.current) {
            // Twilio captures its own tracks: free the camera and the peer prepared ahead.
            void preparedPeer.current?.then(closePreparedPeer);
            preparedPeer.current = null;
            stopLocalMedia(capturing.current);
            capturing.current = null;
            captured.current = null;
          }
          const connect = await connectorFor(current);
          const prepared = preparedPeer.current;
          preparedPeer.current = null;
          const joined = await connect({
            callId,
            isCaller,
            token: current,
            localStream: captured.current,
            preparedPeer: prepared && (await prepared),
            events,
            signal: attemptCtl.signal,
          });
          if (run.signal.aborted) {
            joined.disconnect();
            return;
          }
          session.current = joined;
          if (joined.peer) {
            stats = watchCallStats({
              callId,
              peer: joined.peer,
              reconnects: joined.reconnects ?? (() => 0),
              setupMs: Date.now() - startedAt,
              events: {
                onQuality: (q) => !run.signal.aborted && setQuality(q),
                onAudioOnly: (on) => !run.signal.aborted && setAudioOnly(on),
              },
            });
          }
          joined.setAudioEnabled(media.current.audio);
          joined.setVideoEnabled(media.current.video);
          setLocalStream(joined.localStream);
          setNotice(null);
          setPhase('connected');
          return;
        } catch (err) {
          if (run.signal.aborted) return;
          const mapped = mapConnectError(err);
          if (!mapped.retryable)
            return fail(mapped.message, err instanceof CallEndedError ? err.reason : undefined);
          if (attempt >= CALL_LIMITS.retryBackoffMs.length)
            return fail(VIDEO_CONNECTION_MESSAGES.retriesExhausted);
          if (mapped.refetchToken) {
            setNotice(mapped.message);
            try {
              current = await queryClient.fetchQuery({ ...videoQueries.token(callId), staleTime: 0 });
            } catch (tokenErr) {
              return fail(VIDEO_CONNECTION_MESSAGES.tokenFailed.replace('{reason}', errorMessage(tokenErr)));
            }
          }
          await sleep(CALL_LIMITS.retryBackoffMs[attempt], run.signal);
          if (run.signal.aborted) return;
        } finally {
          clearTimeout(timer);
          run.signal.removeEventListener('abort', onRunAbort);
        }
      }
    })();

    return () => {
      run.abort();
      clearTimeout(graceTimer);
      stats?.stop(true);
      stats = null;
      session.current?.disconnect();
      session.current = null;
    };
  }, [enabled, hasToken, callId, isCaller, generation, queryClient]);

  const toggleAudio = useCallback(() => {
    media.current.audio = !media.current.audio;
    session.current?.setAudioEnabled(media.current.audio);
    captured.current?.getAudioTracks().forEach((t) => (t.enabled = media.current.audio));
    setAudioEnabled(media.current.audio);
  }, []);
  const toggleVideo = useCallback(() => {
    media.current.video = !media.current.video;
    session.current?.setVideoEnabled(media.current.video);
    captured.current?.getVideoTracks().forEach((t) => (t.enabled = media.current.video));
    setVideoEnabled(media.current.video);
  }, []);
  const replaceOutgoingVideo = useCallback(async (track: MediaStreamTrack | null) => {
    const current = session.current;
    const sender = current
      ?.peer?.()
      ?.getSenders()
      .find((s) => s.track?.kind === 'video');
    if (!current || !sender) return false;
    await sender.replaceTrack(track ?? current.localStream.getVideoTracks()[0] ?? null);
    return true;
  }, []);
  const leave = useCallback((opts?: { hangUp?: boolean }) => {
    session.current?.disconnect(opts);
    session.current = null;
  }, []);

  const tokenFailure = tokenError
    ? VIDEO_CONNECTION_MESSAGES.tokenFailed.replace('{reason}', errorMessage(tokenError))
    : null;

  return {
    phase: tokenFailure ? 'failed' : enabled && phase === 'idle' ? 'loading' : phase,
    error: tokenFailure ?? error,
    notice,
    localStream,
    remoteStream,
    audioEnabled,
    videoEnabled,
    toggleAudio,
    toggleVideo,
    leave,
    reconnecting,
    endReason,
    quality,
    audioOnly,
    replaceOutgoingVideo,
  };
}
