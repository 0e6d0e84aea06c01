import { useEffect } from 'react';
import { API_ROUTES } from '../../../../../api/contract/routes';

/**
 * While a call rings, leaving the page ends it on the server with a beacon. A call in progress is not ended
 * by leaving: a reload rejoins it within seconds, and if nobody comes back the other side ends it as
 * 'connection lost' after 30 s without media (and the server's sweep ends calls nobody polls).
 */
export function useUnloadBeacon(callId: number | null, endOnLeave = true): void {
  useEffect(() => {
    if (callId === null || !endOnLeave) return;
    let sent = false;
    const onLeave = () => {
      if (sent) return;
      sent = true;
      const body = new Blob([JSON.stringify({ callId })], { type: 'application/json' });
      if (!navigator.sendBeacon?.(API_ROUTES.callEnd.path, body)) {
        void fetch(API_ROUTES.callEnd.path, {
          method: 'POST',
          body,
          keepalive: true,
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
        }).catch(() => undefined);
      }
    };
    window.addEventListener('pagehide', onLeave);
    window.addEventListener('unload', onLeave);
    return () => {
      window.removeEventListener('pagehide', onLeave);
      window.removeEventListener('unload', onLeave);
    };
  }, [callId, endOnLeave]);
}
