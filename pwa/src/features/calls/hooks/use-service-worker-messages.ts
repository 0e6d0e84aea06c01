import { useEffect, useRef } from 'react';

export interface ServiceWorkerCallHandlers {
  /** Poll incoming calls at once (a push arrived). */
  poll: () => void;
  /** Bring that call's modal up (a notification was clicked). */
  show: (callId: number) => void;
  /** Accept that call (the notification's Accept action). */
  accept: (callId: number) => void;
}

type CallMessage =
  { type: 'poll-incoming-calls'; callId?: number } | { type: 'show-call' | 'accept-call'; callId: number };

function parse(data: unknown): CallMessage | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as { type?: unknown; callId?: unknown };
  const callId = typeof m.callId === 'number' ? m.callId : Number(m.callId);
  if (m.type === 'poll-incoming-calls') return { type: m.type };
  if ((m.type === 'show-call' || m.type === 'accept-call') && Number.isInteger(callId) && callId > 0)
    return { type: m.type, callId };
  return null;
}

/**
 * Messages from the service worker (sent on web push and notification clicks), and the same requests
 * arriving as `?call=<id>[&answer=1]` when the worker had to open a new window.
 */
export function useServiceWorkerMessages(enabled: boolean, handlers: ServiceWorkerCallHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const sw = navigator.serviceWorker;
    if (!enabled || !sw) return;
    const onMessage = (event: MessageEvent) => {
      const m = parse(event.data);
      if (!m) return;
      if (m.type === 'poll-incoming-calls') latest.current.poll();
      else if (m.type === 'show-call') latest.current.show(m.callId);
      else latest.current.accept(m.callId);
    };
    sw.addEventListener('message', onMessage);
    return () => sw.removeEventListener('message', onMessage);
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    const url = new URL(window.location.href);
    const callId = Number(url.searchParams.get('call'));
    if (!Number.isInteger(callId) || callId <= 0) return;
    const answer = url.searchParams.get('answer') === '1';
    url.searchParams.delete('call');
    url.searchParams.delete('answer');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
    if (answer) latest.current.accept(callId);
    else latest.current.show(callId);
  }, [enabled]);
}
