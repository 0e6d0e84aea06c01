import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallItem } from '../../../../../api/contract/call-selling';
import { CALL_LIMITS } from '../../../../../api/contract/constants';
import { isStreamOpen, useStreamEvent, useStreamState } from '../../../lib/event-stream';
import { sellingApi } from '../api';
import { STREAMING_SAFETY_POLL_MS } from './use-incoming-call';

/**
 * What was shown, sent and said in a call, oldest first: read once when the call opens, then pushed by the
 * event stream ('item', to both participants, the sender included) the moment it is stored. Whenever the
 * stream is not open the items are polled at the call-status pace, so a proxy that buffers the stream costs
 * speed, never an item.
 */
export function useCallItems(callId: number) {
  const [items, setItems] = useState<CallItem[]>([]);
  // The items stored before the call's screen opened have been read (what comes after is news).
  const [ready, setReady] = useState(false);
  const lastId = useRef(0);
  const stream = useStreamState();

  const add = useCallback(
    (incoming: CallItem[]) => {
      const fresh = incoming.filter((i) => i.callId === callId);
      if (!fresh.length) return;
      setItems((prev) => {
        const known = new Set(prev.map((i) => i.id));
        const next = [...prev, ...fresh.filter((i) => !known.has(i.id))];
        if (next.length === prev.length) return prev;
        next.sort((a, b) => a.id - b.id);
        lastId.current = Math.max(lastId.current, next[next.length - 1]!.id);
        return next;
      });
    },
    [callId],
  );

  // One read at a time; a caller meanwhile waits for the read under way (and learns whether it succeeded).
  const inFlight = useRef<Promise<boolean> | null>(null);
  const fetchNew = useCallback((): Promise<boolean> => {
    if (inFlight.current) return inFlight.current;
    const run = (async () => {
      try {
        for (;;) {
          const { items: page } = await sellingApi.items(callId, lastId.current);
          add(page);
          if (page.length < 200) break;
        }
        return true;
      } catch {
        // The next poll or event tries again.
        return false;
      } finally {
        inFlight.current = null;
      }
    })();
    inFlight.current = run;
    return run;
  }, [callId, add]);
  const refresh = useCallback(() => {
    // After the first attempt, read or not: a read refused before the call was answered must not leave the
    // screen waiting for the 30 s safety poll to know what is news.
    void fetchNew().then(() => setReady(true));
  }, [fetchNew]);

  useEffect(() => {
    refresh();
  }, [refresh]);
  useEffect(() => {
    const ms = stream === 'open' ? STREAMING_SAFETY_POLL_MS : CALL_LIMITS.statusPollMs;
    const timer = setInterval(() => {
      if (!isStreamOpen() || ms === STREAMING_SAFETY_POLL_MS) refresh();
    }, ms);
    return () => clearInterval(timer);
  }, [stream, refresh]);

  useStreamEvent(
    'item',
    useCallback((item: CallItem) => add([item]), [add]),
  );
  useStreamEvent('hello', refresh);
  return { items, add, ready };
}
