import { VIDEO_CONNECTION_MESSAGES } from '../../../../../../api/contract/video';
import { markCall } from '../../lib/marks';
import { CallEndedError } from '../types';
import type { Attempt } from './attempt';
import { gatherWindow, iceGathered } from './peer';

/** Media gone this long after a drop ends the call ('connection lost'). */
export const MEDIA_LOSS_LIMIT_MS = 30_000;
/** While media is gone the caller restarts ICE this often (a new offer with fresh candidates). */
export const ICE_RESTART_EVERY_MS = 4_000;
/** A drop shorter than this often heals by itself (ICE keeps checking the old pairs): restart only after. */
const ICE_RESTART_AFTER_MS = 1_500;

/** A connected call's media: lost without a hang-up, repaired by ICE restarts, given up after the limit. */
export interface MediaWatch {
  /** Media stopped without a hang-up: say so, restart ICE now and then, give up after the limit. */
  lost(): void;
  /** Media flows again. */
  back(): void;
  /** Media is gone now (a failed request is then expected, not a signalling failure). */
  isLost(): boolean;
  /** This side's own requests fail (or work again): the drop is most likely here. */
  setOffline(offline: boolean): void;
  /** Times the media dropped and came back. */
  reconnects(): number;
  dispose(): void;
}

export function watchMedia(a: Attempt): MediaWatch {
  // Media stopped without a hang-up, since this time (epoch ms); null while media flows.
  let lostAt: number | null = null;
  let localOffline = false;
  let lastRestart = 0;
  let reconnects = 0;
  let watchdog: ReturnType<typeof setInterval> | undefined;

  const setOffline = (offline: boolean) => {
    if (offline === localOffline) return;
    localOffline = offline;
    if (lostAt !== null) a.events.onReconnecting?.({ since: lostAt, localOffline });
  };

  /** A new offer with fresh ICE credentials on the same peer connection: the call goes on, nobody redials. */
  const restartIce = async () => {
    lastRestart = Date.now();
    const peer = a.pc;
    try {
      // An earlier restart's offer that got no answer (lost while offline) is taken back first.
      if (peer.signalingState === 'have-local-offer') await peer.setLocalDescription({ type: 'rollback' });
      if (peer.signalingState !== 'stable') return;
      a.trickling = false;
      await peer.setLocalDescription(await peer.createOffer({ iceRestart: true }));
      markCall('ice-restart');
      await iceGathered(peer, gatherWindow(), a.stop.signal);
      if (peer !== a.pc || a.stop.signal.aborted) return;
      const local = peer.localDescription;
      if (!local) return;
      a.trickling = true;
      await a.send('offer', { sid: a.sid, restart: true, type: local.type, sdp: local.sdp });
    } catch {
      /* tried again on the next tick while media is gone */
    }
  };

  const lost = () => {
    if (lostAt !== null || !a.connectedOnce) return;
    lostAt = Date.now();
    markCall('media-lost');
    a.events.onReconnecting?.({ since: lostAt, localOffline });
    clearInterval(watchdog);
    watchdog = setInterval(() => {
      if (lostAt === null || a.stop.signal.aborted) {
        clearInterval(watchdog);
        return;
      }
      const gone = Date.now() - lostAt;
      if (gone >= MEDIA_LOSS_LIMIT_MS) {
        a.finish(new CallEndedError(VIDEO_CONNECTION_MESSAGES.connectionLost, 'connection_lost'));
        return;
      }
      // The caller offers; the callee answers whatever restart arrives.
      if (
        a.isCaller &&
        !localOffline &&
        gone >= ICE_RESTART_AFTER_MS &&
        Date.now() - lastRestart >= ICE_RESTART_EVERY_MS
      ) {
        void restartIce();
      }
    }, 500);
  };

  const back = () => {
    if (lostAt === null) return;
    lostAt = null;
    reconnects++;
    clearInterval(watchdog);
    markCall('media-back');
    a.events.onReconnected?.();
  };

  return {
    lost,
    back,
    isLost: () => lostAt !== null,
    setOffline,
    reconnects: () => reconnects,
    dispose: () => clearInterval(watchdog),
  };
}
