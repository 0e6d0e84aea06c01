import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { isAudioUnlocked, subscribeAudioState, unlockAudio } from '../lib/ringtone';

/**
 * Browsers keep audio suspended until a user gesture: resume the shared AudioContext on the first
 * pointerdown or keydown anywhere. Returns whether sound can play and an explicit unlock for a button.
 */
export function useAudioUnlock(enabled: boolean): { unlocked: boolean; unlock: () => void } {
  const unlocked = useSyncExternalStore(subscribeAudioState, isAudioUnlocked, () => false);
  useEffect(() => {
    if (!enabled || unlocked) return;
    const onGesture = () => void unlockAudio();
    const opts = { capture: true, passive: true } as const;
    window.addEventListener('pointerdown', onGesture, opts);
    window.addEventListener('keydown', onGesture, opts);
    return () => {
      window.removeEventListener('pointerdown', onGesture, opts);
      window.removeEventListener('keydown', onGesture, opts);
    };
  }, [enabled, unlocked]);
  const unlock = useCallback(() => void unlockAudio(), []);
  return { unlocked, unlock };
}
