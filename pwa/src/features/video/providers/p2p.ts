import type { CallSignal } from '../../../../../api/contract/calls';
import { ApiError } from '../../../lib/api-client';
import { signallingApi } from '../api';
import { VideoConnectError, type ConnectOptions, type VideoConnector, type VideoSession } from './types';

/** Signal polling: quick while connecting (each hop of the offer/answer waits for it), relaxed afterwards. */
export const SIGNAL_POLL_CONNECTING_MS = 250;
export const SIGNAL_POLL_CONNECTED_MS = 1500;
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

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/**
 * WebRTC between the two browsers, signalling relayed by the API. The caller (customer) offers; every
 * offer carries a session id (`sid`) so a retried attempt replaces the old peer connection on both sides
 * and stale answers or candidates are ignored.
 */
export const connectP2p: VideoConnector = (opts: ConnectOptions) =>
  new Promise<VideoSession>((resolve, reject) => {
    const { callId, isCaller, token, events, signal } = opts;
    if (token.provider !== 'p2p') {
      reject(new VideoConnectError('Unexpected video provider', 20101));
      return;
    }
    if (!opts.localStream) {
      reject(new VideoConnectError('No local media', MEDIA_FAILED));
      return;
    }
    const localStream = opts.localStream;
    const myId = userIdOf(token.identity);
    const iceServers = (token.iceServers ?? []) as RTCIceServer[];
    const stop = new AbortController();
    let settled = false;
    let connectedOnce = false;
    let remoteGone = false;
    let cursor = 0;
    let sid: string | null = isCaller ? randomSid() : null;
    let pc!: RTCPeerConnection;
    let pending: RTCIceCandidateInit[] = [];

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

    const makePeer = () => {
      try {
        pc?.close();
      } catch {
        /* replaced */
      }
      pending = [];
      const peer = new RTCPeerConnection({ iceServers });
      for (const track of localStream.getTracks()) peer.addTrack(track, localStream);
      const remote = new MediaStream();
      peer.ontrack = (e) => {
        const stream = e.streams[0] ?? remote;
        if (!e.streams[0]) remote.addTrack(e.track);
        events.onRemoteStream(stream);
      };
      peer.onicecandidate = (e) => {
        if (e.candidate && sid) void send('candidate', { sid, candidate: e.candidate.toJSON() });
      };
      peer.onconnectionstatechange = () => {
        if (peer !== pc) return;
        switch (peer.connectionState) {
          case 'connected':
            if (!connectedOnce) {
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
          if (p.sid !== sid || pc.signalingState !== 'stable' || pc.remoteDescription) {
            sid = p.sid ?? randomSid();
            makePeer();
          }
          await pc.setRemoteDescription({ type: 'offer', sdp: p.sdp });
          await flushCandidates();
          const answer = await pc.createAnswer();
          await pc.setLocalDescription(answer);
          await send('answer', { sid, type: answer.type, sdp: answer.sdp });
          if (remoteGone) {
            remoteGone = false;
            events.onRemoteJoined();
          }
          return;
        }
        case 'answer':
          if (!isCaller || p.sid !== sid || !p.sdp || pc.signalingState !== 'have-local-offer') return;
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

    makePeer();
    void pollLoop();
    if (isCaller) {
      void (async () => {
        try {
          const offer = await pc.createOffer();
          await pc.setLocalDescription(offer);
          await send('offer', { sid, type: offer.type, sdp: offer.sdp });
        } catch (err) {
          finish(new VideoConnectError((err as Error).message, MEDIA_FAILED));
        }
      })();
    }
  });
