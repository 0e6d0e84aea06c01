import { isStreamOpen, onStreamEvent } from '../../../../lib/event-stream';
import { applyCallCodecs } from '../../lib/codecs';

/**
 * The pieces every p2p file shares: how a peer connection is made, how long a description waits for ICE
 * gathering, the session ids and the note that this tab answered a call.
 */

/**
 * How long a description waits for ICE gathering before it is sent. Host candidates (all a LAN or loopback
 * needs) are gathered in a few milliseconds and then travel inside the SDP, instead of one relayed request
 * each that the other side picks up a poll later; slower ones (STUN, TURN) still trickle after this window.
 */
export const ICE_GATHER_WINDOW_MS = 300;
/**
 * The same window while the event stream is open: a trickled candidate then reaches the other side within a
 * round trip instead of a poll later, so a description waits only for the host candidates (a few ms) and the
 * slower ones follow it.
 */
export const ICE_GATHER_WINDOW_STREAMING_MS = 40;
export const gatherWindow = () => (isStreamOpen() ? ICE_GATHER_WINDOW_STREAMING_MS : ICE_GATHER_WINDOW_MS);

/**
 * Waits for gathering within the window that fits the event stream now; a stream that opens meanwhile (a page
 * just reloaded) cuts the wait to the streaming window, counted from the start: a trickled candidate then
 * arrives within a round trip, so the description need not wait the whole 300 ms for it.
 */
export function gatheredForSending(pc: RTCPeerConnection, signal: AbortSignal): Promise<void> {
  if (isStreamOpen()) return iceGathered(pc, ICE_GATHER_WINDOW_STREAMING_MS, signal);
  const started = performance.now();
  const cut = new AbortController();
  const off = onStreamEvent('hello', () => {
    const left = ICE_GATHER_WINDOW_STREAMING_MS - (performance.now() - started);
    if (left <= 0) cut.abort();
    else setTimeout(() => cut.abort(), left);
  });
  return iceGathered(pc, ICE_GATHER_WINDOW_MS, AbortSignal.any([signal, cut.signal])).finally(off);
}

export const SIGNALLING_FAILED = 53000;
export const MEDIA_FAILED = 53405;
export const ROOM_NOT_FOUND = 53106;

export function userIdOf(identity: string): number {
  const n = Number(identity.replace(/^user-/, ''));
  return Number.isFinite(n) ? n : -1;
}

export function randomSid(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Resolves when the peer has gathered its candidates, after `ms` at most, or when `signal` aborts. */
export function iceGathered(pc: RTCPeerConnection, ms: number, signal: AbortSignal): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', check);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const check = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const timer = setTimeout(done, ms);
    pc.addEventListener('icegatheringstatechange', check);
    signal.addEventListener('abort', done);
  });
}

export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/** This tab answered the call: after a reload it asks for a fresh connection rather than answer old offers. */
const answeredKey = (callId: number) => `nagai:call-answered:${callId}`;
export function noteAnswered(callId: number) {
  try {
    sessionStorage.setItem(answeredKey(callId), '1');
  } catch {
    /* storage off: a reload then waits for the caller's next restart instead */
  }
}
export function answeredHere(callId: number): boolean {
  try {
    return sessionStorage.getItem(answeredKey(callId)) === '1';
  } catch {
    return false;
  }
}

/** One media transport for audio and video: half the candidates to gather and to check. */
const BUNDLE_POLICY: RTCBundlePolicy = 'max-bundle';

/**
 * A call's peer connection: one transport for audio and video; one send-and-receive transceiver per track
 * (addTrack, which every engine has, Safari included); video codecs in the order every engine takes
 * (lib/codecs.ts). With `pool`, the browser starts gathering (the relay's allocation too) at once, before
 * any description exists: a peer made while the call rings has its candidates ready when the offer comes.
 */
export function peerConfiguration(iceServers: RTCIceServer[], pool = false): RTCConfiguration {
  return {
    iceServers,
    bundlePolicy: BUNDLE_POLICY,
    rtcpMuxPolicy: 'require',
    ...(pool && iceServers.length ? { iceCandidatePoolSize: 1 } : {}),
  };
}

export function newPeer(
  iceServers: RTCIceServer[],
  localStream: MediaStream | Promise<MediaStream>,
  pool = false,
): RTCPeerConnection {
  const peer = new RTCPeerConnection(peerConfiguration(iceServers, pool));
  if ('then' in localStream) sendWhenCaptured(peer, localStream);
  else for (const track of localStream.getTracks()) peer.addTrack(track, localStream);
  applyCallCodecs(peer);
  return peer;
}

/**
 * The offering side's peer made before its camera is ready (Accept is instant, docs/product-rules.md §19): one
 * send-and-receive transceiver per kind (audio first, as addTrack would order them), so that the offer can be
 * made and sent at once; the capture's tracks take their senders' places the moment it arrives (replaceTrack
 * needs no new offer). Only for an offer: an answerer's transceivers come from the offer it sets.
 */
function sendWhenCaptured(peer: RTCPeerConnection, capture: Promise<MediaStream>) {
  const stream = new MediaStream();
  const senders = (['audio', 'video'] as const).map(
    (kind) => [kind, peer.addTransceiver(kind, { direction: 'sendrecv', streams: [stream] }).sender] as const,
  );
  capture.then(
    (captured) => {
      if (peer.signalingState === 'closed') return;
      for (const [kind, sender] of senders) {
        const track = captured.getTracks().find((t) => t.kind === kind);
        if (track) sender.replaceTrack(track).catch(() => undefined);
      }
    },
    () => undefined,
  );
}

/** The ICE server URLs a prepared peer was made with (its credentials may be older than the token's). */
export const preparedWith = new WeakMap<RTCPeerConnection, string>();
export const urlsOf = (servers: RTCIceServer[]) =>
  JSON.stringify(servers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls])).sort());

/** A peer made ahead that never had a description: adopted as it is by either side. */
export const untouched = (peer: RTCPeerConnection) =>
  peer.signalingState === 'stable' && !peer.localDescription && !peer.remoteDescription;

/** The peer sends exactly these tracks (a capture replaced since it was made means a fresh peer). */
export const sendsOnly = (peer: RTCPeerConnection, stream: MediaStream) =>
  peer.getSenders().every((s) => !s.track || stream.getTracks().includes(s.track));
