import {
  FAMILY_GUEST_POLL_MS,
  FAMILY_GUEST_STREAM_POLL_MS,
  type FamilyGuestEvent,
  type FamilyGuestStateResponse,
  type FamilyParty,
  type FamilySignal,
  type GuestState,
} from '../../../../../api/contract/call-family';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { ApiError } from '../../../lib/api-client';
import { markCall } from '../../video/lib/marks';
import { FamilyMesh } from '../lib/family-mesh';
import { familyApi, guestApi } from './family-api';

/** The longest wait before a refused or failed stream is tried again with a new ticket. */
const STREAM_RETRY_MAX_MS = 30_000;

/**
 * How far a guest's part has gone: asked, admitted, over. A read that says less than one already seen is
 * older news (a poll sent before the admission event came) and is not applied.
 */
function rank(state: GuestState, callLive: boolean): number {
  if (!callLive) return 3;
  return state === 'invited' ? 0 : state === 'asked' ? 1 : state === 'admitted' ? 2 : 3;
}
const isOver = (state: GuestState, callLive: boolean) => rank(state, callLive) === 3;

/**
 * The call as the page knows it after a poll: the guest's state, the members and the piece as they are now,
 * and the items and likes kept so far with the new ones after them (a call that is over, or a part that
 * ended, keeps none).
 */
export function withNews(
  was: FamilyGuestStateResponse | null,
  s: FamilyGuestStateResponse,
): FamilyGuestStateResponse {
  if (was && rank(s.state, s.callLive) < rank(was.state, was.callLive)) return was;
  if (!was || s.state !== 'admitted' || !s.callLive) return s;
  return { ...s, items: [...was.items, ...s.items], likes: [...was.likes, ...s.likes] };
}

/** The call as the page knows it after a stream's 'guest' event (the piece, items and likes come by a read). */
export function withEvent(
  was: FamilyGuestStateResponse | null,
  e: FamilyGuestEvent,
): FamilyGuestStateResponse | null {
  if (!was || rank(e.state, e.callLive) < rank(was.state, was.callLive)) return was;
  const inCall = e.state === 'admitted' && e.callLive;
  return inCall
    ? { ...was, state: e.state, callLive: e.callLive, members: e.members }
    : { ...was, state: e.state, callLive: e.callLive, members: [], piece: null, items: [], likes: [] };
}

export interface GuestSessionView {
  state(s: FamilyGuestStateResponse): void;
  streams(s: ReadonlyMap<FamilyParty, MediaStream>): void;
  /** The token is no longer known (this tab's part is over). */
  lost(): void;
}

/**
 * A guest's part in the call (issue #52, docs/product-rules.md §21.2): its event stream (family-stream.ts on
 * the server) brings the admission, who is in and the mesh signals the moment they are written; the call's
 * state is read every FAMILY_GUEST_POLL_MS while the stream is not open and every FAMILY_GUEST_STREAM_POLL_MS
 * while it is (and at once when an event says something new was shown, said or liked). Once admitted, the mesh
 * with everyone (lib/family-mesh.ts): the guest offers, its ICE servers come with the admission event.
 */
export class GuestSession {
  private current: FamilyGuestStateResponse | null = null;
  private mesh: FamilyMesh | null = null;
  private iceServers: RTCIceServer[] | null = null;
  private fetchingIce = false;
  private members: FamilyParty[] = [];
  private party: { callId: number; me: FamilyParty } | null = null;
  /** Signals that came before the mesh was made, handed to it once it is. */
  private waiting: FamilySignal[] = [];
  private handling: Promise<void> = Promise.resolve();
  // The last signal, item and like this page has: each read brings only what came since.
  private readonly cursor = { after: 0, afterItem: 0, afterLike: 0 };
  private source: EventSource | null = null;
  private streamOpen = false;
  private streamFailures = 0;
  private streamTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  private polling = false;
  private pollAgain = false;
  private stopped = false;

  constructor(
    private readonly token: string,
    private readonly local: MediaStream | null,
    private readonly view: GuestSessionView,
  ) {}

  start(): void {
    void this.poll();
    void this.openStream();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.streamTimer);
    this.source?.close();
    this.source = null;
    this.closeMesh();
  }

  /** One read at a time; one asked for meanwhile runs right after it. */
  private async poll(): Promise<void> {
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    clearTimeout(this.pollTimer);
    try {
      do {
        this.pollAgain = false;
        try {
          this.applyRead(await guestApi.state(this.token, this.cursor));
        } catch (err) {
          // A token the server no longer knows: this tab's part is over.
          if (err instanceof ApiError && err.status === 401) {
            this.view.lost();
            return this.stop();
          }
        }
      } while (this.pollAgain && !this.stopped);
    } finally {
      this.polling = false;
    }
    const s = this.current;
    if (this.stopped || (s && isOver(s.state, s.callLive))) return;
    this.pollTimer = setTimeout(
      () => void this.poll(),
      this.streamOpen ? FAMILY_GUEST_STREAM_POLL_MS : FAMILY_GUEST_POLL_MS,
    );
  }

  private applyRead(s: FamilyGuestStateResponse): void {
    if (this.stopped) return;
    const at = this.cursor;
    at.afterItem = Math.max(at.afterItem, ...s.items.map((i) => i.id));
    at.afterLike = Math.max(at.afterLike, ...s.likes.map((l) => l.id));
    const was = this.current;
    this.current = withNews(was, s);
    if (this.current !== was) this.view.state(this.current);
    // While the stream is open its events drive the mesh; a read older than what the page has drives nothing.
    const older = was !== null && this.current === was;
    if (!older && (!this.streamOpen || !this.party))
      this.part(
        s.state,
        s.callLive,
        { callId: s.callId, me: s.me },
        s.members.map((m) => m.party),
      );
    this.signals(s.signals);
    if (isOver(s.state, s.callLive)) this.source?.close();
  }

  private async openStream(): Promise<void> {
    if (this.stopped) return;
    let ticket: string;
    try {
      ticket = (await guestApi.ticket(this.token)).ticket;
    } catch {
      // Refused (the part is over: the poll says so) or offline: polls carry on; try again later.
      return this.retryStream();
    }
    if (this.stopped || typeof EventSource === 'undefined') return;
    const es = new EventSource(
      `${API_ROUTES.familyGuestEvents.path}?ticket=${ticket}&after=${this.cursor.after}`,
    );
    this.source = es;
    const on = <T>(name: string, handle: (data: T) => void) =>
      es.addEventListener(name, (e) => {
        if (this.source !== es || this.stopped) return;
        try {
          handle(JSON.parse((e as MessageEvent<string>).data) as T);
        } catch (err) {
          console.error(err);
        }
      });
    on('hello', () => {
      this.streamOpen = true;
      this.streamFailures = 0;
    });
    on<FamilyGuestEvent>('guest', (e) => this.applyEvent(e));
    on<FamilySignal>('signal', (s) => this.signals([s]));
    es.addEventListener('error', () => {
      if (this.source !== es) return;
      this.streamOpen = false;
      // EventSource resumes by itself (from the last signal's id); refused (the ticket expired), a new one.
      if (es.readyState === EventSource.CONNECTING) return;
      es.close();
      this.source = null;
      this.retryStream();
    });
  }

  private retryStream(): void {
    const s = this.current;
    if (this.stopped || (s && isOver(s.state, s.callLive))) return;
    this.streamFailures++;
    clearTimeout(this.streamTimer);
    this.streamTimer = setTimeout(
      () => void this.openStream(),
      Math.min(STREAM_RETRY_MAX_MS, 1_000 * 2 ** Math.min(this.streamFailures - 1, 5)),
    );
  }

  private applyEvent(e: FamilyGuestEvent): void {
    if (e.iceServers) this.iceServers ??= e.iceServers as RTCIceServer[];
    const was = this.current;
    this.current = withEvent(was, e);
    if (this.current && this.current !== was) this.view.state(this.current);
    this.part(
      e.state,
      e.callLive,
      { callId: e.callId, me: e.me },
      e.members.map((m) => m.party),
    );
    if (isOver(e.state, e.callLive)) {
      // The server ends the stream; EventSource would only try again.
      this.source?.close();
      this.source = null;
      this.streamOpen = false;
      void this.poll();
      return;
    }
    // Admitted just now (the piece and what was shown come by a read), or something new shown, said or liked.
    const inCall = e.state === 'admitted' && e.callLive;
    if (
      inCall &&
      (was?.state !== 'admitted' || e.lastItem > this.cursor.afterItem || e.lastLike > this.cursor.afterLike)
    )
      void this.poll();
  }

  /** The guest's part now: in the call, the mesh with the members; otherwise none. */
  private part(
    state: GuestState,
    callLive: boolean,
    party: { callId: number; me: FamilyParty },
    members: FamilyParty[],
  ): void {
    this.party = party;
    if (state === 'asked' && callLive) this.warmUp();
    if (state !== 'admitted' || !callLive) {
      if (this.mesh) this.closeMesh();
      return;
    }
    this.members = members;
    if (this.mesh) return this.mesh.sync(members);
    if (this.iceServers) return this.makeMesh(this.iceServers);
    // Admitted, learnt by a read: the guest's own ICE servers (relay credentials for this call), once.
    if (this.fetchingIce) return;
    this.fetchingIce = true;
    void guestApi
      .iceServers(this.token)
      .then((r) => r.iceServers as RTCIceServer[])
      .catch(() => [])
      .then((ice) => {
        this.fetchingIce = false;
        this.iceServers ??= ice;
        const s = this.current;
        if (!this.stopped && !this.mesh && s?.state === 'admitted' && s.callLive)
          this.makeMesh(this.iceServers);
      });
  }

  private warmed = false;

  /**
   * While the guest waits: the browser's WebRTC machinery started up (a throwaway connection with the camera's
   * tracks makes an offer, gathering host candidates only: no ICE servers, no relay credentials before the
   * Admit), so the first connections after the Admit do not pay for it (in the benchmark's traces a page's first
   * offer took 0.7–0.9 s to make on a busy machine, later ones 0.25 s).
   */
  private warmUp(): void {
    if (this.warmed || typeof RTCPeerConnection === 'undefined') return;
    this.warmed = true;
    try {
      const pc = new RTCPeerConnection();
      const local = this.local;
      if (local) for (const track of local.getTracks()) pc.addTrack(track, local);
      else pc.addTransceiver('video', { direction: 'recvonly' });
      void pc
        .createOffer()
        .then((offer) => pc.setLocalDescription(offer))
        .catch(() => undefined)
        .finally(() => setTimeout(() => pc.close(), 1_000));
    } catch {
      /* no WebRTC here: the mesh will say so */
    }
  }

  private makeMesh(iceServers: RTCIceServer[]): void {
    markCall('family-mesh');
    const { callId, me } = this.party!;
    const token = this.token;
    const mesh = new FamilyMesh(
      me,
      this.local,
      iceServers,
      (to, kind, payload) => familyApi.signal(callId, to, kind, payload, token).then(() => undefined),
      (streams) => this.view.streams(streams),
    );
    this.mesh = mesh;
    const waiting = this.waiting.splice(0);
    for (const s of waiting) this.handle(s);
    mesh.sync(this.members);
  }

  /** Signals addressed to the guest, each once and in order, from the stream or a read. */
  private signals(list: readonly FamilySignal[]): void {
    for (const s of list) {
      if (s.id <= this.cursor.after) continue;
      this.cursor.after = s.id;
      if (this.mesh) this.handle(s);
      else this.waiting.push(s);
    }
  }

  private handle(s: FamilySignal): void {
    const mesh = this.mesh;
    this.handling = this.handling.then(() => mesh?.handle(s).catch(() => undefined));
  }

  private closeMesh(): void {
    this.mesh?.close();
    this.mesh = null;
    this.waiting = [];
    this.view.streams(new Map());
  }
}
