import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SignalEvent } from '../../api/contract/events';

// The edges of the answering side's prepared peer: the signalling requests and the event stream (the browser's
// RTCPeerConnection is a recording stand-in below). Everything between them is the product's code.
const stream = vi.hoisted(() => ({
  handlers: [] as ((e: SignalEvent) => void)[],
  emit(e: SignalEvent) {
    for (const h of stream.handlers) h(e);
  },
}));
const listed = vi.hoisted(() => ({ calls: [] as ((v: unknown) => void)[] }));
vi.mock('../../pwa/src/lib/event-stream', () => ({
  isStreamOpen: () => true,
  onStreamEvent: (_name: string, handler: (e: SignalEvent) => void) => {
    stream.handlers.push(handler);
    return () => stream.handlers.splice(stream.handlers.indexOf(handler), 1);
  },
}));
vi.mock('../../pwa/src/features/video/api', () => ({
  fetchIceServers: () => Promise.resolve({ iceServers: [] }),
  signallingApi: {
    send: () => Promise.resolve({}),
    list: () => new Promise((resolve) => listed.calls.push(resolve)),
  },
}));

const { prepareAnswerPeer, releaseAnswerPeer } = await import('../../pwa/src/features/video/providers/p2p');

/** What the prepared peer was told, in order. */
const told: string[] = [];
class RecordingPeer {
  signalingState = 'stable';
  remoteDescription: unknown = null;
  addTrack() {}
  getTransceivers() {
    return [];
  }
  async setRemoteDescription(d: { type: string; sdp?: string }) {
    told.push(`remote ${d.type} ${d.sdp}`);
    this.remoteDescription = d;
    this.signalingState = 'have-remote-offer';
  }
  async addIceCandidate(c: { candidate: string }) {
    told.push(`candidate ${c.candidate}`);
  }
  close() {
    this.signalingState = 'closed';
  }
}

const CALL = 5;
const CALLER = 22;
const signal = (id: number, kind: 'offer' | 'candidate'): SignalEvent => ({
  callId: CALL,
  id,
  kind,
  fromUserId: CALLER,
  createdAt: new Date(0).toISOString(),
  payload:
    kind === 'offer'
      ? { sid: 's1', type: 'offer', sdp: 'the offer' }
      : { sid: 's1', candidate: { candidate: `c${id}` } },
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('the answering peer prepared while the call rings', () => {
  beforeEach(() => {
    told.length = 0;
    stream.handlers.length = 0;
    listed.calls.length = 0;
    vi.stubGlobal('RTCPeerConnection', RecordingPeer);
  });
  afterEach(() => {
    releaseAnswerPeer();
    vi.unstubAllGlobals();
  });

  it('takes the offer sent before it listened even when the stream brings later candidates first', async () => {
    // The caller's offer went out before the jeweller's page had its stream open: the first read of the call's
    // signals returns it, but the candidates that followed it arrive on the stream while that read is in flight.
    prepareAnswerPeer(CALL, Promise.resolve({ getTracks: () => [] } as unknown as MediaStream));
    await vi.waitFor(() => expect(listed.calls).toHaveLength(1));
    for (const id of [2, 3, 4]) stream.emit(signal(id, 'candidate'));
    await settle();
    listed.calls[0]({
      status: 'ringing',
      signals: [1, 2, 3, 4].map((id) => signal(id, id === 1 ? 'offer' : 'candidate')),
    });
    stream.emit(signal(5, 'candidate'));
    await vi.waitFor(() => expect(told).toHaveLength(5));
    expect(told).toEqual([
      'remote offer the offer',
      'candidate c2',
      'candidate c3',
      'candidate c4',
      'candidate c5',
    ]);
  });
});
