import type { KeyboardEvent } from 'react';

/**
 * Controls that must work before the app has started are links (no dead zone before hydration, issue #23)
 * that act as buttons once it has: they carry role="button", and Space presses them as it presses a button.
 */
export function pressOnSpace(e: KeyboardEvent<HTMLAnchorElement>): void {
  if (e.key !== ' ') return;
  e.preventDefault();
  e.currentTarget.click();
}
