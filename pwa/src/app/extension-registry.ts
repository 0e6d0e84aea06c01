import { ProductDialogHost } from '../features/catalog/components/product-dialog-host';
import { CallGlobals } from '../features/calls/components/call-globals';
import { ProductCardCallButton, StorefrontVideoCallButton } from '../features/calls/components/call-buttons';
import type { Extensions } from './extensions';
import { PwaGlobals } from '../features/pwa/components/pwa-globals';
import { PushOptInEntry } from '../features/push/components/push-opt-in-entry';
// Light: a button each; the cart panel (Radix dialog, list, mutations) loads on the first open.
import AddToCartButton from '../features/cart/components/add-to-cart-button';
import CartGlobal from '../features/cart/components/cart-global';

/**
 * What each feature contributes to the extension points. Keep entries light (a small button that lazy-loads
 * its heavy parts), since they load with the pages that show them.
 */
export const EXTENSIONS: Extensions = {
  productDialogActions: [AddToCartButton],
  productCardActions: [ProductCardCallButton],
  storefrontActions: [StorefrontVideoCallButton],
  // ProductDialogHost opens the product detail dialog for a ?product=<id> link on any page; CartGlobal is the
  // cart's header button (customers) and its side panel. PwaGlobals: service worker updates, the install
  // button and the offline banner.
  globals: [ProductDialogHost, CartGlobal, CallGlobals, PwaGlobals],
  sellerVideoSettings: [PushOptInEntry],
};
