import type { VideoTokenResponse } from '../../../../../api/contract/video';

/** A connection failure in the terms of docs/product-rules.md §8: a Twilio-style code when known, and a message. */
export class VideoConnectError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'VideoConnectError';
  }
}

/** Why a call had to end on its own: no network path at all, or media gone for too long. */
export type CallEndReason = 'no_route' | 'connection_lost';

/** A failure that ends the call (never retried): the server records `reason`, both sides say why. */
export class CallEndedError extends VideoConnectError {
  constructor(
    message: string,
    readonly reason: CallEndReason,
  ) {
    super(message);
    this.name = 'CallEndedError';
  }
}

/** What a provider tells the call UI while connected. */
export interface VideoSessionEvents {
  /** The remote participant's media (null when they left). */
  onRemoteStream: (stream: MediaStream | null) => void;
  /** The remote participant left or dropped; the caller applies the 1.5 s grace. */
  onRemoteLeft: () => void;
  /** The remote participant is (back) in the room. */
  onRemoteJoined: () => void;
  /** The room closed: without an error the meeting is over; with one it failed (and may be retried). */
  onDisconnected: (error?: VideoConnectError) => void;
  /**
   * Media stopped without a hang-up (a network dropped or changed) and the connection is being restored;
   * called again when what is known changes. `localOffline`: this side's own requests fail too, so the drop
   * is most likely here rather than at the other end.
   */
  onReconnecting?: (info: { since: number; localOffline: boolean }) => void;
  /** Media flows again after a drop. */
  onReconnected?: () => void;
}

export interface ConnectOptions {
  callId: number;
  /** This side created the call (the customer): on p2p it makes the offer. */
  isCaller: boolean;
  token: VideoTokenResponse;
  /** p2p: media already captured for the preview, reused across retries (Twilio captures its own). */
  localStream: MediaStream | null;
  /** p2p caller: the peer connection prepared while ringing (adopted or closed; never reused twice). */
  preparedPeer?: RTCPeerConnection | null;
  events: VideoSessionEvents;
  /** Aborted on timeout, unmount or retry. */
  signal: AbortSignal;
}

/** One joined room, whatever the provider. */
export interface VideoSession {
  /** What this side sends, for the (muted, mirrored) self view. */
  localStream: MediaStream;
  setAudioEnabled(enabled: boolean): void;
  setVideoEnabled(enabled: boolean): void;
  /** Leaves the room (p2p: says 'bye' when `hangUp`). */
  disconnect(opts?: { hangUp?: boolean }): void;
  /** p2p: the peer connection carrying the media now (its statistics feed the call's quality record). */
  peer?: () => RTCPeerConnection | null;
  /** p2p: times the media dropped and came back. */
  reconnects?: () => number;
}

/** Resolves once media flows (or the room is joined), rejects with a VideoConnectError. */
export type VideoConnector = (opts: ConnectOptions) => Promise<VideoSession>;
