import type { CallQualityReportInput, CallRoute } from '../../../../../api/contract/call-quality';
import { API_ROUTES } from '../../../../../api/contract/routes';

/** How often the statistics are read while a call is connected. */
export const STATS_EVERY_MS = 2_000;
/** How often the quality record goes to the server while the call runs (and once more at the end). */
export const REPORT_EVERY_MS = 15_000;
/** Below this estimated sending rate for AUDIO_ONLY_AFTER samples, video pauses and audio carries the call. */
export const AUDIO_ONLY_BELOW_KBPS = 150;
/** Above this for as many samples, video comes back. */
export const VIDEO_BACK_ABOVE_KBPS = 300;
const AUDIO_ONLY_AFTER = 3;
/** In audio-only mode video is tried again after this long (the estimate cannot grow without traffic). */
const VIDEO_RETRY_MS = 20_000;

/** The indicator both sides see: from the selected pair's round trip and the inbound loss. */
export type ConnectionQuality = 'good' | 'fair' | 'poor';

export interface CallStatsEvents {
  onQuality?: (quality: ConnectionQuality) => void;
  /** The link is too thin for video: video paused (true) or back (false). */
  onAudioOnly?: (audioOnly: boolean) => void;
}

type Stat = Record<string, unknown> & { id: string; type: string };

const median = (xs: number[]) => {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The route of a selected pair: relay if either end is our relay, srflx if either is a NAT's public address. */
export function routeOf(localType: unknown, remoteType: unknown): CallRoute {
  if (localType === 'relay' || remoteType === 'relay') return 'relay';
  if (localType === 'srflx' || remoteType === 'srflx') return 'srflx';
  return 'direct';
}

export function qualityOf(rttMs: number | null, lossPercent: number | null): ConnectionQuality {
  if ((rttMs ?? 0) > 600 || (lossPercent ?? 0) > 8) return 'poor';
  if ((rttMs ?? 0) > 300 || (lossPercent ?? 0) > 2) return 'fair';
  return 'good';
}

/**
 * Watches one call's peer connection: the connection-quality indicator, the bad-link mode (the camera keeps
 * its resolution and drops frame rate first; under AUDIO_ONLY_BELOW_KBPS video pauses) and the call's
 * quality record, sent to the server now and then and once more when the call ends.
 */
export function watchCallStats(opts: {
  callId: number;
  peer: () => RTCPeerConnection | null;
  reconnects: () => number;
  /** From the accept (or the first attempt) to media. */
  setupMs: number | null;
  events: CallStatsEvents;
}) {
  const rtts: number[] = [];
  const bitrates: number[] = [];
  let freezes = 0;
  let lost = 0;
  let received = 0;
  let route: CallRoute | null = null;
  let previous: { at: number; bytes: number; lost: number; received: number } | null = null;
  let thin = 0;
  let wide = 0;
  let audioOnlySince: number | null = null;
  let tuned: RTCRtpSender | null = null;
  let lastReport = Date.now();
  let stopped = false;

  const setVideoSending = async (pc: RTCPeerConnection, on: boolean) => {
    for (const sender of pc.getSenders()) {
      if (sender.track?.kind !== 'video') continue;
      const params = sender.getParameters();
      if (!params.encodings?.length) continue;
      params.encodings.forEach((e) => (e.active = on));
      await sender.setParameters(params).catch(() => undefined);
    }
  };

  /** Jewellery needs detail: under pressure keep the resolution and lower the frame rate. */
  const tune = async (pc: RTCPeerConnection) => {
    const sender = pc.getSenders().find((s) => s.track?.kind === 'video');
    if (!sender?.track || tuned === sender) return;
    tuned = sender;
    sender.track.contentHint = 'detail';
    const params = sender.getParameters() as RTCRtpSendParameters & { degradationPreference?: string };
    params.degradationPreference = 'maintain-resolution';
    await sender.setParameters(params).catch(() => undefined);
  };

  const report = (): CallQualityReportInput => {
    const rtt = median(rtts);
    const bitrate = median(bitrates);
    return {
      callId: opts.callId,
      connected: route !== null,
      route,
      setupMs: route !== null && opts.setupMs !== null ? Math.max(0, Math.round(opts.setupMs)) : null,
      rttMs: rtt === null ? null : Math.round(rtt),
      lossPercent: lost + received > 0 ? Math.round((lost / (lost + received)) * 10_000) / 100 : null,
      bitrateKbps: bitrate === null ? null : Math.round(bitrate),
      freezes,
      reconnects: opts.reconnects(),
    };
  };

  const send = (beacon: boolean) => {
    const body = JSON.stringify(report());
    if (beacon && typeof navigator.sendBeacon === 'function') {
      navigator.sendBeacon(API_ROUTES.callQuality.path, new Blob([body], { type: 'application/json' }));
      return;
    }
    void fetch(API_ROUTES.callQuality.path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => undefined);
  };

  const sample = async () => {
    const pc = opts.peer();
    if (!pc || pc.connectionState === 'closed') return;
    await tune(pc);
    const stats = new Map<string, Stat>();
    (await pc.getStats()).forEach((s: Stat) => stats.set(s.id, s));
    let pair: Stat | undefined;
    let bytes = 0;
    let lostNow = 0;
    let receivedNow = 0;
    let freezeNow = 0;
    for (const s of stats.values()) {
      if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string')
        pair = stats.get(s.selectedCandidatePairId);
      if (s.type === 'inbound-rtp') {
        bytes += Number(s.bytesReceived ?? 0);
        lostNow += Math.max(0, Number(s.packetsLost ?? 0));
        receivedNow += Number(s.packetsReceived ?? 0);
        if (s.kind === 'video') freezeNow += Number(s.freezeCount ?? 0);
      }
    }
    const now = Date.now();
    let lossPercent: number | null = null;
    if (previous && now > previous.at) {
      const dLost = Math.max(0, lostNow - previous.lost);
      const dReceived = Math.max(0, receivedNow - previous.received);
      lost += dLost;
      received += dReceived;
      if (dLost + dReceived > 0) lossPercent = (dLost / (dLost + dReceived)) * 100;
      if (bytes >= previous.bytes) bitrates.push(((bytes - previous.bytes) * 8) / (now - previous.at));
    }
    previous = { at: now, bytes, lost: lostNow, received: receivedNow };
    freezes = Math.max(freezes, freezeNow);
    let rttMs: number | null = null;
    if (pair && pc.connectionState === 'connected') {
      route = routeOf(
        stats.get(String(pair.localCandidateId))?.candidateType,
        stats.get(String(pair.remoteCandidateId))?.candidateType,
      );
      if (typeof pair.currentRoundTripTime === 'number') {
        rttMs = pair.currentRoundTripTime * 1000;
        rtts.push(rttMs);
      }
      const available = Number(pair.availableOutgoingBitrate ?? NaN) / 1000;
      if (Number.isFinite(available)) {
        thin = available < AUDIO_ONLY_BELOW_KBPS ? thin + 1 : 0;
        wide = available > VIDEO_BACK_ABOVE_KBPS ? wide + 1 : 0;
        if (audioOnlySince === null && thin >= AUDIO_ONLY_AFTER) {
          audioOnlySince = now;
          await setVideoSending(pc, false);
          opts.events.onAudioOnly?.(true);
        } else if (
          audioOnlySince !== null &&
          (wide >= AUDIO_ONLY_AFTER || now - audioOnlySince >= VIDEO_RETRY_MS)
        ) {
          audioOnlySince = null;
          thin = 0;
          await setVideoSending(pc, true);
          opts.events.onAudioOnly?.(false);
        }
      }
    }
    opts.events.onQuality?.(qualityOf(rttMs, lossPercent));
    if (now - lastReport >= REPORT_EVERY_MS) {
      lastReport = now;
      send(false);
    }
  };

  const timer = setInterval(() => {
    if (!stopped) void sample().catch(() => undefined);
  }, STATS_EVERY_MS);
  void sample().catch(() => undefined);

  return {
    /** Stops watching; with `final`, sends the last record (as a beacon, so it survives the page closing). */
    stop(final: boolean) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (final) send(true);
    },
  };
}
