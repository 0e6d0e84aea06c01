import type { Knex } from 'knex';
import type { Logger } from 'pino';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';

/**
 * One open event stream as the hub sees it: whose it is, and how to wake or close it.
 */
export interface StreamHandle {
  userId: number;
  sessionId: string;
  role: string;
  /** The user may have new events in the log. */
  wake(): void;
  /** The session is over (logout, revocation, expiry) or the server is stopping: end the stream. */
  close(reason: 'session' | 'shutdown'): void;
}

/** One open guest stream (issue #52): a guest of a call has no session, only its own part. */
export interface GuestStreamHandle {
  guestId: number;
  /** Something for this guest may have changed: its state, its call, a mesh signal to it. */
  wake(): void;
  close(reason: 'session' | 'shutdown'): void;
}

/**
 * What travels on the database channel: new events for a user, sessions that ended, or news for a guest
 * (migration 0034).
 */
type Notice = { u: number; e: number } | { s: string } | { r: number; k?: string } | { g: number };

/**
 * Connects the event log to the open streams of this process. Events are announced by the database itself
 * (pg_notify from the triggers of migration 0011), so an event written through any API process wakes the
 * streams of every process: PostgreSQL delivers it through LISTEN on a dedicated connection, the embedded
 * database through PGlite's own listen(). Session ends travel the same way.
 */
export class EventHub {
  private readonly byUser = new Map<number, Set<StreamHandle>>();
  private readonly bySession = new Map<string, Set<StreamHandle>>();
  private readonly byGuest = new Map<number, Set<GuestStreamHandle>>();
  private channel = '';
  private listener: pg.Client | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private stopped = false;
  private started: Promise<void> | null = null;
  private retry: NodeJS.Timeout | undefined;
  private readonly arrivals = new Set<(user: { userId: number; role: string }, here: boolean) => void>();

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
  ) {}

  /**
   * Starts listening (once); streams may attach before it resolves. Once it listens, every stream attached
   * meanwhile reads the log again: an event written before the LISTEN took effect woke nobody.
   */
  start(): Promise<void> {
    this.started ??= this.listen()
      .then(() => this.wakeAll())
      .catch((err: unknown) => {
        this.logger.warn({ err }, 'event hub could not listen; streams fall back to their own reads');
      });
    return this.started;
  }

  /** The channel name of this database schema (tests run many schemas in one database). */
  private async channelName(): Promise<string> {
    if (!this.channel) {
      const res = (await this.db.raw('select current_schema() as s')) as { rows: { s: string }[] };
      this.channel = `nagai_events_${res.rows[0].s}`;
    }
    return this.channel;
  }

  private async listen(): Promise<void> {
    const channel = await this.channelName();
    const client = this.db.client as {
      config: { client?: unknown; connection?: unknown };
    };
    if (client.config.client === 'pg') {
      await this.listenPg(channel, client.config.connection as pg.ClientConfig);
    } else {
      const { pglite } = (client.config.connection as () => { pglite: PGlite })();
      this.unlisten = await pglite.listen(channel, (payload) => this.dispatch(payload));
    }
  }

  private async listenPg(channel: string, connection: pg.ClientConfig): Promise<void> {
    if (this.stopped) return;
    const listener = new pg.Client({ ...connection, application_name: 'nagai-events' });
    const reconnect = () => {
      if (this.listener !== listener || this.stopped) return;
      this.listener = null;
      listener.removeAllListeners('notification');
      void listener.end().catch(() => undefined);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => {
        void this.listenPg(channel, connection)
          .then(() => this.wakeAll())
          .catch((err: unknown) => {
            this.logger.warn({ err }, 'event hub: listen failed, retrying');
            this.listener = listener; // let reconnect() schedule the next try
            reconnect();
          });
      }, 1000);
      this.retry.unref();
    };
    listener.on('error', (err) => {
      this.logger.warn({ err }, 'event hub: listening connection failed');
      reconnect();
    });
    listener.on('end', reconnect);
    listener.on('notification', (n) => {
      if (n.payload) this.dispatch(n.payload);
    });
    this.listener = listener;
    await listener.connect();
    await listener.query(`listen "${channel.replace(/"/g, '""')}"`);
  }

  private dispatch(payload: string): void {
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    if ('u' in notice) {
      for (const s of this.byUser.get(notice.u) ?? []) s.wake();
    } else if ('g' in notice) {
      for (const s of this.byGuest.get(notice.g) ?? []) s.wake();
    } else if ('s' in notice) {
      for (const s of [...(this.bySession.get(notice.s) ?? [])]) s.close('session');
    } else if ('r' in notice) {
      for (const s of [...(this.byUser.get(notice.r) ?? [])])
        if (s.sessionId !== notice.k) s.close('session');
    }
  }

  /** Every stream reads the log again (after the listening connection was lost for a while). */
  private wakeAll(): void {
    for (const set of this.byUser.values()) for (const s of set) s.wake();
    for (const set of this.byGuest.values()) for (const s of set) s.wake();
  }

  /** A guest's stream (issue #52): woken by the {"g": guestId} notices of migration 0034. */
  attachGuest(stream: GuestStreamHandle): () => void {
    let set = this.byGuest.get(stream.guestId);
    if (!set) this.byGuest.set(stream.guestId, (set = new Set()));
    set.add(stream);
    return () => {
      set.delete(stream);
      if (!set.size && this.byGuest.get(stream.guestId) === set) this.byGuest.delete(stream.guestId);
    };
  }

  /**
   * Calls `listener` when a user's first stream in this process opens (`here` true) and when their last one
   * closes (false): the calls area writes a jeweller's presence at once from it (issue #50).
   */
  onArrival(listener: (user: { userId: number; role: string }, here: boolean) => void): void {
    this.arrivals.add(listener);
  }

  private tellArrival(stream: StreamHandle, here: boolean): void {
    for (const l of this.arrivals) {
      try {
        l({ userId: stream.userId, role: stream.role }, here);
      } catch (err) {
        this.logger.warn({ err }, 'event hub: an arrival listener failed');
      }
    }
  }

  attach(stream: StreamHandle): () => void {
    let users = this.byUser.get(stream.userId);
    const first = !users;
    if (!users) this.byUser.set(stream.userId, (users = new Set()));
    users.add(stream);
    if (first) this.tellArrival(stream, true);
    let sessions = this.bySession.get(stream.sessionId);
    if (!sessions) this.bySession.set(stream.sessionId, (sessions = new Set()));
    sessions.add(stream);
    return () => {
      users.delete(stream);
      if (!users.size && this.byUser.get(stream.userId) === users) {
        this.byUser.delete(stream.userId);
        if (!this.stopped) this.tellArrival(stream, false);
      }
      sessions.delete(stream);
      if (!sessions.size) this.bySession.delete(stream.sessionId);
    };
  }

  private async announce(notice: Notice): Promise<void> {
    const channel = await this.channelName();
    await this.db.raw('select pg_notify(?, ?)', [channel, JSON.stringify(notice)]);
  }

  /** A session ended (logout): its streams close, in whichever process they are. */
  async sessionEnded(sessionId: string): Promise<void> {
    await this.announce({ s: sessionId });
  }

  /** Every session of the user but `keep` was revoked (password change): their streams close. */
  async userSessionsRevoked(userId: number, keep?: string): Promise<void> {
    await this.announce(keep ? { r: userId, k: keep } : { r: userId });
  }

  /** Closes the streams whose sessions no longer exist or expired (revoked by any means). */
  async closeDeadSessions(now: Date): Promise<number> {
    const ids = [...this.bySession.keys()];
    if (!ids.length) return 0;
    const alive = new Set(
      (
        (await this.db('sessions').whereIn('id', ids).where('expires_at', '>', now).select('id')) as {
          id: string;
        }[]
      ).map((r) => r.id),
    );
    let closed = 0;
    for (const id of ids) {
      if (alive.has(id)) continue;
      for (const s of [...(this.bySession.get(id) ?? [])]) {
        s.close('session');
        closed++;
      }
    }
    return closed;
  }

  /** The users with at least one open stream here, with their role. */
  connectedUsers(): { userId: number; role: string }[] {
    const out: { userId: number; role: string }[] = [];
    for (const [userId, set] of this.byUser) {
      const first = set.values().next().value;
      if (first) out.push({ userId, role: first.role });
    }
    return out;
  }

  /** How many streams are open in this process. */
  size(): number {
    let n = 0;
    for (const set of this.byUser.values()) n += set.size;
    for (const set of this.byGuest.values()) n += set.size;
    return n;
  }

  /** Whether stop() has run (the process is stopping). */
  isStopped(): boolean {
    return this.stopped;
  }

  /** Ends every stream (shutdown) and stops listening. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    for (const set of [...this.byUser.values()]) for (const s of [...set]) s.close('shutdown');
    for (const set of [...this.byGuest.values()]) for (const s of [...set]) s.close('shutdown');
    const listener = this.listener;
    this.listener = null;
    if (listener) await listener.end().catch(() => undefined);
    if (this.unlisten) await this.unlisten().catch(() => undefined);
    this.unlisten = null;
  }
}
