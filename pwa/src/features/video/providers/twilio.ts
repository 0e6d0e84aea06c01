import { CALL_LIMITS } from '../../../../../api/contract/constants';
import { VideoConnectError, type ConnectOptions, type VideoConnector, type VideoSession } from './types';

type TwilioModule = typeof import('./twilio-video');

let loading: Promise<TwilioModule> | null = null;

/** Loads the SDK chunk once, giving up after 15 s (docs/product-rules.md §9); a failed load may be tried again. */
export function loadTwilioVideo(timeoutMs: number = CALL_LIMITS.sdkLoadTimeoutMs): Promise<TwilioModule> {
  if (!loading) {
    loading = new Promise<TwilioModule>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new VideoConnectError('Network timeout while loading the video SDK')),
        timeoutMs,
      );
      import('./twilio-video').then(
        (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(new VideoConnectError(`Network error while loading the video SDK: ${String(err)}`));
        },
      );
    }).catch((err: unknown) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

function toConnectError(err: unknown): VideoConnectError {
  if (err instanceof VideoConnectError) return err;
  const e = err as { code?: unknown; message?: unknown };
  return new VideoConnectError(
    typeof e?.message === 'string' ? e.message : String(err),
    typeof e?.code === 'number' ? e.code : undefined,
  );
}

/** Twilio Video rooms: connect with the options of docs/product-rules.md §7, then surface the remote participant's tracks. */
export const connectTwilio: VideoConnector = async (opts: ConnectOptions) => {
  const { token, events, signal } = opts;
  if (token.provider !== 'twilio') throw new VideoConnectError('Unexpected video provider', 20101);
  const Video = await loadTwilioVideo();
  if (signal.aborted) throw toConnectError(signal.reason);
  const pending = Video.connect(token.token, {
    name: token.roomName,
    audio: true,
    video: { width: 640, height: 480 },
    networkQuality: true,
  });
  const onAbort = () => pending.cancel();
  signal.addEventListener('abort', onAbort);
  let room: import('./twilio-video').Room;
  try {
    room = await pending;
  } catch (err) {
    throw signal.aborted ? toConnectError(signal.reason) : toConnectError(err);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }

  const localStream = new MediaStream();
  room.localParticipant.tracks.forEach((pub) => {
    const track = pub.track as { mediaStreamTrack?: MediaStreamTrack };
    if (track.mediaStreamTrack) localStream.addTrack(track.mediaStreamTrack);
  });

  const remoteStream = new MediaStream();
  const publish = () => events.onRemoteStream(remoteStream.getTracks().length ? remoteStream : null);
  const watch = (participant: import('./twilio-video').RemoteParticipant) => {
    participant.on('trackSubscribed', (track: import('./twilio-video').RemoteTrack) => {
      if (track.kind === 'audio' || track.kind === 'video') {
        remoteStream.addTrack(track.mediaStreamTrack);
        publish();
      }
    });
    participant.on('trackUnsubscribed', (track: import('./twilio-video').RemoteTrack) => {
      if (track.kind === 'audio' || track.kind === 'video') {
        remoteStream.removeTrack(track.mediaStreamTrack);
        publish();
      }
    });
    participant.tracks.forEach((pub) => {
      const t = pub.track;
      if (t && (t.kind === 'audio' || t.kind === 'video')) remoteStream.addTrack(t.mediaStreamTrack);
    });
    publish();
  };
  room.participants.forEach(watch);
  room.on('participantConnected', (p: import('./twilio-video').RemoteParticipant) => {
    watch(p);
    events.onRemoteJoined();
  });
  room.on('participantDisconnected', () => {
    if (room.participants.size === 0) {
      remoteStream.getTracks().forEach((t) => remoteStream.removeTrack(t));
      events.onRemoteStream(null);
      events.onRemoteLeft();
    }
  });
  room.on('disconnected', (_room: unknown, error?: { code?: number; message?: string }) => {
    events.onDisconnected(error ? toConnectError(error) : undefined);
  });

  const session: VideoSession = {
    localStream,
    setAudioEnabled: (on) =>
      room.localParticipant.audioTracks.forEach((pub) => (on ? pub.track.enable() : pub.track.disable())),
    setVideoEnabled: (on) =>
      room.localParticipant.videoTracks.forEach((pub) => (on ? pub.track.enable() : pub.track.disable())),
    disconnect: () => {
      room.removeAllListeners('disconnected');
      room.localParticipant.tracks.forEach((pub) => {
        const t = pub.track as { stop?: () => void };
        t.stop?.();
      });
      room.disconnect();
    },
  };
  return session;
};
