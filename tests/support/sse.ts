import type { ApiClient } from './api';

/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  id?: string;
  event: string;
  data: unknown;
  at: number;
}

/**
 * A reader of GET /_api/events for tests: the real HTTP stream of the server, parsed as EventSource parses it
 * (fields up to a blank line; comment lines ignored), with waits for what should arrive.
 */
export class EventStreamReader {
  readonly events: ReceivedEvent[] = [];
  status = 0;
  ended = false;
  comments = 0;
  private readonly abort = new AbortController();
  private waiters: (() => void)[] = [];
  private done!: Promise<void>;

  private constructor() {}

  /** Opens the stream as the client's user (its cookies), optionally resuming after an event id. */
  static async open(
    client: ApiClient,
    opts: { lastEventId?: string; after?: number; baseUrl?: string; path?: string } = {},
  ): Promise<EventStreamReader> {
    const reader = new EventStreamReader();
    const headers: Record<string, string> = { Accept: 'text/event-stream', Origin: client.baseUrl };
    const cookie = client.cookieHeader();
    if (cookie) headers.Cookie = cookie;
    if (opts.lastEventId !== undefined) headers['Last-Event-ID'] = opts.lastEventId;
    // `path`: another stream (a guest's: /_api/family/guest/events?ticket=…), its query given whole.
    const url = `${opts.baseUrl ?? client.baseUrl}${opts.path ?? `/_api/events${opts.after !== undefined ? `?after=${opts.after}` : ''}`}`;
    const res = await fetch(url, { headers, signal: reader.abort.signal });
    reader.status = res.status;
    if (!res.ok || !res.body) {
      reader.ended = true;
      reader.done = Promise.resolve();
      await res.text().catch(() => undefined);
      return reader;
    }
    reader.done = reader.consume(res.body);
    return reader;
  }

  private async consume(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let blank: number;
        while ((blank = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, blank);
          buffer = buffer.slice(blank + 2);
          this.parse(block);
        }
      }
    } catch {
      /* aborted or cut */
    } finally {
      this.ended = true;
      this.notify();
    }
  }

  private parse(block: string): void {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments++;
        continue;
      }
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
      else continue;
      fields++;
    }
    if (!fields || !data.length) {
      this.notify();
      return;
    }
    this.events.push({ id, event, data: JSON.parse(data.join('\n')) as unknown, at: Date.now() });
    this.notify();
  }

  private notify(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }

  /** Resolves with the first event (from index `from`) that matches; rejects after `ms`. */
  async waitFor(match: (e: ReceivedEvent) => boolean, ms = 10_000, from = 0): Promise<ReceivedEvent> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (this.ended) throw new Error(`stream ended without the event; got ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${ms} ms; got ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Resolves when the server has ended the stream; rejects after `ms`. */
  async waitForEnd(ms = 10_000): Promise<void> {
    await Promise.race([
      this.done,
      new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), ms)),
    ]);
  }

  describe(): string {
    return JSON.stringify(this.events.map((e) => [e.id, e.event, e.data]));
  }

  close(): void {
    this.abort.abort();
  }
}
