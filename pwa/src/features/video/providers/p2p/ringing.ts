import type { CallSignal } from '../../../../../../api/contract/calls';
import { isStreamOpen, onStreamEvent } from '../../../../lib/event-stream';
import { signallingApi } from '../../api';
import { markCall } from '../../lib/marks';
import { sleep } from './peer';

/**
 * What a peer connection prepared while the call rang has already done on the wire, for the connection that
 * adopts it after the accept: the session id of the offer (sent by the caller while it rang, received by the
 * one it rings), whether this side's description went out, the signals it handled, candidates waiting for a
 * remote description and the remote media it got.
 */
export interface Ringing {
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
export const ringingOf = new WeakMap<RTCPeerConnection, Ringing>();

/** A prepared peer's ringing state before anything was sent or received (`sid`: the caller's own offer's). */
export const newRinging = (callId: number, sid: string | null): Ringing => ({
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
export function allowSending(r: Ringing) {
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
export function watchRinging(peer: RTCPeerConnection, r: Ringing, isCaller: boolean, poll: boolean) {
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
