import { useEffect, useSyncExternalStore } from 'react';
import type { StreamEventMap, StreamEventName } from '../../../api/contract/events';
import { STREAM_EVENT_NAMES } from '../../../api/contract/events';
import { API_ROUTES } from '../../../api/contract/routes';

/**
 * The tab's one event stream (GET /_api/events, Server-Sent Events): calls ring, change state and carry their
 * WebRTC signals through it the moment the server stores them. Polling stays the authoritative fallback:
 * every poller asks `isStreamOpen()` and polls at its full pace whenever the stream is not open, so a stream
 * that a proxy buffers, a network that drops or a server that restarts costs speed, never an event.
 *
 * Events carry ids. EventSource resumes by itself with `Last-Event-ID`; after a failure it cannot recover
 * from (the server refused it), a new stream is opened later with `?after=` the last id seen. Each time a
 * stream opens, 'hello' tells the listeners to poll once, which covers anything a fresh stream cannot know.
 */
export type StreamState = 'off' | 'connecting' | 'open' | 'down';

type Handler<K extends StreamEventName> = (data: StreamEventMap[K], id: number) => void;

const handlers = new Map<StreamEventName, Set<Handler<never>>>();
const stateListeners = new Set<() => void>();
let state: StreamState = 'off';
let source: EventSource | null = null;
let lastId = 0;
let streamUser: number | null = null;
let users = 0;
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
let failures = 0;

function setState(next: StreamState) {
  if (next === state) return;
  state = next;
  stateListeners.forEach((l) => l());
}

function dispatch<K extends StreamEventName>(name: K, data: StreamEventMap[K], id: number) {
  for (const h of handlers.get(name) ?? []) {
    try {
      (h as Handler<K>)(data, id);
    } catch (err) {
      console.error(err);
    }
  }
}

function open() {
  clearTimeout(reopenTimer);
  if (typeof EventSource === 'undefined' || users === 0) return;
  source?.close();
  const path = API_ROUTES.events.path;
  const es = new EventSource(lastId ? `${path}?after=${lastId}` : path);
  source = es;
  setState('connecting');
  for (const name of STREAM_EVENT_NAMES) {
    es.addEventListener(name, (e) => {
      if (source !== es) return;
      const msg = e as MessageEvent<string>;
      // 'hello' has no id of its own (lastEventId then repeats the previous event's).
      const id = name === 'hello' || !msg.lastEventId ? 0 : Number(msg.lastEventId);
      // A resumed stream never repeats what this tab has had; a replay after a reconnect may overlap.
      if (name !== 'hello' && id <= lastId) return;
      lastId = Math.max(lastId, id);
      let data: unknown;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (name === 'hello') {
        failures = 0;
        setState('open');
      }
      dispatch(name, data as never, id);
    });
  }
  es.addEventListener('error', () => {
    if (source !== es) return;
    if (es.readyState === EventSource.CONNECTING) {
      // EventSource retries by itself (after the server's `retry`), resuming from the last id.
      setState('down');
      return;
    }
    // Refused (signed out, a proxy that answers otherwise): poll, and try a new stream later.
    es.close();
    source = null;
    setState('down');
    failures++;
    reopenTimer = setTimeout(open, Math.min(60_000, 2_000 * 2 ** Math.min(failures - 1, 5)));
  });
}

function close() {
  clearTimeout(reopenTimer);
  source?.close();
  source = null;
  setState('off');
}

/**
 * Keeps the stream of the signed-in user open while at least one caller holds it (call the returned function
 * to let go). A different user on this tab starts from a fresh cursor.
 */
export function holdEventStream(userId: number): () => void {
  if (streamUser !== userId) {
    streamUser = userId;
    lastId = 0;
    if (source) open();
  }
  users++;
  if (users === 1) open();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    users--;
    if (users === 0) close();
  };
}

/** Listens to one kind of event; returns the unsubscribe function. */
export function onStreamEvent<K extends StreamEventName>(name: K, handler: Handler<K>): () => void {
  let set = handlers.get(name);
  if (!set) handlers.set(name, (set = new Set()));
  set.add(handler as Handler<never>);
  return () => set.delete(handler as Handler<never>);
}

/** True while events arrive through the stream: pollers may then slow down. */
export function isStreamOpen(): boolean {
  return state === 'open';
}

export function streamState(): StreamState {
  return state;
}

function subscribeState(listener: () => void) {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** The stream's state, for components whose polling pace depends on it. */
export function useStreamState(): StreamState {
  return useSyncExternalStore(subscribeState, streamState, () => 'off');
}

/** Holds the user's stream open while `userId` is set (and mounted). */
export function useEventStream(userId: number | null): StreamState {
  useEffect(() => (userId === null ? undefined : holdEventStream(userId)), [userId]);
  return useStreamState();
}

/** Listens to one kind of event while mounted. */
export function useStreamEvent<K extends StreamEventName>(name: K, handler: Handler<K>): void {
  useEffect(() => onStreamEvent(name, handler), [name, handler]);
}
