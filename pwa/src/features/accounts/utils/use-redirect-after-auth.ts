import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { LIMITS } from '../../../../../api/contract/constants';

/** Navigates to `path` after the product rules' login redirect delay (200 ms); cancelled if the page goes away. */
export function useRedirectAfterAuth(): (path: string) => void {
  const navigate = useNavigate();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return (path: string) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => navigate(path, { replace: true }), LIMITS.loginRedirectDelayMs);
  };
}
