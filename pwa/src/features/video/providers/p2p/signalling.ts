import type { CallSignal } from '../../../../../../api/contract/calls';
import { ApiError } from '../../../../lib/api-client';
import { isStreamOpen, onStreamEvent } from '../../../../lib/event-stream';
import { signallingApi } from '../../api';
import { VideoConnectError } from '../types';
import type { Attempt } from './attempt';
import type { MediaWatch } from './ice-restart';
import { ROOM_NOT_FOUND, SIGNALLING_FAILED, answeredHere, sleep } from './peer';

/** Signal polling: quick while connecting (each hop of the offer/answer waits for it), relaxed afterwards. */
export const SIGNAL_POLL_CONNECTING_MS = 150;
/** The caller's poll while the call rings (up to 30 s), to learn of the accept within a quarter second. */
export const SIGNAL_POLL_RINGING_MS = 250;
export const SIGNAL_POLL_CONNECTED_MS = 1500;
/** While the event stream carries the signals, the poll only guards against a gap (stream down: full pace). */
export const SIGNAL_POLL_STREAMING_MS = 3000;
/** Consecutive failed signalling requests before the attempt counts as a signalling failure (53000). */
const SIGNAL_FAILURES_ALLOWED = 3;
/**
 * A signalling request that has not answered by then is given up and retried: when a network drops, its TCP
 * connection hangs rather than fails, and the mapping it used may be gone when the network returns.
 */
export const SIGNAL_REQUEST_TIMEOUT_MS = 5_000;
/** The poll while this side's own network is down: often enough to notice its return within a second. */
export const SIGNAL_POLL_OFFLINE_MS = 1_000;

/** How the other side's signals reach a connection: the event stream and the poll, in id order. */
export interface SignalFeed {
  /** Runs `fn` after the signals already taken have been handled. */
  enqueue(fn: () => Promise<void>): Promise<void>;
  /** Goes on from a peer prepared while ringing: its chain of signals, its first read done. */
  adopt(chain: Promise<void>): void;
  /** Stops listening to the event stream. */
  unsubscribe(): void;
  /** Polls until the attempt stops (often while the stream is closed, rarely while it is open). */
  poll(): Promise<void>;
}

/**
 * Signals are handled one at a time, in id order, whether the poll or the event stream brought them; an
 * id already handled is skipped, so the two paths never double a signal and a gap in one is filled by the
 * other. `handle` gives each of the other side's signals its meaning (connect.ts).
 */
export function feedSignals(
  a: Attempt,
  media: MediaWatch,
  handle: (s: CallSignal) => Promise<void>,
): SignalFeed {
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (fn: () => Promise<void>) =>
    (chain = chain.then(fn).catch((err: unknown) => {
      if (!a.stop.signal.aborted) console.warn('signal handling failed', err);
    }));
  const take = async (s: CallSignal) => {
    if (s.id <= a.cursor) return;
    a.cursor = s.id;
    if (s.fromUserId !== a.myId) await handle(s);
  };
  // Stream events that arrive before the first poll answered wait for it (it decides where to start).
  let polledOnce = false;
  let early: CallSignal[] = [];
  let poke: (() => void) | null = null;
  const wake = () => poke?.();
  const meetingOver = () => {
    if (!a.settled) a.finish(new VideoConnectError('Room not found', ROOM_NOT_FOUND));
    else {
      a.close();
      a.events.onDisconnected();
    }
  };
  const unsubscribe = [
    onStreamEvent('signal', (e) => {
      if (e.callId !== a.callId) return;
      if (!polledOnce) early.push(e);
      else void enqueue(() => take(e));
    }),
    onStreamEvent('call', (e) => {
      // The call is over on the server: a clean end of the meeting, as the poll would find.
      if (e.callId === a.callId && e.status !== 'active') void enqueue(async () => meetingOver());
    }),
    // A stream (re)opened: poll once now for anything it could not carry.
    onStreamEvent('hello', wake),
  ];

  const poll = async () => {
    let failures = 0;
    while (!a.stop.signal.aborted) {
      try {
        const res = await signallingApi.list(
          a.callId,
          a.cursor,
          AbortSignal.any([a.stop.signal, AbortSignal.timeout(SIGNAL_REQUEST_TIMEOUT_MS)]),
        );
        failures = 0;
        media.setOffline(false);
        await enqueue(async () => {
          const fresh = res.signals.filter((s) => s.id > a.cursor);
          // A page that joins (or rejoins after a reload) answers only the other side's latest offer: what
          // came before it belongs to a connection that no longer exists.
          let batch = fresh;
          if (!polledOnce && !a.isCaller) {
            const lastOffer = batch.findLastIndex((s) => s.fromUserId !== a.myId && s.kind === 'offer');
            if (lastOffer >= 0) batch = batch.slice(lastOffer);
            // This tab answered the call before (the page was reloaded): that connection went with the old
            // page, so ask the caller for a fresh one instead of answering a stale offer.
            if (answeredHere(a.callId)) {
              batch = [];
              void a.send('candidate', { sid: null, rejoin: true });
            }
          }
          polledOnce = true;
          for (const s of fresh) a.cursor = Math.max(a.cursor, s.id);
          for (const s of batch) {
            if (s.fromUserId === a.myId) continue;
            await handle(s);
          }
          const waiting = early;
          early = [];
          for (const s of waiting) await take(s);
        });
        if (a.stop.signal.aborted) return;
        if (res.status !== 'active') {
          meetingOver();
          return;
        }
      } catch (err) {
        if (a.stop.signal.aborted) return;
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
          // Not a participant of an active call any more: the room is gone.
          if (!a.settled) a.finish(new VideoConnectError(err.message, ROOM_NOT_FOUND));
          else {
            a.close();
            a.events.onDisconnected();
          }
          return;
        }
        // Once connected, a network that is gone for a while is the watchdog's to judge, not the poll's.
        if (a.settled) {
          media.setOffline(true);
          await sleep(SIGNAL_POLL_OFFLINE_MS, a.stop.signal);
          continue;
        }
        if (++failures >= SIGNAL_FAILURES_ALLOWED) {
          a.finish(new VideoConnectError((err as Error).message || 'Signalling failed', SIGNALLING_FAILED));
          return;
        }
      }
      const pace = isStreamOpen()
        ? SIGNAL_POLL_STREAMING_MS
        : a.connectedOnce
          ? SIGNAL_POLL_CONNECTED_MS
          : SIGNAL_POLL_CONNECTING_MS;
      await new Promise<void>((resolve) => {
        poke = resolve;
        void sleep(pace, a.stop.signal).then(resolve);
      });
      poke = null;
    }
  };

  return {
    enqueue,
    adopt: (prepared) => {
      chain = prepared;
      polledOnce = true;
    },
    unsubscribe: () => unsubscribe.forEach((u) => u()),
    poll,
  };
}
