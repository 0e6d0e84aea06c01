import type { CallSignal } from '../../../../../../api/contract/calls';
import { VIDEO_CONNECTION_MESSAGES } from '../../../../../../api/contract/video';
import { signallingApi } from '../../api';
import { markCall } from '../../lib/marks';
import {
  CallEndedError,
  VideoConnectError,
  type ConnectOptions,
  type VideoConnector,
  type VideoSession,
} from '../types';
import type { Attempt } from './attempt';
import { watchMedia } from './ice-restart';
import {
  MEDIA_FAILED,
  SIGNALLING_FAILED,
  gatheredForSending,
  newPeer,
  noteAnswered,
  preparedWith,
  randomSid,
  sendsOnly,
  untouched,
  urlsOf,
  userIdOf,
} from './peer';
import { closePreparedPeer, ringingOf } from './ringing';
import { feedSignals } from './signalling';

/**
 * From the start of an attempt, how long a first connection may take before the call is given up as having
 * no network path (both sides behind strict NATs and no relay, or the relay unreachable). Connections that
 * can succeed do so in well under 2 s, even relayed over 300 ms round trips; Chromium itself declares such
 * an attempt failed only after about 15 s.
 */
export const NO_ROUTE_MS = 12_000;

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

    const a: Attempt = {
      callId,
      isCaller,
      myId: userIdOf(token.identity),
      events,
      stop: new AbortController(),
      // Set by makePeer below, before anything reads it.
      pc: undefined as unknown as RTCPeerConnection,
      sid: isCaller ? randomSid() : null,
      cursor: 0,
      pending: [],
      trickling: false,
      settled: false,
      connectedOnce: false,
      remoteGone: false,
      finish: (err) => {
        if (!a.settled) {
          a.settled = true;
          if (err) {
            a.close();
            reject(err);
          } else resolve(session);
          return;
        }
        // After the attempt resolved, failures end the room.
        if (err) {
          a.close();
          events.onDisconnected(err);
        }
      },
      close: () => {
        a.stop.abort();
        feed.unsubscribe();
        clearTimeout(noRouteTimer);
        media.dispose();
        try {
          a.pc?.close();
        } catch {
          /* already closed */
        }
      },
      send: (kind, payload) =>
        signallingApi.send(callId, kind, payload).then(
          () => undefined,
          (err: unknown) => {
            if (a.stop.signal.aborted || kind === 'bye') return;
            // While reconnecting a lost request is expected: the next restart sends afresh.
            if (media.isLost()) {
              media.setOffline(true);
              return;
            }
            a.finish(new VideoConnectError((err as Error).message || 'Signalling failed', SIGNALLING_FAILED));
          },
        ),
    };
    const media = watchMedia(a);

    // No path at all (strict NATs and no relay): say so in seconds instead of waiting on a spinner.
    const noRouteTimer = setTimeout(() => {
      if (!a.connectedOnce) a.finish(new CallEndedError(VIDEO_CONNECTION_MESSAGES.noRoute, 'no_route'));
    }, NO_ROUTE_MS);

    /** A fresh peer connection (or the one prepared while ringing), replacing the current one. */
    const makePeer = (adopt: RTCPeerConnection | null = null) => {
      try {
        a.pc?.close();
      } catch {
        /* replaced */
      }
      a.pending = [];
      a.trickling = false;
      const peer = adopt ?? newPeer(iceServers, localStream);
      const remote = new MediaStream();
      peer.ontrack = (e) => {
        const stream = e.streams[0] ?? remote;
        if (!e.streams[0]) remote.addTrack(e.track);
        events.onRemoteStream(stream);
      };
      peer.onicecandidate = (e) => {
        if (peer === a.pc && a.trickling && e.candidate && a.sid)
          void a.send('candidate', { sid: a.sid, candidate: e.candidate.toJSON() });
      };
      const onState = () => {
        if (peer !== a.pc) return;
        switch (peer.connectionState) {
          case 'connected':
            if (!a.connectedOnce) {
              markCall('ice-connected');
              a.connectedOnce = true;
              clearTimeout(noRouteTimer);
              a.finish();
            } else {
              media.back();
              if (a.remoteGone) {
                a.remoteGone = false;
                events.onRemoteJoined();
              }
            }
            break;
          case 'disconnected':
            // A network dropped or changed (a hang-up arrives as 'bye'): reconnect, never redial.
            if (a.connectedOnce && !a.remoteGone) media.lost();
            break;
          case 'failed':
            if (!a.connectedOnce) a.finish(new CallEndedError(VIDEO_CONNECTION_MESSAGES.noRoute, 'no_route'));
            else if (!a.remoteGone) media.lost();
            break;
          default:
            break;
        }
      };
      peer.onconnectionstatechange = onState;
      a.pc = peer;
      // A peer prepared while it rang may be connected already (or have failed): its state counts now.
      if (adopt && adopt.connectionState !== 'new') onState();
      return peer;
    };

    /** Sets and sends this side's description once gathering finished (or its window passed). */
    const describe = async (kind: 'offer' | 'answer') => {
      const peer = a.pc;
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
      await gatheredForSending(peer, a.stop.signal);
      if (peer !== a.pc || a.stop.signal.aborted) return;
      // Read and flip in one task: a candidate is in this SDP or is trickled, never lost between the two.
      const local = peer.localDescription ?? desc;
      a.trickling = true;
      await a.send(kind, { sid: a.sid, type: local.type, sdp: local.sdp });
      markCall(`${kind}-posted`);
    };

    const flushCandidates = async () => {
      const list = a.pending;
      a.pending = [];
      for (const c of list) await a.pc.addIceCandidate(c).catch(() => undefined);
    };

    /** What each of the other side's signals means for this connection. */
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
            (p as { restart?: boolean }).restart === true && p.sid === a.sid && !!a.pc.remoteDescription;
          if (restart) a.trickling = false;
          else if (p.sid !== a.sid || a.pc.signalingState !== 'stable' || a.pc.remoteDescription) {
            // A peer that never had a description (the one prepared while it rang) answers the first offer.
            const fresh = untouched(a.pc) && a.sid === null;
            a.sid = p.sid ?? randomSid();
            if (!fresh) makePeer();
          }
          await a.pc.setRemoteDescription({ type: 'offer', sdp: p.sdp });
          await flushCandidates();
          await describe('answer');
          noteAnswered(callId);
          if (a.remoteGone) {
            a.remoteGone = false;
            events.onRemoteJoined();
          }
          return;
        }
        case 'answer':
          if (!isCaller || p.sid !== a.sid || !p.sdp || a.pc.signalingState !== 'have-local-offer') return;
          markCall('answer-received');
          await a.pc.setRemoteDescription({ type: 'answer', sdp: p.sdp });
          await flushCandidates();
          return;
        case 'candidate':
          // The other side reloaded its page and waits: a fresh connection at once (its old one is gone).
          if ((p as { rejoin?: boolean }).rejoin) {
            if (isCaller && a.connectedOnce) {
              a.sid = randomSid();
              makePeer();
              void describe('offer').catch(() => undefined);
            }
            return;
          }
          if (p.sid !== a.sid || !p.candidate) return;
          if (a.pc.remoteDescription) await a.pc.addIceCandidate(p.candidate).catch(() => undefined);
          else a.pending.push(p.candidate);
          return;
        case 'bye':
          if (!a.remoteGone) {
            a.remoteGone = true;
            events.onRemoteLeft();
          }
          return;
      }
    };

    const feed = feedSignals(a, media, handle);

    const session: VideoSession = {
      localStream,
      setAudioEnabled: (on) => localStream.getAudioTracks().forEach((t) => (t.enabled = on)),
      setVideoEnabled: (on) => localStream.getVideoTracks().forEach((t) => (t.enabled = on)),
      disconnect: ({ hangUp = false } = {}) => {
        if (hangUp) void signallingApi.send(callId, 'bye', { sid: a.sid }).catch(() => undefined);
        a.close();
      },
      peer: () => (a.stop.signal.aborted ? null : a.pc),
      reconnects: () => media.reconnects(),
    };

    signal.addEventListener('abort', () => {
      if (!a.settled) {
        a.settled = true;
        a.close();
        reject(signal.reason instanceof Error ? signal.reason : new VideoConnectError('Aborted'));
      }
    });

    makePeer(warm);
    if (ring) {
      // Go on from where the prepared peer is: its session, the signals it handled, its remote media.
      a.sid = ring.sid ?? a.sid;
      a.cursor = ring.cursor;
      a.pending = ring.pending;
      a.trickling = ring.described;
      feed.adopt(ring.chain);
      if (ring.remote) events.onRemoteStream(ring.remote);
      markCall('prepared-adopted');
      if (!isCaller && ring.sid && !ring.described) {
        // It had the offer but the accept went without the answer: answer now.
        void feed.enqueue(async () => {
          await describe('answer');
          noteAnswered(callId);
        });
      }
    }
    void feed.poll();
    if (isCaller && !ring?.described) {
      void (async () => {
        try {
          await describe('offer');
        } catch (err) {
          a.finish(new VideoConnectError((err as Error).message, MEDIA_FAILED));
        }
      })();
    }
  });
