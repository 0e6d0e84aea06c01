import { useEffect, useState } from 'react';

/**
 * Seconds until a moment, ticking every second while positive: the wait before a mobile code may be sent
 * again, on the sign-in screen and on the mobile number page alike.
 */
export function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= now) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until, now]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}
