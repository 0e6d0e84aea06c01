import {
  FAMILY_LINK_VIDEO,
  type FamilyParty,
  type FamilySignal,
} from '../../../../../api/contract/call-family';
import type { SignalKind } from '../../../../../api/contract/calls';
import { applyCallCodecs } from '../../video/lib/codecs';
import { markCall } from '../../video/lib/marks';
import { peerConfiguration } from '../../video/providers/p2p/peer';

/**
 * The call's mesh with its guests (issue #52, docs/product-rules.md §21.4): one peer connection per other
 * party that is a guest, or for a guest, per other party. The customer–jeweller connection is the call's own
 * and is not here. Who offers: a guest offers to the customer and the jeweller, and the later guest (the
 * higher id) to the earlier one. Descriptions wait for their first candidates (host ones, all loopback and a LAN
 * need, come in milliseconds: see gathered()); later candidates trickle, from either side.
 */
export const MESH_GATHER_MS = 250;

export type MeshSend = (to: FamilyParty, kind: SignalKind, payload: Record<string, unknown>) => Promise<void>;

interface Link {
  pc: RTCPeerConnection;
  stream: MediaStream;
  /** Candidates that came before the remote description. */
  pending: RTCIceCandidateInit[];
  /** This side's description, sent (its candidates until then are in it; later ones follow it). */
  sent?: Promise<void>;
}

const guestNumber = (p: FamilyParty) => (p.startsWith('g') ? Number(p.slice(1)) : 0);

/** Whether `me` makes the offer to `other`. */
export function offersTo(me: FamilyParty, other: FamilyParty): boolean {
  if (me.startsWith('u')) return false;
  if (other.startsWith('u')) return true;
  return guestNumber(me) > guestNumber(other);
}

/** Caps one connection's video to FAMILY_LINK_VIDEO: five people on phones hold it (simulcast off). */
async function capVideo(pc: RTCPeerConnection): Promise<void> {
  for (const sender of pc.getSenders()) {
    const track = sender.track;
    if (!track || track.kind !== 'video') continue;
    const params = sender.getParameters();
    if (!params.encodings?.length) params.encodings = [{}];
    const { width = 640, height = 480 } = track.getSettings();
    const scale = Math.max(1, width / FAMILY_LINK_VIDEO.maxWidth, height / FAMILY_LINK_VIDEO.maxHeight);
    params.encodings[0] = {
      ...params.encodings[0],
      maxBitrate: FAMILY_LINK_VIDEO.maxBitrate,
      maxFramerate: FAMILY_LINK_VIDEO.maxFramerate,
      scaleResolutionDownBy: scale,
    };
    await sender.setParameters(params).catch(() => undefined);
  }
}

/**
 * A description goes out once gathering is complete, or MESH_SETTLE_MS after the last candidate found (host
 * candidates come together in milliseconds; what comes later, from STUN or the relay, trickles), and at most
 * after MESH_GATHER_MS.
 */
export const MESH_SETTLE_MS = 40;

async function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, MESH_GATHER_MS);
    let settle: ReturnType<typeof setTimeout> | undefined;
    function done() {
      clearTimeout(timer);
      clearTimeout(settle);
      pc.removeEventListener('icegatheringstatechange', check);
      pc.removeEventListener('icecandidate', found);
      resolve();
    }
    function check() {
      if (pc.iceGatheringState === 'complete') done();
    }
    function found() {
      clearTimeout(settle);
      settle = setTimeout(done, MESH_SETTLE_MS);
    }
    pc.addEventListener('icegatheringstatechange', check);
    pc.addEventListener('icecandidate', found);
  });
}

export class FamilyMesh {
  private links = new Map<FamilyParty, Link>();
  /** What replaceVideo set: sent instead of the camera's video track, also by new connections. */
  private video: MediaStreamTrack | null = null;
  private closed = false;

  constructor(
    private readonly me: FamilyParty,
    private local: MediaStream | null,
    private readonly iceServers: RTCIceServer[],
    private readonly send: MeshSend,
    private readonly onStreams: (streams: ReadonlyMap<FamilyParty, MediaStream>) => void,
  ) {}

  /** The remote streams now, by party. */
  streams(): ReadonlyMap<FamilyParty, MediaStream> {
    return new Map([...this.links].map(([p, l]) => [p, l.stream]));
  }

  /** The parties this side should be connected to now (the others are closed). */
  sync(parties: readonly FamilyParty[]): void {
    if (this.closed) return;
    const wanted = new Set(parties.filter((p) => p !== this.me));
    for (const party of [...this.links.keys()]) if (!wanted.has(party)) this.drop(party);
    for (const party of wanted) {
      if (this.links.has(party) || !offersTo(this.me, party)) continue;
      void this.offer(party);
    }
  }

  /** A signal addressed to this side. */
  async handle(signal: FamilySignal): Promise<void> {
    if (this.closed) return;
    const from = signal.from;
    const p = signal.payload as { sdp?: string; type?: RTCSdpType; candidate?: RTCIceCandidateInit };
    if (signal.kind === 'bye') return this.drop(from);
    if (signal.kind === 'offer') {
      markCall(`family-offer-in:${from}`);
      // A new offer from a party replaces its connection (the other side started again).
      this.drop(from);
      const link = this.open(from);
      await link.pc.setRemoteDescription({ type: 'offer', sdp: p.sdp ?? '' });
      await this.flush(link);
      await link.pc.setLocalDescription(await link.pc.createAnswer());
      await capVideo(link.pc);
      await gathered(link.pc);
      if (this.links.get(from) !== link) return;
      markCall(`family-answer:${from}`);
      link.sent = this.send(from, 'answer', { type: 'answer', sdp: link.pc.localDescription?.sdp ?? '' });
      await link.sent;
      return;
    }
    const link = this.links.get(from);
    if (!link) return;
    if (signal.kind === 'answer' && link.pc.signalingState === 'have-local-offer') {
      markCall(`family-answer-in:${from}`);
      await link.pc.setRemoteDescription({ type: 'answer', sdp: p.sdp ?? '' });
      await this.flush(link);
    } else if (signal.kind === 'candidate' && p.candidate) {
      if (link.pc.remoteDescription) await link.pc.addIceCandidate(p.candidate).catch(() => undefined);
      else link.pending.push(p.candidate);
    }
  }

  /**
   * The video to send instead of the camera's (a try-on's picture), or null: the camera's again. Every
   * connection sends it now, and every connection opened later (a guest admitted meanwhile) starts with it.
   */
  replaceVideo(track: MediaStreamTrack | null): void {
    this.video = track;
    const next = track ?? this.local?.getVideoTracks()[0] ?? null;
    for (const { pc } of this.links.values())
      for (const s of pc.getSenders())
        if (s.track?.kind === 'video' || (!s.track && next)) void s.replaceTrack(next).catch(() => undefined);
  }

  close(): void {
    this.closed = true;
    for (const party of [...this.links.keys()]) this.drop(party, false);
  }

  private open(party: FamilyParty): Link {
    const pc = new RTCPeerConnection(peerConfiguration(this.iceServers));
    if (this.local)
      for (const track of this.local.getTracks())
        pc.addTrack(track.kind === 'video' && this.video ? this.video : track, this.local);
    else {
      // A guest with camera and microphone off still receives everyone.
      pc.addTransceiver('audio', { direction: 'recvonly' });
      pc.addTransceiver('video', { direction: 'recvonly' });
    }
    applyCallCodecs(pc);
    const link: Link = { pc, stream: new MediaStream(), pending: [] };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'connected') markCall(`family-connected:${party}`);
    };
    pc.ontrack = (e) => {
      if (!link.stream.getTracks().includes(e.track)) link.stream.addTrack(e.track);
      // A fresh stream object, so the tile's video element takes it again.
      link.stream = new MediaStream(link.stream.getTracks());
      this.onStreams(this.streams());
    };
    pc.onicecandidate = (e) => {
      // Candidates found after the description went out (offer or answer) follow it, once it is stored.
      const sent = link.sent;
      if (e.candidate && sent) {
        const candidate = e.candidate.toJSON();
        void sent.then(() => this.send(party, 'candidate', { candidate })).catch(() => undefined);
      }
    };
    this.links.set(party, link);
    this.onStreams(this.streams());
    return link;
  }

  private async offer(party: FamilyParty): Promise<void> {
    const link = this.open(party);
    await link.pc.setLocalDescription(await link.pc.createOffer());
    await capVideo(link.pc);
    await gathered(link.pc);
    if (this.links.get(party) !== link) return;
    markCall(`family-offer:${party}`);
    link.sent = this.send(party, 'offer', { type: 'offer', sdp: link.pc.localDescription?.sdp ?? '' });
    await link.sent;
  }

  private async flush(link: Link): Promise<void> {
    const pending = link.pending.splice(0);
    for (const c of pending) await link.pc.addIceCandidate(c).catch(() => undefined);
  }

  private drop(party: FamilyParty, tell = true): void {
    const link = this.links.get(party);
    if (!link) return;
    this.links.delete(party);
    link.pc.close();
    if (tell) this.onStreams(this.streams());
  }
}
