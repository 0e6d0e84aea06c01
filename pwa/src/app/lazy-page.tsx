import { lazy, type ComponentType } from 'react';

/** A page loaded on demand that can also be loaded ahead (before hydrating a server-rendered page). */
export type LazyPage = ComponentType & { preload: () => Promise<void> };

/**
 * Like React.lazy, but once the module is loaded the page renders directly, without suspending: the
 * browser hydrating a server-rendered page (src/main.tsx) preloads it, so hydration never waits on a chunk
 * (a wait there made React hydrate the whole page in one long task when the next update came).
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((m) => {
      loaded = m.default;
    });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded as ComponentType })));
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(Page, { preload });
}
