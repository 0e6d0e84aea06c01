import { describe, expect, it } from 'vitest';
import {
  applyCallCodecs,
  callVideoCodecs,
  type CodecLike,
  type TransceiverHost,
} from '../../pwa/src/features/video/lib/codecs';
import { peerConfiguration } from '../../pwa/src/features/video/providers/p2p';

/** RTCRtpReceiver.getCapabilities('video').codecs as each engine reports them (abridged, in its order). */
const CHROMIUM: CodecLike[] = [
  { mimeType: 'video/VP8', clockRate: 90000 },
  { mimeType: 'video/rtx', clockRate: 90000 },
  { mimeType: 'video/VP9', clockRate: 90000, sdpFmtpLine: 'profile-id=0' },
  {
    mimeType: 'video/H264',
    clockRate: 90000,
    sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f',
  },
  {
    mimeType: 'video/H264',
    clockRate: 90000,
    sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640034',
  },
  {
    mimeType: 'video/H264',
    clockRate: 90000,
    sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  },
  { mimeType: 'video/AV1', clockRate: 90000, sdpFmtpLine: 'level-idx=5;profile=0;tier=0' },
  {
    mimeType: 'video/H265',
    clockRate: 90000,
    sdpFmtpLine: 'level-id=156;profile-id=1;tier-flag=0;tx-mode=SRST',
  },
  { mimeType: 'video/red', clockRate: 90000 },
  { mimeType: 'video/ulpfec', clockRate: 90000 },
  { mimeType: 'video/flexfec-03', clockRate: 90000, sdpFmtpLine: 'repair-window=10000000' },
];
/** Debian's Firefox ESR 153 without the OpenH264 plug-in (as in the suite). */
const FIREFOX: CodecLike[] = [
  { mimeType: 'video/VP8', clockRate: 90000, sdpFmtpLine: 'max-fs=12288;max-fr=60' },
  { mimeType: 'video/rtx', clockRate: 90000 },
  { mimeType: 'video/VP9', clockRate: 90000, sdpFmtpLine: 'max-fs=12288;max-fr=60' },
  { mimeType: 'video/AV1', clockRate: 90000 },
  { mimeType: 'video/ulpfec', clockRate: 90000 },
  { mimeType: 'video/red', clockRate: 90000 },
];
/** Safari (H.264 first, as WebKit lists it). */
const SAFARI: CodecLike[] = [
  {
    mimeType: 'video/H264',
    clockRate: 90000,
    sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=640c1f',
  },
  { mimeType: 'video/rtx', clockRate: 90000 },
  {
    mimeType: 'video/H264',
    clockRate: 90000,
    sdpFmtpLine: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  },
  { mimeType: 'video/H265', clockRate: 90000 },
  { mimeType: 'video/VP8', clockRate: 90000 },
  { mimeType: 'video/VP9', clockRate: 90000, sdpFmtpLine: 'profile-id=0' },
];

const mimes = (cs: CodecLike[]) =>
  cs.map(
    (c) =>
      `${c.mimeType}${
        c.sdpFmtpLine
          ?.match(/profile-level-id=(\w+)/)?.[0]
          .slice(-6)
          .replace(/^/, ' ') ?? ''
      }`,
  );

describe('call video codecs', () => {
  it('Chromium: VP8, then H.264 constrained baseline mode 1 first, then the rest in its own order', () => {
    expect(mimes(callVideoCodecs(CHROMIUM))).toEqual([
      'video/VP8',
      'video/H264 42e01f',
      'video/H264 640034',
      'video/H264 42001f',
      'video/rtx',
      'video/VP9',
      'video/AV1',
      'video/H265',
      'video/red',
      'video/ulpfec',
      'video/flexfec-03',
    ]);
  });

  it('Firefox without OpenH264: VP8 first, nothing removed (its offer keeps the rtcp-fb lines of removed codecs)', () => {
    expect(mimes(callVideoCodecs(FIREFOX))).toEqual(mimes(FIREFOX));
    expect(callVideoCodecs(FIREFOX)).toHaveLength(FIREFOX.length);
  });

  it('Safari: VP8 ahead of its own H.264 order, constrained baseline first among the H.264', () => {
    expect(mimes(callVideoCodecs(SAFARI))).toEqual([
      'video/VP8',
      'video/H264 42e01f',
      'video/H264 640c1f',
      'video/rtx',
      'video/H265',
      'video/VP9',
    ]);
  });

  it('any two engines agree on the first video codec the offer lists', () => {
    for (const a of [CHROMIUM, FIREFOX, SAFARI])
      for (const b of [CHROMIUM, FIREFOX, SAFARI]) {
        const first = callVideoCodecs(a)[0];
        expect(first.mimeType).toBe('video/VP8');
        expect(callVideoCodecs(b).some((c) => c.mimeType === first.mimeType)).toBe(true);
      }
  });

  it('a browser with neither VP8 nor H.264 keeps its list as it was', () => {
    const odd = [
      { mimeType: 'video/VP9', clockRate: 90000 },
      { mimeType: 'video/rtx', clockRate: 90000 },
    ];
    expect(callVideoCodecs(odd)).toEqual(odd);
  });
});

describe('transceivers of a call', () => {
  function host(kinds: string[], withApi = true) {
    const set: Record<number, CodecLike[]> = {};
    const peer: TransceiverHost = {
      getTransceivers: () =>
        kinds.map((kind, i) => ({
          receiver: { track: { kind } },
          ...(withApi ? { setCodecPreferences: (c: CodecLike[]) => void (set[i] = c) } : {}),
        })),
    };
    return { peer, set };
  }

  it('sets the codec order on the video transceiver only', () => {
    const { peer, set } = host(['audio', 'video']);
    expect(applyCallCodecs(peer, CHROMIUM)).toBe(true);
    expect(set[0]).toBeUndefined();
    expect(set[1]?.[0]?.mimeType).toBe('video/VP8');
    expect(set[1]?.[1]?.sdpFmtpLine).toContain('profile-level-id=42e01f');
    expect(set[1]).toHaveLength(CHROMIUM.length);
  });

  it('leaves the engine its default order where setCodecPreferences is missing or refuses', () => {
    expect(applyCallCodecs(host(['audio', 'video'], false).peer, CHROMIUM)).toBe(false);
    const refusing: TransceiverHost = {
      getTransceivers: () => [
        {
          receiver: { track: { kind: 'video' } },
          setCodecPreferences: () => {
            throw new DOMException('bad codec', 'InvalidModificationError');
          },
        },
      ],
    };
    expect(applyCallCodecs(refusing, CHROMIUM)).toBe(false);
    expect(applyCallCodecs(host(['video']).peer, null)).toBe(false);
  });

  it('one bundled transport with RTCP multiplexed; a pool of candidates only for a peer made ahead with ICE servers', () => {
    const turn = [{ urls: 'turn:relay.example:3478', username: 'u', credential: 'c' }];
    expect(peerConfiguration([])).toEqual({
      iceServers: [],
      bundlePolicy: 'max-bundle',
      rtcpMuxPolicy: 'require',
    });
    expect(peerConfiguration(turn, true)).toMatchObject({
      iceCandidatePoolSize: 1,
      bundlePolicy: 'max-bundle',
    });
    expect(peerConfiguration(turn, false).iceCandidatePoolSize).toBeUndefined();
    expect(peerConfiguration([], true).iceCandidatePoolSize).toBeUndefined();
  });
});
