import { Suspense, type ReactNode } from 'react';

/**
 * A part of a server-rendered page that React hydrates on its own: a Suspense boundary, React's unit of selective
 * hydration (`hydrateRoot`, src/boot.tsx). The first pass of hydration adopts the page up to its parts and leaves
 * each part's server markup in place; React then hydrates the parts one after another in short slices of
 * background work, yielding to the browser between them, so no part adds to one long task on a phone. A part the
 * reader touches, clicks, focuses or types in first is hydrated at once, before the others, and React then
 * delivers that very event to it. Until then its links and forms work as the server rendered them
 * (lib/pre-hydration.ts), and what the reader typed or chose is adopted when the field mounts.
 *
 * A part rendered after the first hydration (a page opened inside the app) renders at once: nothing in it
 * suspends, so the boundary never shows its (empty) fallback.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
