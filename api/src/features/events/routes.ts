import { PassThrough } from 'node:stream';
import { EVENT_STREAM_RETRY_MS, EVENTS_MESSAGES, type StreamEventName } from '../../../contract/events';
import { API_ROUTES as R } from '../../../contract/routes';
import { rawEndpoint } from '../../http/endpoint';
import { badRequest } from '../../http/errors';
import { metrics } from '../../http/metrics';
import type { AppContext, Feature } from '../../http/context';
import type { StreamHandle } from './hub';
import { latestEventId, markRinging, readEvents } from './service';

/** The least a stream told to reconnect by a stopping server waits (then up to a second more). */
const SHUTDOWN_RETRY_MIN_MS = 200;

/** The cursor a stream resumes from: EventSource's Last-Event-ID header, or `?after=` (a new EventSource). */
function resumeCursor(ctx: AppContext): number | undefined {
  const raw = ctx.get('Last-Event-ID') || (typeof ctx.query.after === 'string' ? ctx.query.after : '');
  if (raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest(EVENTS_MESSAGES.invalidCursor);
  return Number(raw);
}

const frame = (name: StreamEventName, data: unknown, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * GET /_api/events: the signed-in user's event stream (Server-Sent Events). It starts with 'hello' (the
 * cursor), then sends each event of the user's log as it is written, by any process; a comment line every
 * EVENT_STREAM_HEARTBEAT_MS (default 15 s) keeps it open through proxies. It ends with the session (logout, revocation,
 * expiry: checked on every heartbeat) and when the server stops.
 */
export const eventsFeature: Feature = (router, { deps, background }) => {
  const hub = deps.events;
  // Streams whose session is gone by any means (an admin, an expiry) close within a heartbeat.
  background.every('events:sessions', deps.config.eventStreamHeartbeatMs, async () => {
    await hub.closeDeadSessions(deps.clock.now());
  });

  // A stream, not one JSON answer: the handler owns the response (rawEndpoint still checks the entry's auth).
  rawEndpoint(router, R.events, async (ctx) => {
    const user = ctx.state.user!;
    const sessionId = ctx.state.sessionId!;
    const resumed = resumeCursor(ctx);
    void hub.start();
    let cursor = resumed ?? (await latestEventId(deps.db, user.id));

    const out = new PassThrough();
    const socket = ctx.req.socket;
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    (ctx as { compress?: boolean }).compress = false;
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      'X-Accel-Buffering': 'no',
    });
    ctx.body = out;

    let closed = false;
    let reading = false;
    let again = false;
    const write = (chunk: string) => {
      if (!closed) out.write(chunk);
    };

    /** Sends everything after the cursor; one read at a time, and once more if woken meanwhile. */
    const pump = async (): Promise<void> => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          const batch = await readEvents(deps, user.id, cursor);
          const ringing: number[] = [];
          for (const e of batch.events) {
            write(frame(e.name, e.data, e.id));
            if (e.name === 'incoming') {
              const ring = e.data as { callId: number; createdAt: string };
              ringing.push(ring.callId);
              metrics.ringDelivery.observe(
                Math.max(0, deps.clock.now().getTime() - Date.parse(ring.createdAt)) / 1000,
              );
            }
          }
          cursor = batch.cursor;
          if (batch.more) again = true;
          if (ringing.length) await markRinging(deps, ringing);
        } while (again && !closed);
      } catch (err) {
        deps.logger.warn({ err, userId: user.id }, 'event stream read failed');
      } finally {
        reading = false;
      }
    };

    const handle: StreamHandle = {
      userId: user.id,
      sessionId,
      role: user.role,
      wake: () => void pump(),
      close: (reason) => {
        // The server is stopping: reconnect soon, spread over a second so a process's streams do not all
        // arrive together, and (through the balancer) at another process; EventSource resumes from its last id.
        if (reason === 'shutdown')
          write(`retry: ${SHUTDOWN_RETRY_MIN_MS + Math.floor(Math.random() * 1000)}\n\n`);
        end();
      },
    };
    const detach = hub.attach(handle);
    const heartbeat = setInterval(() => write(': ping\n\n'), deps.config.eventStreamHeartbeatMs);
    const end = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      detach();
      out.end();
    };
    ctx.res.on('close', end);
    out.on('error', end);
    // Opened after the process closed its streams (it is about to exit): go elsewhere at once.
    if (hub.isStopped()) return handle.close('shutdown');

    write(`retry: ${EVENT_STREAM_RETRY_MS}\n\n`);
    // 'hello' carries the cursor as its id, so a stream that ends before any event arrives still resumes from
    // here (EventSource's Last-Event-ID), not from the latest event at reconnection, which would skip what was
    // written in between (a process stopping under a stream that had received nothing yet).
    write(frame('hello', { cursor }, cursor));
    // A resumed stream sends what it missed at once; a new one only what comes next (and anything written
    // between reading the cursor and attaching, which this first read finds).
    void pump();
  });
};
