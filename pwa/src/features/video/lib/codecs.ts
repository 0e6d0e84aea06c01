/**
 * What a call's peer connection offers, so that any two engines (Chromium, Firefox, Safari/WebKit, on a phone
 * or a laptop) agree on the first try, without editing SDP text:
 *
 * - one audio and one video transceiver, both send-and-receive (addTrack), bundled on one transport;
 * - video in VP8 first (every engine encodes and decodes it in software: Chromium, Firefox, Safari 12.1+),
 *   then H.264 (Safari's own and the hardware codec of most phones; Firefox has it only with its OpenH264
 *   plug-in), constrained baseline with packetization mode 1 ahead of the other H.264 profiles;
 * - the engine's other codecs (VP9, AV1, H.265, and the repair entries rtx, red, ulpfec, flexfec) after them,
 *   in its own order: reordered, never removed. Removing entries is what setCodecPreferences is also for, but
 *   Firefox ESR 153 then leaves the removed codecs' rtcp-fb lines in its offer, and Chromium refuses that
 *   offer ("Failed to parse codecs correctly"); a shorter list gains nothing once VP8 is first.
 *
 * The order is set with RTCRtpTransceiver.setCodecPreferences where the browser has it (Chromium, Firefox
 * 128+, Safari 13.1+); elsewhere the engine's default order stands, which includes VP8 or H.264 anyway.
 */

/** A codec as RTCRtpReceiver.getCapabilities lists it. */
export type CodecLike = RTCRtpCodec;

const fmtp = (c: CodecLike, key: string) =>
  new RegExp(`(?:^|;)\\s*${key}=([^;]+)`, 'i')
    .exec(c.sdpFmtpLine ?? '')?.[1]
    ?.trim()
    .toLowerCase();

/** H.264 ranking: packetization mode 1 and constrained baseline (42e0xx / 42c0xx) first. */
function h264Rank(c: CodecLike): number {
  const mode1 = fmtp(c, 'packetization-mode') === '1';
  const profile = fmtp(c, 'profile-level-id') ?? '';
  const baseline = /^42[ce]0/.test(profile);
  return (mode1 ? 0 : 2) + (baseline ? 0 : 1);
}

/**
 * The browser's video capabilities in the call's order: VP8 entries, then H.264 entries (best profile first),
 * then every other entry as the browser listed it. Nothing is removed.
 */
export function callVideoCodecs<C extends CodecLike>(capabilities: readonly C[]): C[] {
  const is = (mime: string) => (c: C) => c.mimeType.toLowerCase() === mime.toLowerCase();
  const vp8 = capabilities.filter(is('video/VP8'));
  const h264 = capabilities
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => is('video/H264')(c))
    .sort((a, b) => h264Rank(a.c) - h264Rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
  const rest = capabilities.filter((c) => !is('video/VP8')(c) && !is('video/H264')(c));
  return [...vp8, ...h264, ...rest];
}

/** What applyCallCodecs needs of a peer connection (a real one, or a test's stand-in). */
export interface TransceiverHost {
  getTransceivers(): {
    receiver: { track: { kind: string } | null };
    setCodecPreferences?: (codecs: CodecLike[]) => void;
  }[];
}

/**
 * Sets the call's video codec order on every video transceiver, before an offer or an answer is created.
 * `capabilities` defaults to the receiver's (what this browser can decode, the list setCodecPreferences
 * takes). Returns whether preferences were set (false where the API is missing or the browser refused).
 */
export function applyCallCodecs(
  peer: TransceiverHost,
  capabilities: readonly CodecLike[] | null = typeof RTCRtpReceiver !== 'undefined' &&
  typeof RTCRtpReceiver.getCapabilities === 'function'
    ? (RTCRtpReceiver.getCapabilities('video')?.codecs ?? null)
    : null,
): boolean {
  if (!capabilities?.length) return false;
  const codecs = callVideoCodecs(capabilities);
  let set = false;
  for (const t of peer.getTransceivers()) {
    if (t.receiver.track?.kind !== 'video' || typeof t.setCodecPreferences !== 'function') continue;
    try {
      t.setCodecPreferences(codecs);
      set = true;
    } catch {
      /* the engine's default order stands: it offers VP8 or H.264 anyway */
    }
  }
  return set;
}
