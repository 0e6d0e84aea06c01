import { fetchIceServers } from '../../api';
import { HeldForCall } from '../../lib/held-for-call';
import { markCall } from '../../lib/marks';
import {
  ICE_GATHER_WINDOW_STREAMING_MS,
  iceGathered,
  newPeer,
  noteAnswered,
  preparedWith,
  urlsOf,
} from './peer';
import { allowSending, closePreparedPeer, newRinging, ringingOf, watchRinging } from './ringing';

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
    // Picked up the moment it rang: the caller's offer may be a few milliseconds away still (a call that
    // never gets one, Twilio's, loses OFFER_WAIT_MS at most).
    const offerWait = AbortSignal.any([giveUp.signal, AbortSignal.timeout(OFFER_WAIT_MS)]);
    await offerSet(peer, offerWait);
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

/** How long the accept waits for a caller's offer that has not arrived yet. */
const OFFER_WAIT_MS = 200;

/** Resolves once the peer holds the caller's offer, or when `signal` aborts. */
function offerSet(peer: RTCPeerConnection, signal: AbortSignal): Promise<void> {
  if (peer.signalingState === 'have-remote-offer' || signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      peer.removeEventListener('signalingstatechange', check);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const check = () => {
      if (peer.signalingState === 'have-remote-offer' || peer.signalingState === 'closed') done();
    };
    peer.addEventListener('signalingstatechange', check);
    signal.addEventListener('abort', done);
  });
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
