import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FamilyParty } from '../../api/contract/call-family';
import type { SignalKind } from '../../api/contract/calls';
import { FamilyMesh } from '../../pwa/src/features/calls/lib/family-mesh';

/**
 * The mesh's candidates trickle both ways (issue #52): a candidate an answering side finds after its answer
 * went out reaches the offerer. Without it a Firefox guest (host candidates named by mDNS, which the other
 * side cannot resolve) had no address to check when the answering Chromium gathered late, and the pair never
 * connected. The browser's RTCPeerConnection is the only stand-in here: it records what the mesh does with it
 * and lets the test say when a candidate is found.
 */
class RecordingPeer extends EventTarget {
  static made: RecordingPeer[] = [];
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  signalingState: RTCSignalingState = 'stable';
  iceGatheringState: RTCIceGatheringState = 'gathering';
  onicecandidate: ((e: { candidate: { toJSON(): RTCIceCandidateInit } | null }) => void) | null = null;
  ontrack: ((e: RTCTrackEvent) => void) | null = null;
  added: RTCIceCandidateInit[] = [];
  constructor() {
    super();
    RecordingPeer.made.push(this);
  }
  addTransceiver() {}
  addTrack() {}
  getTransceivers() {
    return [];
  }
  getSenders() {
    return [];
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: 'offer-sdp' };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: 'answer-sdp' };
  }
  async setLocalDescription(d: RTCSessionDescriptionInit) {
    this.localDescription = d;
    this.signalingState = d.type === 'offer' ? 'have-local-offer' : 'stable';
  }
  async setRemoteDescription(d: RTCSessionDescriptionInit) {
    this.remoteDescription = d;
    this.signalingState = d.type === 'offer' ? 'have-remote-offer' : 'stable';
  }
  async addIceCandidate(c: RTCIceCandidateInit) {
    this.added.push(c);
  }
  /** The engine finds a candidate. */
  found(candidate: string) {
    this.onicecandidate?.({ candidate: { toJSON: () => ({ candidate, sdpMid: '0' }) } });
  }
  close() {}
}

type Sent = { to: FamilyParty; kind: SignalKind; payload: Record<string, unknown> };

function meshOf(me: FamilyParty) {
  const sent: Sent[] = [];
  const mesh = new FamilyMesh(
    me,
    null,
    [],
    async (to, kind, payload) => {
      sent.push({ to, kind, payload });
    },
    () => undefined,
  );
  return { mesh, sent };
}

afterEach(() => {
  vi.unstubAllGlobals();
  RecordingPeer.made = [];
});

describe('family mesh candidates', () => {
  it("the answering side's candidates found after its answer reach the offerer, and are added there", async () => {
    vi.stubGlobal('RTCPeerConnection', RecordingPeer);
    vi.stubGlobal(
      'MediaStream',
      class {
        getTracks() {
          return [];
        }
      },
    );
    const guest = meshOf('g1');
    const jeweller = meshOf('u7');

    // The guest offers; the jeweller answers (each waits its MESH_GATHER_MS for candidates first).
    guest.mesh.sync(['g1', 'u7']);
    await vi.waitFor(() => expect(guest.sent.map((s) => s.kind)).toEqual(['offer']), { timeout: 2000 });
    await jeweller.mesh.handle({ id: 1, from: 'g1', ...guest.sent[0]! });
    expect(jeweller.sent.map((s) => [s.to, s.kind])).toEqual([['g1', 'answer']]);

    // The jeweller's engine finds a candidate after the answer went out: it follows the answer.
    const [, answering] = RecordingPeer.made;
    answering!.found('candidate:late 1 udp 1 203.0.113.1 49152 typ relay');
    await vi.waitFor(() =>
      expect(jeweller.sent.map((s) => [s.to, s.kind])).toEqual([
        ['g1', 'answer'],
        ['g1', 'candidate'],
      ]),
    );

    // The guest adds it once the answer is set, whichever of the two comes first.
    await guest.mesh.handle({ id: 3, from: 'u7', ...jeweller.sent[1]! });
    await guest.mesh.handle({ id: 2, from: 'u7', ...jeweller.sent[0]! });
    expect(RecordingPeer.made[0]!.added.map((c) => c.candidate)).toEqual([
      'candidate:late 1 udp 1 203.0.113.1 49152 typ relay',
    ]);
  });
});
