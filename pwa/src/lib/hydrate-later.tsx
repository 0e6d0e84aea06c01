import { Suspense, use, useState, type ReactNode } from 'react';

/**
 * Hydration in slices. Preact hydrates a page in one task, which a phone's CPU turns into a long one (a
 * marketplace page: about 400 ms at a quarter of this machine's speed). A part wrapped in `HydrateLater` is
 * hydrated in a task of its own, after the parts met before it: the server's markup stays as it is until then
 * (its links and forms work, lib/pre-hydration.ts), and the browser handles input between the slices.
 *
 * The server renders the part once suspended, so its markup is enclosed in Preact's range markers
 * (`<!--$s-->…<!--/$s-->`) and the browser keeps the whole range while the part waits, whatever its elements.
 * Parts rendered after the first hydration (a page opened in the app) render at once.
 */
const SERVER = typeof window === 'undefined';

let hydrating = false;
/** Slices handed out and not yet hydrated: parts met while they hydrate are deferred too. */
let pendingSlices = 0;
/** The last slice handed out: each new one settles in the task after it. */
let lastSlice: Promise<void> = Promise.resolve();

/** Marks the first hydration of a server-rendered page (src/boot.tsx): parts met meanwhile are deferred. */
export function hydrationStarts(): () => void {
  hydrating = true;
  return () => {
    hydrating = false;
  };
}

function nextSlice(): Promise<void> | null {
  if (!hydrating && pendingSlices === 0) return null;
  pendingSlices++;
  const slice = lastSlice.then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  lastSlice = slice;
  // Still counted while it hydrates (the microtasks after it settles), so the parts inside it are sliced too.
  void slice.then(() =>
    setTimeout(() => {
      pendingSlices--;
    }, 0),
  );
  return slice;
}

// The server suspends each part once: the vnode's props are the same object on the retry.
const renderedOnServer = new WeakSet<object>();

function Slice(props: { children: ReactNode }) {
  const [slice] = useState(() => (SERVER ? null : nextSlice()));
  if (SERVER) {
    if (!renderedOnServer.has(props)) {
      renderedOnServer.add(props);
      throw Promise.resolve();
    }
  } else if (slice) {
    use(slice);
  }
  return props.children;
}

export function HydrateLater({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <Slice>{children}</Slice>
    </Suspense>
  );
}
