import { lazy, type ComponentType } from 'react';

/** A component loaded on demand that can also be loaded ahead (before hydrating a server-rendered page). */
export type LazyPart<P extends object> = ComponentType<P> & { preload: () => Promise<void> };
/** A page loaded on demand that can also be loaded ahead. */
export type LazyPage = LazyPart<Record<string, never>>;

/**
 * Like React.lazy, but once the module is loaded the component renders directly, without suspending: the
 * browser hydrating a server-rendered page (src/boot.tsx) preloads the page and the parts it shows, so
 * hydration never waits on a chunk. A wait there left a part's server markup dehydrated, and when an update
 * reached it before its chunk came, React put that markup aside and rendered the part again on the client:
 * the part disappeared and came back, moving what was below it (issue #49), or hydrated the whole page in one
 * long task.
 */
export function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPart<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((m) => {
      loaded = m.default;
    });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded as ComponentType<P> })));
  function Part(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Part, { preload });
}

/** A page loaded on demand (lazyPart without props). */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  return lazyPart(load as () => Promise<{ default: ComponentType<Record<string, never>> }>);
}
