import { useEffect } from 'react';
import { PATTERNS, Ringtone, type RingtoneKind } from '../lib/ringtone';

/**
 * Plays the given ringtone while `kind` is set and audio is unlocked; stops on any change (a terminal
 * status, an answered call or no call at all all end up as `null`).
 */
export function useRingtone(kind: RingtoneKind | null, unlocked: boolean): void {
  useEffect(() => {
    if (!kind || !unlocked) return;
    const tone = new Ringtone(PATTERNS[kind]);
    tone.start();
    return () => tone.stop();
  }, [kind, unlocked]);
}
