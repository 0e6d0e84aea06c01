import { useEffect } from 'react';

/** While a call is tracked, leaving the page ends it on the server with a beacon (spec §7). */
export function useUnloadBeacon(callId: number | null): void {
  useEffect(() => {
    if (callId === null) return;
    let sent = false;
    const onLeave = () => {
      if (sent) return;
      sent = true;
      const body = new Blob([JSON.stringify({ callId })], { type: 'application/json' });
      if (!navigator.sendBeacon?.('/_api/call/end', body)) {
        void fetch('/_api/call/end', {
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
  }, [callId]);
}
