import { useCallback, useState } from 'react';

const key = (userId: number) => `nagai.seller.setupGuideDismissed.${userId}`;

function read(userId: number): boolean {
  try {
    return globalThis.localStorage?.getItem(key(userId)) === '1';
  } catch {
    return false;
  }
}

/** Whether this user dismissed the setup guide on this device (docs/product-rules.md §2: remembered per user locally). */
export function useGuideDismissed(userId: number): [boolean, () => void] {
  const [state, setState] = useState(() => ({ userId, dismissed: read(userId) }));
  // Another user signed in on the same page: read their own choice.
  if (state.userId !== userId) setState({ userId, dismissed: read(userId) });
  const dismiss = useCallback(() => {
    try {
      globalThis.localStorage?.setItem(key(userId), '1');
    } catch {
      /* private mode: dismissed for this visit only */
    }
    setState({ userId, dismissed: true });
  }, [userId]);
  return [state.dismissed, dismiss];
}
