/**
 * Timeline of a call's connection as `performance` marks named `call:<step>` (accept, active, token, media,
 * offer, answer, ice, first frame). They cost next to nothing, show up in DevTools' performance panel and
 * let the call-latency benchmark explain where the time between accept and first frame goes.
 */
export function markCall(step: string): void {
  try {
    performance.mark(`call:${step}`);
  } catch {
    /* no User Timing (very old browsers, some test environments) */
  }
}
