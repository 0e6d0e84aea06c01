import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Knex } from 'knex';
import {
  FAMILY_ERROR_CODES as CODES,
  FAMILY_GUEST_TICKET_MS,
  FAMILY_MESSAGES as MSG,
  familyGuestStreamSchema,
  type FamilyGuestEvent,
  type FamilyGuestStreamEvents,
  type FamilyGuestTicketResponse,
  type FamilyParty,
  type GuestState,
} from '../../../contract/call-family';
import type { SignalKind } from '../../../contract/calls';
import { EVENT_STREAM_RETRY_MS } from '../../../contract/events';
import type { AppContext, AppDeps } from '../../http/context';
import { forbidden, unauthorized } from '../../http/errors';
import { parseQuery } from '../../http/validate';
import type { GuestStreamHandle } from '../events/hub';
import { guestIceServers, hashToken, type GuestRow } from './family';
import { callStatics, guestMembers } from './family-mesh';

/**
 * A guest's event stream (issue #52, docs/product-rules.md §21.2): a guest who asked, or is in, hears at once
 * of their admission, decline or removal, of who is in, of the call's end, and receives the mesh signals
 * addressed to them with their payloads, so the page waits on no poll round. The database announces each such
 * change with the guest's id (migration 0034), so a change made through any API process wakes the stream in
 * whichever process holds it.
 *
 * EventSource sends no headers: the page trades its token (in FAMILY_GUEST_HEADER) for a ticket of 32 random
 * bytes that opens the stream for FAMILY_GUEST_TICKET_MS; only the ticket's hash is kept, one per guest (a new
 * one replaces the old), and the guest's own token never appears in a URL.
 */

const SIGNALS_PAGE = 200;
const SHUTDOWN_RETRY_MIN_MS = 200;
const partOver = () => forbidden(MSG.partOver, CODES.partOver);

/** A ticket for the guest's stream: only while the guest waits or is in a live call. */
export async function issueStreamTicket(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  guest: GuestRow,
): Promise<FamilyGuestTicketResponse> {
  const now = deps.clock.now();
  const ticket = crypto.randomBytes(32).toString('base64url');
  const { rows } = (await deps.db.raw(
    `update call_guests g set stream_ticket_hash = ?, stream_ticket_until = ?
       from calls c
      where g.id = ? and c.id = g.call_id and c.status = 'active' and g.state in ('asked', 'admitted')
      returning g.id`,
    [hashToken(ticket), new Date(now.getTime() + FAMILY_GUEST_TICKET_MS), guest.id],
  )) as { rows: { id: number }[] };
  if (!rows[0]) throw partOver();
  return { ticket };
}

interface StreamRow {
  state: GuestState;
  status: string;
  admitted: { id: number; name: string | null }[] | null;
  signals: { id: number | string; from: string; kind: SignalKind; payload: Record<string, unknown> }[] | null;
  last_item: number | string | null;
  last_like: number | string | null;
}

/** One read of the stream: the guest's state, and once admitted to a live call, who is in and the news. */
const STREAM_SQL = `select g.state, c.status, x.admitted, x.signals, x.last_item, x.last_like
  from call_guests g join calls c on c.id = g.call_id
  left join lateral (
    select
      (select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name) order by a.id), '[]'::json)
         from call_guests a where a.call_id = g.call_id and a.state = 'admitted') as admitted,
      (select coalesce(json_agg(json_build_object('id', s.id, 'from', s.from_party, 'kind', s.kind,
                                                  'payload', s.payload) order by s.id), '[]'::json)
         from (select id, from_party, kind, payload from call_family_signals
                where call_id = g.call_id and to_party = 'g' || g.id and id > ?
                order by id limit ${SIGNALS_PAGE}) s) as signals,
      (select max(i.id) from call_items i
        where i.call_id = g.call_id and i.kind in ('product', 'message', 'photo'))
        as last_item,
      (select max(l.id) from call_family_likes l where l.call_id = g.call_id) as last_like
     where g.state = 'admitted' and c.status = 'active') x on true
 where g.id = ?`;

async function readStream(db: Knex, guestId: number, after: number): Promise<StreamRow | undefined> {
  const { rows } = (await db.raw(STREAM_SQL, [after, guestId])) as { rows: StreamRow[] };
  return rows[0];
}

const frame = <K extends keyof FamilyGuestStreamEvents>(
  name: K,
  data: FamilyGuestStreamEvents[K],
  id?: number,
) => `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The cursor a stream resumes from: EventSource's Last-Event-ID (a mesh signal's id), or `?after=`. */
function resumeCursor(ctx: AppContext, after: number): number {
  const raw = ctx.get('Last-Event-ID');
  return /^\d{1,15}$/.test(raw) ? Math.max(after, Number(raw)) : after;
}

/** GET /_api/family/guest/events?ticket=&after=: the guest's stream (see the module's comment). */
export async function guestStream(ctx: AppContext, deps: AppDeps): Promise<void> {
  const { ticket, after } = parseQuery(ctx, familyGuestStreamSchema);
  const now = deps.clock.now();
  const found = (await deps
    .db('call_guests as g')
    .join('calls as c', 'c.id', 'g.call_id')
    .where('g.stream_ticket_hash', hashToken(ticket))
    .where('g.stream_ticket_until', '>', now)
    .first('g.id', 'g.call_id', 'g.invited_by', 'g.name', 'g.state', 'g.asked_at', 'c.status')) as
    (GuestRow & { status: string }) | undefined;
  if (!found) throw unauthorized(MSG.notAGuest, CODES.notAGuest);
  if (found.status !== 'active' || (found.state !== 'asked' && found.state !== 'admitted')) throw partOver();
  const guest: GuestRow = found;
  const hub = deps.events;
  void hub.start();
  let cursor = resumeCursor(ctx, after);

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
  let sent = '';
  let iceSent = false;
  const write = (chunk: string) => {
    if (!closed) out.write(chunk);
  };

  /** Sends what changed and the signals after the cursor; one read at a time, once more if woken meanwhile. */
  const pump = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const row = await readStream(deps.db, guest.id, cursor);
        if (!row) return end();
        const live = row.status === 'active';
        const inCall = live && row.state === 'admitted';
        const event: FamilyGuestEvent = {
          callId: guest.call_id,
          me: `g${guest.id}`,
          state: row.state,
          callLive: live,
          members: inCall
            ? guestMembers(
                await callStatics(deps.db, guest.call_id, deps.clock.now().getTime()),
                row.admitted,
              )
            : [],
          lastItem: Number(row.last_item ?? 0),
          lastLike: Number(row.last_like ?? 0),
        };
        const key = JSON.stringify(event);
        if (key !== sent) {
          sent = key;
          // The mesh starts from this event: its ICE servers with it, once admitted (never before: §21.6).
          if (inCall && !iceSent) {
            iceSent = true;
            event.iceServers = await guestIceServers(deps, guest)
              .then((r) => r.iceServers)
              .catch(() => undefined);
          }
          write(frame('guest', event));
        }
        for (const s of row.signals ?? []) {
          const id = Number(s.id);
          write(frame('signal', { id, from: s.from as FamilyParty, kind: s.kind, payload: s.payload }, id));
          cursor = id;
        }
        if ((row.signals?.length ?? 0) >= SIGNALS_PAGE) again = true;
        // The guest's part is over (declined, removed, left) or the call is: said, and the stream ends.
        if (!live || (row.state !== 'asked' && row.state !== 'admitted')) return end();
      } while (again && !closed);
    } catch (err) {
      deps.logger.warn({ err, guestId: guest.id }, 'guest stream read failed');
    } finally {
      reading = false;
    }
  };

  const handle: GuestStreamHandle = {
    guestId: guest.id,
    wake: () => void pump(),
    close: (reason) => {
      if (reason === 'shutdown')
        write(`retry: ${SHUTDOWN_RETRY_MIN_MS + Math.floor(Math.random() * 1000)}\n\n`);
      end();
    },
  };
  const detach = hub.attachGuest(handle);
  const heartbeat = setInterval(() => write(': ping\n\n'), deps.config.eventStreamHeartbeatMs);
  function end() {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    detach();
    out.end();
  }
  ctx.res.on('close', end);
  out.on('error', end);
  if (hub.isStopped()) return handle.close('shutdown');

  write(`retry: ${EVENT_STREAM_RETRY_MS}\n\n`);
  write(frame('hello', { cursor }, cursor));
  void pump();
}
