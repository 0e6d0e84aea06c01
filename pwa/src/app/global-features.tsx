import { useExtensions } from './extensions';

/** Renders the features that live on every page (inside the router, so they can navigate). */
export function GlobalFeatures() {
  const { globals } = useExtensions();
  return (
    <>
      {globals.map((Component, i) => (
        <Component key={i} />
      ))}
    </>
  );
}
