import type { VideoConnectError, VideoSessionEvents } from '../types';

/** The kinds of signal a connection sends through the API. */
export type SignalKind = 'offer' | 'answer' | 'candidate' | 'bye';

/**
 * One connection attempt's state, shared by its parts: `connect.ts` (the peer connection, descriptions and the
 * signals' meaning), `signalling.ts` (how signals arrive, in order) and `ice-restart.ts` (a drop and its repair).
 */
export interface Attempt {
  readonly callId: number;
  /** This side created the call: it makes the offers (and the ICE restarts). */
  readonly isCaller: boolean;
  /** This side's user id: the signals it sent itself are skipped. */
  readonly myId: number;
  readonly events: VideoSessionEvents;
  /** Aborted when the attempt closes. */
  readonly stop: AbortController;
  /** The peer connection carrying the call now (replaced when a session starts anew). */
  pc: RTCPeerConnection;
  /** The session id of the current offer and answer; signals of another session are ignored. */
  sid: string | null;
  /** The id of the last signal taken (by the poll or the event stream). */
  cursor: number;
  /** The other side's candidates waiting for its description. */
  pending: RTCIceCandidateInit[];
  /** Candidates gathered before this side's description went out travel inside it; later ones trickle. */
  trickling: boolean;
  /** The attempt resolved (media flows) or rejected. */
  settled: boolean;
  connectedOnce: boolean;
  /** The other side said 'bye' (or its page went) and has not come back. */
  remoteGone: boolean;
  /** Resolves or rejects the attempt; once it resolved, an error ends the room. */
  finish(err?: VideoConnectError): void;
  /** Stops everything: listening, timers, the peer connection. */
  close(): void;
  /** Sends a signal; a failure fails the attempt unless it is expected (reconnecting, a 'bye'). */
  send(kind: SignalKind, payload: Record<string, unknown>): Promise<void>;
}
