import type { CallSignal } from '../../../../../api/contract/calls';
import { ApiError } from '../../../lib/api-client';
import { signallingApi } from '../api';
import { markCall } from '../lib/marks';
import { VideoConnectError, type ConnectOptions, type VideoConnector, type VideoSession } from './types';

/** Signal polling: quick while connecting (each hop of the offer/answer waits for it), relaxed afterwards. */
export const SIGNAL_POLL_CONNECTING_MS = 150;
/** The caller's poll while the call rings (up to 30 s), to learn of the accept within a quarter second. */
export const SIGNAL_POLL_RINGING_MS = 250;
export const SIGNAL_POLL_CONNECTED_MS = 1500;
/**
 * How long a description waits for ICE gathering before it is sent. Host candidates (all a LAN or loopback
 * needs) are gathered in a few milliseconds and then travel inside the SDP, instead of one relayed request
 * each that the other side picks up a poll later; slower ones (STUN, TURN) still trickle after this window.
 */
export const ICE_GATHER_WINDOW_MS = 300;
/** Consecutive failed signalling requests before the attempt counts as a signalling failure (53000). */
const SIGNAL_FAILURES_ALLOWED = 3;

const SIGNALLING_FAILED = 53000;
const MEDIA_FAILED = 53405;
const ROOM_NOT_FOUND = 53106;
const DISCONNECTED = 53118;

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

/** One media transport for audio and video: half the candidates to gather and to check. */
const BUNDLE_POLICY: RTCBundlePolicy = 'max-bundle';

function newPeer(iceServers: RTCIceServer[], localStream: MediaStream): RTCPeerConnection {
  const peer = new RTCPeerConnection({ iceServers, bundlePolicy: BUNDLE_POLICY });
  for (const track of localStream.getTracks()) peer.addTrack(track, localStream);
  return peer;
}

/**
 * The caller's peer connection made while the call still rings: its offer is created and its host
 * candidates gathered before the seller accepts, so only the relay hops remain after the accept. It is
 * made without ICE servers (the token that carries them is issued only once the call is active):
 * `connectP2p` adopts it when the token has none (one machine, a LAN) and otherwise closes it and offers
 * afresh. Resolves null if the browser refused.
 */
export async function prepareCallerPeer(localStream: MediaStream): Promise<RTCPeerConnection | null> {
  let peer: RTCPeerConnection | null = null;
  try {
    peer = newPeer([], localStream);
    await peer.setLocalDescription(await peer.createOffer());
    markCall('offer-prepared');
    await iceGathered(peer, ICE_GATHER_WINDOW_MS, new AbortController().signal);
    return peer;
  } catch {
    peer?.close();
    return null;
  }
}

/**
 * WebRTC between the two browsers, signalling relayed by the API. The caller (customer) offers; every
 * offer carries a session id (`sid`) so a retried attempt replaces the old peer connection on both sides
 * and stale answers or candidates are ignored.
 */
export const connectP2p: VideoConnector = (opts: ConnectOptions) =>
  new Promise<VideoSession>((resolve, reject) => {
    const { callId, isCaller, token, events, signal } = opts;
    const iceServers = (token.provider === 'p2p' ? (token.iceServers ?? []) : []) as RTCIceServer[];
    // A peer prepared while ringing fits only if nothing but host candidates is wanted.
    let warm: RTCPeerConnection | null = opts.preparedPeer ?? null;
    if (warm && (!isCaller || iceServers.length > 0 || warm.signalingState !== 'have-local-offer')) {
      warm.close();
      warm = null;
    }
    if (token.provider !== 'p2p') {
      warm?.close();
      reject(new VideoConnectError('Unexpected video provider', 20101));
      return;
    }
    if (!opts.localStream) {
      warm?.close();
      reject(new VideoConnectError('No local media', MEDIA_FAILED));
      return;
    }
    const localStream = opts.localStream;
    const myId = userIdOf(token.identity);
    const stop = new AbortController();
    let settled = false;
    let connectedOnce = false;
    let remoteGone = false;
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
      try {
        pc?.close();
      } catch {
        /* already closed */
      }
    };

    const send = (kind: 'offer' | 'answer' | 'candidate' | 'bye', payload: Record<string, unknown>) =>
      signallingApi.send(callId, kind, payload).catch((err: unknown) => {
        if (stop.signal.aborted || kind === 'bye') return;
        finish(new VideoConnectError((err as Error).message || 'Signalling failed', SIGNALLING_FAILED));
      });

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
      peer.onconnectionstatechange = () => {
        if (peer !== pc) return;
        switch (peer.connectionState) {
          case 'connected':
            if (!connectedOnce) {
              markCall('ice-connected');
              connectedOnce = true;
              finish();
            } else if (remoteGone) {
              remoteGone = false;
              events.onRemoteJoined();
            }
            break;
          case 'disconnected':
            if (connectedOnce && !remoteGone) {
              remoteGone = true;
              events.onRemoteLeft();
            }
            break;
          case 'failed':
            if (!connectedOnce) finish(new VideoConnectError('ICE connection failed', MEDIA_FAILED));
            else if (!remoteGone) {
              remoteGone = true;
              events.onRemoteLeft();
            }
            break;
          default:
            break;
        }
      };
      pc = peer;
      return peer;
    };

    /** Sets and sends this side's description once gathering finished (or its window passed). */
    const describe = async (kind: 'offer' | 'answer') => {
      const peer = pc;
      let desc: RTCSessionDescriptionInit | null = peer.localDescription;
      // An offer prepared while ringing is sent as it is.
      if (kind === 'answer' || peer.signalingState !== 'have-local-offer' || !desc) {
        desc = kind === 'offer' ? await peer.createOffer() : await peer.createAnswer();
        await peer.setLocalDescription(desc);
      }
      markCall(`${kind}-created`);
      await iceGathered(peer, ICE_GATHER_WINDOW_MS, stop.signal);
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
          if (p.sid !== sid || pc.signalingState !== 'stable' || pc.remoteDescription) {
            sid = p.sid ?? randomSid();
            makePeer();
          }
          await pc.setRemoteDescription({ type: 'offer', sdp: p.sdp });
          await flushCandidates();
          await describe('answer');
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

    const pollLoop = async () => {
      let failures = 0;
      while (!stop.signal.aborted) {
        try {
          const res = await signallingApi.list(callId, cursor, stop.signal);
          failures = 0;
          for (const s of res.signals) {
            cursor = Math.max(cursor, s.id);
            if (s.fromUserId === myId) continue;
            await handle(s);
          }
          if (res.status !== 'active') {
            // The call is over on the server: a clean end of the meeting.
            if (!settled) finish(new VideoConnectError('Room not found', ROOM_NOT_FOUND));
            else {
              close();
              events.onDisconnected();
            }
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
          if (++failures >= SIGNAL_FAILURES_ALLOWED) {
            finish(
              new VideoConnectError(
                (err as Error).message || 'Signalling failed',
                settled ? DISCONNECTED : SIGNALLING_FAILED,
              ),
            );
            return;
          }
        }
        await sleep(connectedOnce ? SIGNAL_POLL_CONNECTED_MS : SIGNAL_POLL_CONNECTING_MS, stop.signal);
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
    };

    signal.addEventListener('abort', () => {
      if (!settled) {
        settled = true;
        close();
        reject(signal.reason instanceof Error ? signal.reason : new VideoConnectError('Aborted'));
      }
    });

    makePeer(warm);
    void pollLoop();
    if (isCaller) {
      void (async () => {
        try {
          await describe('offer');
        } catch (err) {
          finish(new VideoConnectError((err as Error).message, MEDIA_FAILED));
        }
      })();
    }
  });
