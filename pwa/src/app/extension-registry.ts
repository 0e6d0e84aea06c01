import { ProductDialogHost } from '../features/catalog/components/product-dialog-host';
import { LoginNotice } from '../features/accounts/components/login-notice';
import { CallGlobals } from '../features/calls/components/call-globals';
import { lazy, Suspense, createElement } from 'react';
import type { Product } from '../../../api/contract/catalog';
import { ProductCardCallButton, StorefrontVideoCallButton } from '../features/calls/components/call-buttons';
import type { Extensions } from './extensions';
import { PwaGlobals } from '../features/pwa/components/pwa-globals';
import { PushOptInEntry } from '../features/push/components/push-opt-in-entry';
import { ShopHoursEntry } from '../features/schedule/components/shop-hours-entry';
// Light: a button each; the cart panel (Radix dialog, list, mutations) loads on the first open.
import AddToCartButton from '../features/cart/components/add-to-cart-button';
import CartGlobal from '../features/cart/components/cart-global';

// The dialog's call button loads with the dialog, not with the first page (the first-load JavaScript budget).
const LazyDialogCallButton = lazy(() => import('../features/calls/components/product-dialog-call-button'));
function ProductDialogCallButton({ product }: { product: Product }) {
  return createElement(Suspense, { fallback: null }, createElement(LazyDialogCallButton, { product }));
}

// The jeweller's call-back queue loads with the dashboard that shows it, not with a visitor's first page.
const LazyCallbackQueue = lazy(() =>
  import('../features/calls/components/callback-queue').then((m) => ({ default: m.CallbackQueueCard })),
);
function CallbackQueueEntry() {
  return createElement(Suspense, { fallback: null }, createElement(LazyCallbackQueue));
}

/**
 * What each feature contributes to the extension points. Keep entries light (a small button that lazy-loads
 * its heavy parts), since they load with the pages that show them.
 */
export const EXTENSIONS: Extensions = {
  productDialogActions: [AddToCartButton, ProductDialogCallButton],
  productCardActions: [ProductCardCallButton],
  storefrontActions: [StorefrontVideoCallButton],
  // ProductDialogHost sends an old ?product=<id> link on any page to the product's address; CartGlobal is the
  // cart's header button (customers) and its side panel. PwaGlobals: service worker updates, the install
  // button and the offline banner. LoginNotice: failed sign-ins on the account, for its owner.
  globals: [ProductDialogHost, CartGlobal, CallGlobals, PwaGlobals, LoginNotice],
  sellerVideoSettings: [PushOptInEntry, ShopHoursEntry],
  sellerDashboard: [CallbackQueueEntry],
};
