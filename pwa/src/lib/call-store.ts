import { useSyncExternalStore } from 'react';
import type { User } from '../../../api/contract/accounts';
import type { CallProduct } from '../../../api/contract/call-selling';
import type { CallStatus } from '../../../api/contract/constants';

/**
 * The one store of the call's client state. The call provider (features/calls) owns the logic: polling,
 * the event stream, ringing, answering, hanging up. Everything that shows or reacts to a call reads it
 * here: the ringing modal, the call modal, the header's in-call badge, the ringtone, the call buttons in
 * pages, the service worker's messages, and the app update that must not reload during a call.
 */

/** The client's view of a call: placing or ringing → connecting, active → connected, over → failed. */
export type ClientCallState = 'connecting' | 'connected' | 'failed' | 'inactive';

/** The call this tab tracks. */
export interface ActiveCall {
  callId: number;
  status: CallStatus;
  isIncoming: boolean;
  participantId: number | null;
  participantName: string;
  /** The piece the customer called about. */
  product?: CallProduct | null;
  /** When the call was answered (ms since the epoch), for the running timer. */
  answeredAt?: number | null;
}

/** What the jeweller calls back: an open request, or a missed or declined call (which opens one if needed). */
/** What the jeweller calls back: a request, a missed call, or a booked appointment at its time (issue #22). */
export type CallBackTarget = { requestId: number } | { missedCallId: number } | { appointmentId: number };

/** The incoming call on a seller's screen. */
export interface IncomingCallRecord {
  callId: number;
  callerId: number;
  callerName: string;
  callerAvatarUrl: string | null;
  product: CallProduct | null;
  /** A jeweller's call-back ringing a customer (issue #22): the caller is the shop. */
  callBack?: boolean;
}

/**
 * A call that is over, or that could not be placed, as the person is told of it afterwards: the summary of
 * what was shown and said, or why it did not happen and what to do next.
 */
export interface EndedCall {
  /** null when the call was never placed (the shop was busy). */
  callId: number | null;
  isIncoming: boolean;
  sellerId: number | null;
  /** The other side's name: the shop for a customer. */
  participantName: string;
  /**
   * 'busy' when the initiation was refused because the shop is on another call; 'unreachable' when it was
   * refused because the shop cannot be rung now (closed, away, nobody's app open: issue #40), with `reason`.
   */
  outcome: 'summary' | 'declined' | 'missed' | 'busy' | 'unreachable' | 'connection_lost';
  /** The server's refusal, in the reader's language ('unreachable' only). */
  reason?: string;
  productId: number | null;
}

export interface CallSnapshot {
  /** The signed-in user whose provider is mounted (null: none). */
  user: User | null;
  activeCall: ActiveCall | null;
  /** 'failed' also after a manual hang-up whose end request failed. */
  callState: ClientCallState;
  incoming: IncomingCallRecord | null;
  /** A response to the incoming call is in flight. */
  responding: boolean;
  /** The seller whose call is being initiated, while the request is pending. */
  initiatingSellerId: number | null;
  audioUnlocked: boolean;
  /** The last call that ended or could not be placed, until the person closes its summary. */
  ended: EndedCall | null;
}

export interface CallActions {
  /** With `appointmentId`: the customer starts a booked appointment's call (issue #22). */
  startCall: (sellerId: number, sellerName?: string, productId?: number, appointmentId?: number) => void;
  /** The jeweller calls a customer back (issue #22): the call rings the customer's app. */
  callBack: (target: CallBackTarget, customerName: string) => void;
  /** Closes the ended call's summary. */
  dismissEnded: () => void;
  accept: () => void;
  decline: () => void;
  /** The user pressed End call. */
  hangUp: () => Promise<void>;
  /** The video layer found the meeting over (clean disconnect, or the remote left for good). */
  endMeeting: () => void;
  /** The video layer ended the call on its own (no network path, media lost): the server learns why. */
  endOnItsOwn: (reason: 'no_route' | 'connection_lost') => void;
  /** The video layer saw the call become active before the status did. */
  noteActive: (callId: number) => void;
  unlockAudio: () => void;
}

const EMPTY: CallSnapshot = {
  user: null,
  activeCall: null,
  callState: 'inactive',
  incoming: null,
  responding: false,
  initiatingSellerId: null,
  audioUnlocked: false,
  ended: null,
};

let snapshot: CallSnapshot = EMPTY;
let actions: CallActions | null = null;
let queuedCall: { sellerId: number; sellerName?: string; productId?: number; appointmentId?: number } | null =
  null;
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((l) => l());
}

/** The provider publishes its state (only what changed wakes the readers). */
export function publishCall(next: CallSnapshot): void {
  const keys = Object.keys(next) as (keyof CallSnapshot)[];
  if (keys.every((k) => next[k] === snapshot[k])) return;
  snapshot = next;
  emit();
}

/** The provider's actions; a call asked for before they exist (right after logging in) waits for them. */
export function registerCallActions(next: CallActions | null): void {
  actions = next;
  if (next && queuedCall) {
    const q = queuedCall;
    setQueued(null);
    next.startCall(q.sellerId, q.sellerName, q.productId, q.appointmentId);
  }
  if (!next) {
    snapshot = EMPTY;
    emit();
  }
}

export function callSnapshot(): CallSnapshot {
  return snapshot;
}

export function subscribeCall(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The jeweller calls a customer back about their request (issue #22). */
export function requestCallBack(target: CallBackTarget, customerName: string): void {
  actions?.callBack(target, customerName);
}

/**
 * How long a call asked for before the call layer has loaded waits for it (issue #50: a tap never goes
 * unanswered). Past this the person is told the call did not start (`onQueuedCallLost`), never left with a
 * button that did nothing.
 */
export const QUEUED_CALL_LIMIT_MS = 15_000;
let queuedTimer: ReturnType<typeof setTimeout> | undefined;
const lostListeners = new Set<() => void>();

function setQueued(next: typeof queuedCall): void {
  queuedCall = next;
  clearTimeout(queuedTimer);
  if (next)
    queuedTimer = setTimeout(() => {
      if (queuedCall !== next) return;
      setQueued(null);
      lostListeners.forEach((l) => l());
    }, QUEUED_CALL_LIMIT_MS);
  emit();
}

/** Calls `listener` when a call asked for before the call layer loaded was given up (the layer never came). */
export function onQueuedCallLost(listener: () => void): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}

/**
 * Asks for a call to a seller, about one of its products or not (ignored while another initiation is pending).
 * Before the call layer has loaded (right after logging in, or a tap in the app's first moments) the call waits
 * for it, and the button shows it is calling meanwhile (useQueuedCallSellerId).
 */
export function requestCall(
  sellerId: number,
  sellerName?: string,
  productId?: number,
  appointmentId?: number,
): void {
  if (actions) actions.startCall(sellerId, sellerName, productId, appointmentId);
  else setQueued({ sellerId, sellerName, productId, appointmentId });
}

/** The seller whose call waits for the call layer to load (null: none). */
export function useQueuedCallSellerId(): number | null {
  return useSyncExternalStore(
    subscribeCall,
    () => queuedCall?.sellerId ?? null,
    () => null,
  );
}

/** The provider's actions; throws where no provider is mounted. */
export function callActions(): CallActions {
  if (!actions) throw new Error('No call provider is mounted');
  return actions;
}

/** One slice of the call state, re-rendering only when that slice changes. */
export function useCallState<T>(select: (s: CallSnapshot) => T): T {
  return useSyncExternalStore(
    subscribeCall,
    () => select(snapshot),
    () => select(EMPTY),
  );
}

/** Whether a call is under way: asked for, being placed, ringing, connecting or active. */
export function isCallActive(): boolean {
  return snapshot.activeCall !== null || snapshot.initiatingSellerId !== null || queuedCall !== null;
}

/** Calls `listener` whenever a call starts or stops being under way. */
export function subscribeCallActivity(listener: () => void): () => void {
  let last = isCallActive();
  return subscribeCall(() => {
    const now = isCallActive();
    if (now !== last) {
      last = now;
      listener();
    }
  });
}

/** Resolves once no call is under way (at once when none is). */
export function whenNoCallActive(): Promise<void> {
  if (!isCallActive()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = subscribeCallActivity(() => {
      if (isCallActive()) return;
      stop();
      resolve();
    });
  });
}
