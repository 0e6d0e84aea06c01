/**
 * The p2p video provider: WebRTC between the two browsers, signalling relayed by the API (docs/architecture.md,
 * "A call, from the tap to the summary"). Its parts:
 * - `peer.ts`: how a peer connection is made, ICE gathering windows, session ids;
 * - `ringing.ts`: a peer prepared while the call rings and the signals it handles before a connection adopts it;
 * - `caller.ts`: the caller's peer, its offer sent while the call rings;
 * - `answerer.ts`: the answering side's peer, its answer carried by the accept;
 * - `connect.ts`: one connection attempt (`connectP2p`), adopting a prepared peer or making its own;
 * - `signalling.ts`: how signals reach an attempt (event stream and poll, in id order);
 * - `ice-restart.ts`: a connected call's media lost and repaired without a redial.
 */
export { ICE_GATHER_WINDOW_MS, ICE_GATHER_WINDOW_STREAMING_MS, iceGathered, peerConfiguration } from './peer';
export { closePreparedPeer, watchPreparedRemote } from './ringing';
export { prepareCallerAhead, prepareCallerPeer, releaseCallerPeer, takeCallerPeer } from './caller';
export {
  answerAccepted,
  answerForAccept,
  prepareAnswerPeer,
  releaseAnswerPeer,
  takeAnswerPeer,
} from './answerer';
export { NO_ROUTE_MS, connectP2p } from './connect';
export {
  SIGNAL_POLL_CONNECTED_MS,
  SIGNAL_POLL_CONNECTING_MS,
  SIGNAL_POLL_OFFLINE_MS,
  SIGNAL_POLL_RINGING_MS,
  SIGNAL_POLL_STREAMING_MS,
  SIGNAL_REQUEST_TIMEOUT_MS,
} from './signalling';
export { ICE_RESTART_EVERY_MS, MEDIA_LOSS_LIMIT_MS } from './ice-restart';
