import type { Location } from 'react-router-dom';

/**
 * A page shown over another (react-router's "modal route" pattern): a product card links to the product's own
 * address (/product/{slug}-{id}) and passes the page it was on as `backgroundLocation` in the history entry's
 * state. The router (app/router.tsx) then keeps rendering that page under the product, shown as a dialog, so the
 * address bar names the product and Back closes it. Opened any other way (a shared link, a reload) the product
 * page stands on its own.
 */
export interface OverlayState {
  backgroundLocation: Location;
  /**
   * Closing replaces the entry with the background page instead of going back: the overlay was not pushed on
   * top of it (an old `?product=` link redirected, a suggestion picked from a new search).
   */
  closeReplaces?: boolean;
}

/** The page to keep rendering under the current one, if it was opened over one. */
export function backgroundLocation(state: unknown): Location | undefined {
  const bg = (state as Partial<OverlayState> | null)?.backgroundLocation;
  return bg && typeof bg === 'object' && typeof bg.pathname === 'string' ? bg : undefined;
}

/** The history state that opens a page over `location` (or over the page `location` itself is shown over). */
export function overlayState(location: Location, closeReplaces = false): OverlayState {
  const backgroundLocation = backgroundLocationOf(location);
  return closeReplaces ? { backgroundLocation, closeReplaces } : { backgroundLocation };
}

function backgroundLocationOf(location: Location): Location {
  return backgroundLocation(location.state) ?? location;
}
