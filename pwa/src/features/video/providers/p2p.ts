import type { CallSignal } from '../../../../../api/contract/calls';
import { VIDEO_CONNECTION_MESSAGES } from '../../../../../api/contract/video';
import { ApiError } from '../../../lib/api-client';
import { fetchIceServers, signallingApi } from '../api';
import { applyCallCodecs } from '../lib/codecs';
import { HeldForCall } from '../lib/held-for-call';
import { markCall } from '../lib/marks';
import { isStreamOpen, onStreamEvent } from '../../../lib/event-stream';
import {
  CallEndedError,
  VideoConnectError,
  type ConnectOptions,
  type VideoConnector,
  type VideoSession,
} from './types';

/** Signal polling: quick while connecting (each hop of the offer/answer waits for it), relaxed afterwards. */
export const SIGNAL_POLL_CONNECTING_MS = 150;
/** The caller's poll while the call rings (up to 30 s), to learn of the accept within a quarter second. */
export const SIGNAL_POLL_RINGING_MS = 250;
export const SIGNAL_POLL_CONNECTED_MS = 1500;
/** While the event stream carries the signals, the poll only guards against a gap (stream down: full pace). */
export const SIGNAL_POLL_STREAMING_MS = 3000;
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
const gatherWindow = () => (isStreamOpen() ? ICE_GATHER_WINDOW_STREAMING_MS : ICE_GATHER_WINDOW_MS);
/** Consecutive failed signalling requests before the attempt counts as a signalling failure (53000). */
const SIGNAL_FAILURES_ALLOWED = 3;
/**
 * A signalling request that has not answered by then is given up and retried: when a network drops, its TCP
 * connection hangs rather than fails, and the mapping it used may be gone when the network returns.
 */
export const SIGNAL_REQUEST_TIMEOUT_MS = 5_000;
/** The poll while this side's own network is down: often enough to notice its return within a second. */
export const SIGNAL_POLL_OFFLINE_MS = 1_000;
/**
 * From the start of an attempt, how long a first connection may take before the call is given up as having
 * no network path (both sides behind strict NATs and no relay, or the relay unreachable). Connections that
 * can succeed do so in well under 2 s, even relayed over 300 ms round trips; Chromium itself declares such
 * an attempt failed only after about 15 s.
 */
export const NO_ROUTE_MS = 12_000;
/** Media gone this long after a drop ends the call ('connection lost'). */
export const MEDIA_LOSS_LIMIT_MS = 30_000;
/** While media is gone the caller restarts ICE this often (a new offer with fresh candidates). */
export const ICE_RESTART_EVERY_MS = 4_000;
/** A drop shorter than this often heals by itself (ICE keeps checking the old pairs): restart only after. */
const ICE_RESTART_AFTER_MS = 1_500;

const SIGNALLING_FAILED = 53000;
const MEDIA_FAILED = 53405;
const ROOM_NOT_FOUND = 53106;

function userIdOf(identity: string): number {
  const n = Number(identity.replace(/^user-/, ''));
  return Number.isFinite(n) ? n : -1;
}

function randomSid(): string {
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

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/** This tab answered the call: after a reload it asks for a fresh connection rather than answer old offers. */
const answeredKey = (callId: number) => `nagai:call-answered:${callId}`;
function noteAnswered(callId: number) {
  try {
    sessionStorage.setItem(answeredKey(callId), '1');
  } catch {
    /* storage off: a reload then waits for the caller's next restart instead */
  }
}
function answeredHere(callId: number): boolean {
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

function newPeer(iceServers: RTCIceServer[], localStream: MediaStream, pool = false): RTCPeerConnection {
  const peer = new RTCPeerConnection(peerConfiguration(iceServers, pool));
  for (const track of localStream.getTracks()) peer.addTrack(track, localStream);
  applyCallCodecs(peer);
  return peer;
}

/** The ICE server URLs a prepared peer was made with (its credentials may be older than the token's). */
const preparedWith = new WeakMap<RTCPeerConnection, string>();
const urlsOf = (servers: RTCIceServer[]) =>
  JSON.stringify(servers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls])).sort());

/**
 * What a peer connection prepared while the call rang has already done on the wire, for the connection that
 * adopts it after the accept: the session id of the offer (sent by the caller while it rang, received by the
 * one it rings), whether this side's description went out, the signals it handled, candidates waiting for a
 * remote description and the remote media it got.
 */
interface Ringing {
  callId: number;
  sid: string | null;
  /** This side's description went out: the caller's offer while it rang, the answer with the accept. */
  described: boolean;
  /** Candidates may be posted (the caller's offer was stored; the accept was). */
  canSend: boolean;
  /** Candidates gathered after the description, waiting until they may be posted. */
  outbox: RTCIceCandidateInit[];
  cursor: number;
  pending: RTCIceCandidateInit[];
  remote: MediaStream | null;
  /** Told of the remote media as soon as it exists (before the connection adopts the peer). */
  onRemote: ((stream: MediaStream) => void) | null;
  /** Signals are handled one at a time; the connection that adopts the peer continues this chain. */
  chain: Promise<void>;
  /** Stops listening (the connection took over, or the call ended unanswered). */
  stop: () => void;
}
const ringingOf = new WeakMap<RTCPeerConnection, Ringing>();

/** A prepared peer's ringing state before anything was sent or received (`sid`: the caller's own offer's). */
const newRinging = (callId: number, sid: string | null): Ringing => ({
  callId,
  sid,
  described: false,
  canSend: false,
  outbox: [],
  cursor: 0,
  pending: [],
  remote: null,
  onRemote: null,
  chain: Promise.resolve(),
  stop: () => undefined,
});

const postCandidate = (r: Ringing, candidate: RTCIceCandidateInit) =>
  void signallingApi.send(r.callId, 'candidate', { sid: r.sid, candidate }).catch(() => undefined);

/** Lets the prepared peer's trickled candidates go out (its description is on the server now). */
function allowSending(r: Ringing) {
  r.canSend = true;
  for (const c of r.outbox.splice(0)) postCandidate(r, c);
}

/**
 * Handles the other side's signals for a peer prepared while the call rings: the callee sets the caller's
 * offer (nothing goes out before its accept), the caller sets the answer the moment it arrives with the
 * accept, without waiting for its video token.
 */
async function handleRinging(peer: RTCPeerConnection, r: Ringing, s: CallSignal, isCaller: boolean) {
  const p = s.payload as { sid?: string; sdp?: string; candidate?: RTCIceCandidateInit };
  if (peer.signalingState === 'closed') return;
  if (s.kind === 'offer' && !isCaller && p.sdp && p.sid && p.sid !== r.sid && !r.described) {
    // The caller offered anew (its page reloaded while it rang): the newest offer counts.
    if (peer.signalingState === 'have-remote-offer') await peer.setRemoteDescription({ type: 'rollback' });
    r.sid = p.sid;
    r.pending = [];
    await peer.setRemoteDescription({ type: 'offer', sdp: p.sdp });
    markCall('offer-received');
  } else if (
    s.kind === 'answer' &&
    isCaller &&
    p.sdp &&
    p.sid === r.sid &&
    peer.signalingState === 'have-local-offer'
  ) {
    markCall('answer-received');
    await peer.setRemoteDescription({ type: 'answer', sdp: p.sdp });
  } else if (s.kind === 'candidate' && p.candidate && p.sid === r.sid) {
    if (peer.remoteDescription) await peer.addIceCandidate(p.candidate).catch(() => undefined);
    else r.pending.push(p.candidate);
    return;
  } else return;
  const waiting = r.pending;
  r.pending = [];
  for (const c of waiting) await peer.addIceCandidate(c).catch(() => undefined);
}

/** Listens for the call's signals on the prepared peer (the event stream, and `poll` when it is not open). */
function watchRinging(peer: RTCPeerConnection, r: Ringing, isCaller: boolean, poll: boolean) {
  const take = (s: CallSignal) => {
    if (s.id <= r.cursor) return;
    r.cursor = s.id;
    r.chain = r.chain.then(() => handleRinging(peer, r, s, isCaller)).catch(() => undefined);
  };
  peer.ontrack = (e) => {
    r.remote = e.streams[0] ?? r.remote ?? new MediaStream();
    if (!e.streams[0]) r.remote.addTrack(e.track);
    r.onRemote?.(r.remote);
  };
  peer.onconnectionstatechange = () => {
    if (peer.connectionState === 'connected') markCall('ice-connected');
  };
  peer.onicecandidate = (e) => {
    if (!e.candidate || !r.described) return;
    if (r.canSend) postCandidate(r, e.candidate.toJSON());
    else r.outbox.push(e.candidate.toJSON());
  };
  const ctl = new AbortController();
  // The one it rings first reads what the caller sent before it listened; until that read is in, the stream's
  // signals wait, so that they are taken in order. Taken before it, a candidate the stream brought would move
  // the cursor past the offer the read then returns, and the offer would be dropped (seen when the caller's
  // offer went out before the jeweller's page had its stream open).
  let early: CallSignal[] | null = poll ? [] : null;
  const off = onStreamEvent('signal', (e) => {
    if (e.callId !== r.callId) return;
    if (early) early.push(e);
    else take(e);
  });
  r.stop = () => {
    off();
    ctl.abort();
    r.onRemote = null;
  };
  if (!poll) return;
  // It keeps reading while no stream is open (and until the first read succeeds).
  void (async () => {
    while (!ctl.signal.aborted) {
      if (early || !isStreamOpen()) {
        try {
          const res = await signallingApi.list(r.callId, r.cursor, ctl.signal);
          res.signals.forEach(take);
          const waiting = early ?? [];
          early = null;
          waiting.forEach(take);
          if (res.status !== 'pending' && res.status !== 'ringing') return;
        } catch {
          /* asked again on the next round */
        }
      }
      await sleep(SIGNAL_POLL_RINGING_PREPARE_MS, ctl.signal);
    }
  })();
}

/** The callee's read of the caller's ringing-time signals without an event stream. */
const SIGNAL_POLL_RINGING_PREPARE_MS = 1_000;

/**
 * Tells `onRemote` of a prepared peer's remote media now and whenever it changes until a connection adopts the
 * peer: the call shows the other side's video the moment it arrives, whatever is still on its way (the video
 * token). Nothing happens for a peer that was not prepared while ringing.
 */
export function watchPreparedRemote(
  peer: RTCPeerConnection | null,
  onRemote: (stream: MediaStream) => void,
): void {
  const r = peer ? ringingOf.get(peer) : undefined;
  if (!r) return;
  r.onRemote = onRemote;
  if (r.remote) onRemote(r.remote);
}

/** Closes a peer prepared while ringing that nobody adopted, and stops its listening. */
export function closePreparedPeer(peer: RTCPeerConnection | null | undefined): void {
  if (!peer) return;
  ringingOf.get(peer)?.stop();
  peer.close();
}

/**
 * The caller's peer connection made while the call still rings: its offer is created, its candidates gathered
 * (host, and with the ICE servers of GET /_api/video/ice-servers, reflexive and relay ones) and, given the
 * call, the offer is sent at once (the API keeps a ringing call's offer for the one it rings), later
 * candidates trickling after it. The answer then comes with the accept and is set the moment it arrives, so
 * after the accept only the checks remain. `connectP2p` adopts the peer when the token lists the same servers,
 * and otherwise closes it and offers afresh. Resolves null if the browser refused.
 */
export async function prepareCallerPeer(
  localStream: MediaStream,
  iceServers: RTCIceServer[] = [],
  callId?: number,
): Promise<RTCPeerConnection | null> {
  let peer: RTCPeerConnection | null = null;
  try {
    peer = newPeer(iceServers, localStream);
    preparedWith.set(peer, urlsOf(iceServers));
    const r = callId === undefined ? null : newRinging(callId, randomSid());
    if (r) {
      ringingOf.set(peer, r);
      watchRinging(peer, r, true, false);
    }
    await peer.setLocalDescription(await peer.createOffer());
    markCall('offer-prepared');
    await iceGathered(peer, ICE_GATHER_WINDOW_MS, new AbortController().signal);
    const local = peer.localDescription;
    if (r && local && peer.signalingState === 'have-local-offer') {
      r.described = true;
      try {
        await signallingApi.send(r.callId, 'offer', { sid: r.sid, type: local.type, sdp: local.sdp });
        markCall('offer-sent-ringing');
        allowSending(r);
      } catch {
        // Not kept (the call ended, or an older server): the connection sends the offer after the accept.
        r.described = false;
        r.outbox = [];
      }
    }
    return peer;
  } catch {
    closePreparedPeer(peer);
    return null;
  }
}

/**
 * The caller's prepared peer, started the moment the server answers the initiation (the capture began at the
 * tap, the answer carried the ICE servers), before the call's screen has mounted; the video room takes it.
 * One is held at a time.
 */
const heldOffer = new HeldForCall<RTCPeerConnection | null>(closePreparedPeer);

export function prepareCallerAhead(callId: number, media: Promise<MediaStream>): void {
  if (heldOffer.peek(callId)) return;
  heldOffer.release();
  const servers = fetchIceServers(callId).then(
    (res) => res.iceServers as RTCIceServer[],
    () => [] as RTCIceServer[],
  );
  heldOffer.hold(
    callId,
    Promise.all([media, servers]).then(
      ([stream, iceServers]) => prepareCallerPeer(stream, iceServers, callId),
      () => null,
    ),
  );
}

/** Hands the caller's peer prepared for the call to its video room (null when none was). */
export function takeCallerPeer(callId: number): Promise<RTCPeerConnection | null> | null {
  return heldOffer.take(callId);
}

/** Closes a caller's prepared peer that no video room took (the call ended first); only the given call's if set. */
export function releaseCallerPeer(callId?: number): void {
  heldOffer.release(callId);
}

/**
 * The answering side's peer connection, made while the call rings with the camera and microphone captured for
 * it (lib/local-media.ts) and its own ring-time ICE servers, its relay allocated ahead (a candidate pool). It
 * reads the offer the caller sent while it rang and sets it; nothing goes out before the accept, which takes
 * the answer with it (`answerForAccept`). At the accept only the answer's way to the caller and the checks
 * remain. One is held at a time; a call that stops ringing without an answer closes it (releaseAnswerPeer).
 */
const heldAnswer = new HeldForCall<RTCPeerConnection | null>(closePreparedPeer);
/** The latest call's prepared peer, also once the call's video room took it (for the accept's answer). */
let answering: { callId: number; promise: Promise<RTCPeerConnection | null> } | null = null;

export function prepareAnswerPeer(callId: number, media: Promise<MediaStream>): void {
  if (heldAnswer.peek(callId)) return;
  releaseAnswerPeer();
  const servers = fetchIceServers(callId).then(
    (res) => res.iceServers as RTCIceServer[],
    () => [] as RTCIceServer[],
  );
  const entry = { callId, promise: Promise.resolve<RTCPeerConnection | null>(null) };
  entry.promise = Promise.all([media, servers]).then(
    ([stream, iceServers]) => {
      try {
        const peer = newPeer(iceServers, stream, true);
        preparedWith.set(peer, urlsOf(iceServers));
        const r = newRinging(callId, null);
        ringingOf.set(peer, r);
        // Released before it was ready: nothing to listen for.
        if (answering === entry) watchRinging(peer, r, false, true);
        markCall('answer-peer-prepared');
        return peer;
      } catch {
        return null;
      }
    },
    () => null,
  );
  heldAnswer.hold(callId, entry.promise);
  answering = entry;
}

/**
 * At the accept: the answer to the offer the caller sent while it rang, made on the prepared peer (its relay
 * candidates already gathered), for the accept request to carry. Null when there is none ready within
 * `waitMs` (no offer yet, no prepared peer): the connection then answers after the accept, as before.
 */
export async function answerForAccept(callId: number, waitMs = 300): Promise<Record<string, unknown> | null> {
  const held = answering;
  if (held?.callId !== callId) return null;
  const giveUp = new AbortController();
  const timer = setTimeout(() => giveUp.abort(), waitMs);
  try {
    const peer = await Promise.race([
      held.promise,
      new Promise<null>((resolve) => giveUp.signal.addEventListener('abort', () => resolve(null))),
    ]);
    const r = peer ? ringingOf.get(peer) : undefined;
    if (!peer || !r) return null;
    let answer: Record<string, unknown> | null = null;
    const made = (r.chain = r.chain
      .then(async () => {
        if (giveUp.signal.aborted || peer.signalingState !== 'have-remote-offer' || !r.sid) return;
        await peer.setLocalDescription(await peer.createAnswer());
        markCall('answer-created');
        await iceGathered(peer, ICE_GATHER_WINDOW_STREAMING_MS, giveUp.signal);
        const local = peer.localDescription;
        // Too late for the accept: the connection sends this answer once it adopts the peer.
        if (!local || giveUp.signal.aborted) return;
        r.described = true;
        answer = { sid: r.sid, type: local.type, sdp: local.sdp };
      })
      .catch(() => undefined));
    await Promise.race([made, new Promise((resolve) => giveUp.signal.addEventListener('abort', resolve))]);
    return answer;
  } finally {
    clearTimeout(timer);
  }
}

/** The accept that carried the answer was stored: later candidates may follow it. */
export function answerAccepted(callId: number): void {
  noteAnswered(callId);
  if (answering?.callId !== callId) return;
  void answering.promise.then((peer) => {
    const r = peer ? ringingOf.get(peer) : undefined;
    if (r?.callId === callId && r.described) allowSending(r);
  });
}

/** Hands the prepared answering peer for the call to the connection (null when none was prepared). */
export function takeAnswerPeer(callId: number): Promise<RTCPeerConnection | null> | null {
  return heldAnswer.take(callId);
}

/** Closes a prepared answering peer nobody took (declined, missed, cancelled); only the given call's if set. */
export function releaseAnswerPeer(callId?: number): void {
  if (callId === undefined || answering?.callId === callId) answering = null;
  heldAnswer.release(callId);
}

/** A peer made ahead that never had a description: adopted as it is by either side. */
const untouched = (peer: RTCPeerConnection) =>
  peer.signalingState === 'stable' && !peer.localDescription && !peer.remoteDescription;

/** The peer sends exactly these tracks (a capture replaced since it was made means a fresh peer). */
const sendsOnly = (peer: RTCPeerConnection, stream: MediaStream) =>
  peer.getSenders().every((s) => !s.track || stream.getTracks().includes(s.track));

/**
 * WebRTC between the two browsers, signalling relayed by the API. The caller (customer) offers; every
 * offer carries a session id (`sid`) so a retried attempt replaces the old peer connection on both sides
 * and stale answers or candidates are ignored.
 */
export const connectP2p: VideoConnector = (opts: ConnectOptions) =>
  new Promise<VideoSession>((resolve, reject) => {
    const { callId, isCaller, token, events, signal } = opts;
    const iceServers = (token.provider === 'p2p' ? (token.iceServers ?? []) : []) as RTCIceServer[];
    // A peer prepared while ringing fits if it was made with the servers this attempt uses.
    // The callee's, made while it rang, fits if it never had a description and sends this capture.
    // One that already sent its description while it rang (or with the accept) is adopted with what it did.
    let warm: RTCPeerConnection | null = opts.preparedPeer ?? null;
    let ring = warm ? ringingOf.get(warm) : undefined;
    if (
      warm &&
      (warm.signalingState === 'closed' ||
        (isCaller
          ? preparedWith.get(warm) !== urlsOf(iceServers) ||
            !(warm.signalingState === 'have-local-offer' || (ring?.described && warm.remoteDescription))
          : !(untouched(warm) || (ring?.sid && ring.callId === callId)) ||
            !opts.localStream ||
            !sendsOnly(warm, opts.localStream)))
    ) {
      closePreparedPeer(warm);
      warm = null;
      ring = undefined;
    }
    ring?.stop();
    // The token's fresh relay credentials serve any later gathering (an ICE restart an hour on). The callee's
    // peer had none: it starts gathering with them now (a candidate pool), while the offer is on its way.
    if (warm && iceServers.length) {
      const config = { ...warm.getConfiguration(), iceServers };
      try {
        warm.setConfiguration(isCaller ? config : { ...config, iceCandidatePoolSize: 1 });
      } catch {
        try {
          warm.setConfiguration(config);
        } catch {
          /* kept with the credentials it was made with */
        }
      }
    }
    if (token.provider !== 'p2p') {
      closePreparedPeer(warm);
      reject(new VideoConnectError('Unexpected video provider', 20101));
      return;
    }
    if (!opts.localStream) {
      closePreparedPeer(warm);
      reject(new VideoConnectError('No local media', MEDIA_FAILED));
      return;
    }
    const localStream = opts.localStream;
    const myId = userIdOf(token.identity);
    const stop = new AbortController();
    let settled = false;
    let connectedOnce = false;
    let remoteGone = false;
    // Media stopped without a hang-up, since this time (epoch ms); null while media flows.
    let lostAt: number | null = null;
    let localOffline = false;
    let lastRestart = 0;
    let reconnects = 0;
    let watchdog: ReturnType<typeof setInterval> | undefined;
    let cursor = 0;
    let sid: string | null = isCaller ? randomSid() : null;
    let pc!: RTCPeerConnection;
    let pending: RTCIceCandidateInit[] = [];
    // Candidates gathered before this side's description went out travel inside it; later ones trickle.
    let trickling = false;

    const finish = (err?: VideoConnectError) => {
      if (!settled) {
        settled = true;
        if (err) {
          close();
          reject(err);
        } else resolve(session);
        return;
      }
      // After the attempt resolved, failures end the room.
      if (err) {
        close();
        events.onDisconnected(err);
      }
    };

    const close = () => {
      stop.abort();
      unsubscribe.forEach((u) => u());
      clearTimeout(noRouteTimer);
      clearInterval(watchdog);
      try {
        pc?.close();
      } catch {
        /* already closed */
      }
    };

    const send = (kind: 'offer' | 'answer' | 'candidate' | 'bye', payload: Record<string, unknown>) =>
      signallingApi.send(callId, kind, payload).catch((err: unknown) => {
        if (stop.signal.aborted || kind === 'bye') return;
        // While reconnecting a lost request is expected: the next restart sends afresh.
        if (lostAt !== null) {
          setOffline(true);
          return;
        }
        finish(new VideoConnectError((err as Error).message || 'Signalling failed', SIGNALLING_FAILED));
      });

    const setOffline = (offline: boolean) => {
      if (offline === localOffline) return;
      localOffline = offline;
      if (lostAt !== null) events.onReconnecting?.({ since: lostAt, localOffline });
    };

    /** A new offer with fresh ICE credentials on the same peer connection: the call goes on, nobody redials. */
    const restartIce = async () => {
      lastRestart = Date.now();
      const peer = pc;
      try {
        // An earlier restart's offer that got no answer (lost while offline) is taken back first.
        if (peer.signalingState === 'have-local-offer') await peer.setLocalDescription({ type: 'rollback' });
        if (peer.signalingState !== 'stable') return;
        trickling = false;
        await peer.setLocalDescription(await peer.createOffer({ iceRestart: true }));
        markCall('ice-restart');
        await iceGathered(peer, gatherWindow(), stop.signal);
        if (peer !== pc || stop.signal.aborted) return;
        const local = peer.localDescription;
        if (!local) return;
        trickling = true;
        await send('offer', { sid, restart: true, type: local.type, sdp: local.sdp });
      } catch {
        /* tried again on the next tick while media is gone */
      }
    };

    /** Media stopped without a hang-up: say so, restart ICE now and then, give up after the limit. */
    const mediaLost = () => {
      if (lostAt !== null || !connectedOnce) return;
      lostAt = Date.now();
      markCall('media-lost');
      events.onReconnecting?.({ since: lostAt, localOffline });
      clearInterval(watchdog);
      watchdog = setInterval(() => {
        if (lostAt === null || stop.signal.aborted) {
          clearInterval(watchdog);
          return;
        }
        const gone = Date.now() - lostAt;
        if (gone >= MEDIA_LOSS_LIMIT_MS) {
          finish(new CallEndedError(VIDEO_CONNECTION_MESSAGES.connectionLost, 'connection_lost'));
          return;
        }
        // The caller offers; the callee answers whatever restart arrives.
        if (
          isCaller &&
          !localOffline &&
          gone >= ICE_RESTART_AFTER_MS &&
          Date.now() - lastRestart >= ICE_RESTART_EVERY_MS
        ) {
          void restartIce();
        }
      }, 500);
    };

    const mediaBack = () => {
      if (lostAt === null) return;
      lostAt = null;
      reconnects++;
      clearInterval(watchdog);
      markCall('media-back');
      events.onReconnected?.();
    };

    // No path at all (strict NATs and no relay): say so in seconds instead of waiting on a spinner.
    const noRouteTimer = setTimeout(() => {
      if (!connectedOnce) finish(new CallEndedError(VIDEO_CONNECTION_MESSAGES.noRoute, 'no_route'));
    }, NO_ROUTE_MS);

    /** A fresh peer connection (or the one prepared while ringing), replacing the current one. */
    const makePeer = (adopt: RTCPeerConnection | null = null) => {
      try {
        pc?.close();
      } catch {
        /* replaced */
      }
      pending = [];
      trickling = false;
      const peer = adopt ?? newPeer(iceServers, localStream);
      const remote = new MediaStream();
      peer.ontrack = (e) => {
        const stream = e.streams[0] ?? remote;
        if (!e.streams[0]) remote.addTrack(e.track);
        events.onRemoteStream(stream);
      };
      peer.onicecandidate = (e) => {
        if (peer === pc && trickling && e.candidate && sid)
          void send('candidate', { sid, candidate: e.candidate.toJSON() });
      };
      const onState = () => {
        if (peer !== pc) return;
        switch (peer.connectionState) {
          case 'connected':
            if (!connectedOnce) {
              markCall('ice-connected');
              connectedOnce = true;
              clearTimeout(noRouteTimer);
              finish();
            } else {
              mediaBack();
              if (remoteGone) {
                remoteGone = false;
                events.onRemoteJoined();
              }
            }
            break;
          case 'disconnected':
            // A network dropped or changed (a hang-up arrives as 'bye'): reconnect, never redial.
            if (connectedOnce && !remoteGone) mediaLost();
            break;
          case 'failed':
            if (!connectedOnce) finish(new CallEndedError(VIDEO_CONNECTION_MESSAGES.noRoute, 'no_route'));
            else if (!remoteGone) mediaLost();
            break;
          default:
            break;
        }
      };
      peer.onconnectionstatechange = onState;
      pc = peer;
      // A peer prepared while it rang may be connected already (or have failed): its state counts now.
      if (adopt && adopt.connectionState !== 'new') onState();
      return peer;
    };

    /** Sets and sends this side's description once gathering finished (or its window passed). */
    const describe = async (kind: 'offer' | 'answer') => {
      const peer = pc;
      const current = peer.localDescription;
      // An offer prepared while ringing is sent as it is, and so is an answer made at the accept.
      const reuse =
        kind === 'answer'
          ? peer.signalingState !== 'have-remote-offer'
          : peer.signalingState === 'have-local-offer';
      let desc: RTCSessionDescriptionInit;
      if (current && reuse) desc = current;
      else {
        desc = kind === 'offer' ? await peer.createOffer() : await peer.createAnswer();
        await peer.setLocalDescription(desc);
      }
      markCall(`${kind}-created`);
      await iceGathered(peer, gatherWindow(), stop.signal);
      if (peer !== pc || stop.signal.aborted) return;
      // Read and flip in one task: a candidate is in this SDP or is trickled, never lost between the two.
      const local = peer.localDescription ?? desc;
      trickling = true;
      await send(kind, { sid, type: local.type, sdp: local.sdp });
      markCall(`${kind}-posted`);
    };

    const flushCandidates = async () => {
      const list = pending;
      pending = [];
      for (const c of list) await pc.addIceCandidate(c).catch(() => undefined);
    };

    const handle = async (s: CallSignal) => {
      const p = s.payload as {
        sid?: string;
        type?: RTCSdpType;
        sdp?: string;
        candidate?: RTCIceCandidateInit;
      };
      switch (s.kind) {
        case 'offer': {
          if (isCaller || !p.sdp) return;
          markCall('offer-received');
          // An ICE restart of this session renegotiates the same peer connection; anything else starts anew.
          const restart =
            (p as { restart?: boolean }).restart === true && p.sid === sid && !!pc.remoteDescription;
          if (restart) trickling = false;
          else if (p.sid !== sid || pc.signalingState !== 'stable' || pc.remoteDescription) {
            // A peer that never had a description (the one prepared while it rang) answers the first offer.
            const fresh = untouched(pc) && sid === null;
            sid = p.sid ?? randomSid();
            if (!fresh) makePeer();
          }
          await pc.setRemoteDescription({ type: 'offer', sdp: p.sdp });
          await flushCandidates();
          await describe('answer');
          noteAnswered(callId);
          if (remoteGone) {
            remoteGone = false;
            events.onRemoteJoined();
          }
          return;
        }
        case 'answer':
          if (!isCaller || p.sid !== sid || !p.sdp || pc.signalingState !== 'have-local-offer') return;
          markCall('answer-received');
          await pc.setRemoteDescription({ type: 'answer', sdp: p.sdp });
          await flushCandidates();
          return;
        case 'candidate':
          // The other side reloaded its page and waits: a fresh connection at once (its old one is gone).
          if ((p as { rejoin?: boolean }).rejoin) {
            if (isCaller && connectedOnce) {
              sid = randomSid();
              makePeer();
              void describe('offer').catch(() => undefined);
            }
            return;
          }
          if (p.sid !== sid || !p.candidate) return;
          if (pc.remoteDescription) await pc.addIceCandidate(p.candidate).catch(() => undefined);
          else pending.push(p.candidate);
          return;
        case 'bye':
          if (!remoteGone) {
            remoteGone = true;
            events.onRemoteLeft();
          }
          return;
      }
    };

    /**
     * Signals are handled one at a time, in id order, whether the poll or the event stream brought them; an
     * id already handled is skipped, so the two paths never double a signal and a gap in one is filled by the
     * other.
     */
    let chain: Promise<void> = Promise.resolve();
    const enqueue = (fn: () => Promise<void>) =>
      (chain = chain.then(fn).catch((err: unknown) => {
        if (!stop.signal.aborted) console.warn('signal handling failed', err);
      }));
    const take = async (s: CallSignal) => {
      if (s.id <= cursor) return;
      cursor = s.id;
      if (s.fromUserId !== myId) await handle(s);
    };
    // Stream events that arrive before the first poll answered wait for it (it decides where to start).
    let polledOnce = false;
    let early: CallSignal[] = [];
    let poke: (() => void) | null = null;
    const wake = () => poke?.();
    const meetingOver = () => {
      if (!settled) finish(new VideoConnectError('Room not found', ROOM_NOT_FOUND));
      else {
        close();
        events.onDisconnected();
      }
    };
    const unsubscribe = [
      onStreamEvent('signal', (e) => {
        if (e.callId !== callId) return;
        if (!polledOnce) early.push(e);
        else void enqueue(() => take(e));
      }),
      onStreamEvent('call', (e) => {
        // The call is over on the server: a clean end of the meeting, as the poll would find.
        if (e.callId === callId && e.status !== 'active') void enqueue(async () => meetingOver());
      }),
      // A stream (re)opened: poll once now for anything it could not carry.
      onStreamEvent('hello', wake),
    ];

    const pollLoop = async () => {
      let failures = 0;
      while (!stop.signal.aborted) {
        try {
          const res = await signallingApi.list(
            callId,
            cursor,
            AbortSignal.any([stop.signal, AbortSignal.timeout(SIGNAL_REQUEST_TIMEOUT_MS)]),
          );
          failures = 0;
          setOffline(false);
          await enqueue(async () => {
            const fresh = res.signals.filter((s) => s.id > cursor);
            // A page that joins (or rejoins after a reload) answers only the other side's latest offer: what
            // came before it belongs to a connection that no longer exists.
            let batch = fresh;
            if (!polledOnce && !isCaller) {
              const lastOffer = batch.findLastIndex((s) => s.fromUserId !== myId && s.kind === 'offer');
              if (lastOffer >= 0) batch = batch.slice(lastOffer);
              // This tab answered the call before (the page was reloaded): that connection went with the old
              // page, so ask the caller for a fresh one instead of answering a stale offer.
              if (answeredHere(callId)) {
                batch = [];
                void send('candidate', { sid: null, rejoin: true });
              }
            }
            polledOnce = true;
            for (const s of fresh) cursor = Math.max(cursor, s.id);
            for (const s of batch) {
              if (s.fromUserId === myId) continue;
              await handle(s);
            }
            const waiting = early;
            early = [];
            for (const s of waiting) await take(s);
          });
          if (stop.signal.aborted) return;
          if (res.status !== 'active') {
            meetingOver();
            return;
          }
        } catch (err) {
          if (stop.signal.aborted) return;
          if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
            // Not a participant of an active call any more: the room is gone.
            if (!settled) finish(new VideoConnectError(err.message, ROOM_NOT_FOUND));
            else {
              close();
              events.onDisconnected();
            }
            return;
          }
          // Once connected, a network that is gone for a while is the watchdog's to judge, not the poll's.
          if (settled) {
            setOffline(true);
            await sleep(SIGNAL_POLL_OFFLINE_MS, stop.signal);
            continue;
          }
          if (++failures >= SIGNAL_FAILURES_ALLOWED) {
            finish(new VideoConnectError((err as Error).message || 'Signalling failed', SIGNALLING_FAILED));
            return;
          }
        }
        const pace = isStreamOpen()
          ? SIGNAL_POLL_STREAMING_MS
          : connectedOnce
            ? SIGNAL_POLL_CONNECTED_MS
            : SIGNAL_POLL_CONNECTING_MS;
        await new Promise<void>((resolve) => {
          poke = resolve;
          void sleep(pace, stop.signal).then(resolve);
        });
        poke = null;
      }
    };

    const session: VideoSession = {
      localStream,
      setAudioEnabled: (on) => localStream.getAudioTracks().forEach((t) => (t.enabled = on)),
      setVideoEnabled: (on) => localStream.getVideoTracks().forEach((t) => (t.enabled = on)),
      disconnect: ({ hangUp = false } = {}) => {
        if (hangUp) void signallingApi.send(callId, 'bye', { sid }).catch(() => undefined);
        close();
      },
      peer: () => (stop.signal.aborted ? null : pc),
      reconnects: () => reconnects,
    };

    signal.addEventListener('abort', () => {
      if (!settled) {
        settled = true;
        close();
        reject(signal.reason instanceof Error ? signal.reason : new VideoConnectError('Aborted'));
      }
    });

    makePeer(warm);
    if (ring) {
      // Go on from where the prepared peer is: its session, the signals it handled, its remote media.
      sid = ring.sid ?? sid;
      cursor = ring.cursor;
      pending = ring.pending;
      trickling = ring.described;
      chain = ring.chain;
      polledOnce = true;
      if (ring.remote) events.onRemoteStream(ring.remote);
      markCall('prepared-adopted');
      if (!isCaller && ring.sid && !ring.described) {
        // It had the offer but the accept went without the answer: answer now.
        void enqueue(async () => {
          await describe('answer');
          noteAnswered(callId);
        });
      }
    }
    void pollLoop();
    if (isCaller && !ring?.described) {
      void (async () => {
        try {
          await describe('offer');
        } catch (err) {
          finish(new VideoConnectError((err as Error).message, MEDIA_FAILED));
        }
      })();
    }
  });
