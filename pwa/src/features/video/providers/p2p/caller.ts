import { fetchIceServers, signallingApi } from '../../api';
import { HeldForCall } from '../../lib/held-for-call';
import { markCall } from '../../lib/marks';
import { ICE_GATHER_WINDOW_MS, iceGathered, newPeer, preparedWith, randomSid, urlsOf } from './peer';
import { allowSending, closePreparedPeer, newRinging, ringingOf, watchRinging } from './ringing';

/**
 * The caller's peer connection made while the call still rings: its offer is created, its candidates gathered
 * (host, and with the ICE servers of GET /_api/video/ice-servers, reflexive and relay ones) and, given the
 * call, the offer is sent at once (the API keeps a ringing call's offer for the one it rings), later
 * candidates trickling after it. The answer then comes with the accept and is set the moment it arrives, so
 * after the accept only the checks remain. `connectP2p` adopts the peer when the token lists the same servers,
 * and otherwise closes it and offers afresh. Resolves null if the browser refused.
 */
export async function prepareCallerPeer(
  /** The capture, or its promise: the offer is then made and sent without waiting for the camera. */
  localStream: MediaStream | Promise<MediaStream>,
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
  // Not waiting for the camera (it may take a second): its tracks join the offered senders when it is ready.
  heldOffer.hold(
    callId,
    servers.then((iceServers) => prepareCallerPeer(media, iceServers, callId)),
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
