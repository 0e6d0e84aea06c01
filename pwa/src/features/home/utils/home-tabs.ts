import type { UserRole } from '../../../../../api/contract/constants';

export const HOME_TABS = ['browse', 'sell', 'register-seller'] as const;
export type HomeTab = (typeof HOME_TABS)[number];

const isHomeTab = (v: string | null): v is HomeTab => (HOME_TABS as readonly (string | null)[]).includes(v);

/** The tabs a role sees (docs/product-rules.md §2): Sell for sellers and admins, Become a Seller for admins without a shop. */
export function visibleTabs(role: UserRole, hasProfile: boolean): HomeTab[] {
  if (role === 'customer') return ['browse'];
  if (role === 'seller') return ['browse', 'sell'];
  return hasProfile ? ['browse', 'sell'] : ['browse', 'sell', 'register-seller'];
}

export interface TabResolution {
  /** The tab to show now. */
  tab: HomeTab;
  /** Where the URL's ?tab= should move (the product rules' automatic moves), or null to leave it. */
  redirect: HomeTab | null;
  /** The move happened because the role may not see the requested tab ('Access Restricted'). */
  restricted: boolean;
}

/**
 * Which home tab to show for `?tab=` (docs/product-rules.md §4): a seller (or admin) with a shop who did not pick a tab lands on
 * Sell; a customer asking for Sell (or Become a Seller) goes back to Browse with 'Access Restricted'; a seller
 * asking for Become a Seller goes to their Sell tab. An admin with a shop may still open Become a Seller, which
 * then says 'Already a Seller'.
 */
export function resolveHomeTab({
  role,
  requested,
  hasProfile,
  profileKnown,
}: {
  role: UserRole;
  requested: string | null;
  hasProfile: boolean;
  /** Whether the seller profile has loaded (always true for customers). */
  profileKnown: boolean;
}): TabResolution {
  const canSell = role === 'seller' || role === 'admin';
  if (!isHomeTab(requested) || requested === 'browse') {
    // Only the default landing moves a shop owner to Sell; an explicit ?tab=browse stays put.
    if (requested !== 'browse' && canSell && profileKnown && hasProfile)
      return { tab: 'sell', redirect: 'sell', restricted: false };
    return { tab: 'browse', redirect: null, restricted: false };
  }
  if (requested === 'sell') {
    if (canSell) return { tab: 'sell', redirect: null, restricted: false };
    return { tab: 'browse', redirect: 'browse', restricted: true };
  }
  // register-seller
  if (role === 'admin') return { tab: 'register-seller', redirect: null, restricted: false };
  if (role === 'seller') return { tab: 'sell', redirect: 'sell', restricted: false };
  return { tab: 'browse', redirect: 'browse', restricted: true };
}
