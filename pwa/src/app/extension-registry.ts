import { ProductDialogHost } from '../features/catalog/components/product-dialog-host';
import { LoginNotice } from '../features/accounts/components/login-notice-entry';
import { CallGlobals } from '../features/calls/components/call-globals';
import { lazy, Suspense, createElement } from 'react';
import type { Product, StoreProfile } from '../../../api/contract/catalog';
import { ProductCardCallButton, StorefrontVideoCallButton } from '../features/calls/components/call-buttons';
import type { Extensions } from './extensions';
import { lazyPart } from './lazy-page';
import { canRing } from '../../../api/contract/shop-call-state';
import { PwaGlobals } from '../features/pwa/components/pwa-globals';
import { PushOptInEntry } from '../features/push/components/push-opt-in-entry';
import { ShopHoursEntry } from '../features/schedule/components/shop-hours-entry';
import {
  ProductBookAppointment,
  StorefrontBookAppointment,
} from '../features/calls/components/book-appointment-entry';
// Light: a button each; the cart panel (Radix dialog, list, mutations) loads on the first open.
import AddToCartButton from '../features/cart/components/add-to-cart-button';
import CartGlobal from '../features/cart/components/cart-global';

// The dialog's call button loads with the dialog, not with the first page (the first-load JavaScript budget);
// a product page arrived on loads it before hydrating (preloadProductActions).
const LazyDialogCallButton = lazyPart(
  () => import('../features/calls/components/product-dialog-call-button'),
);
function ProductDialogCallButton({ product }: { product: Product }) {
  return createElement(Suspense, { fallback: null }, createElement(LazyDialogCallButton, { product }));
}

// A storefront that cannot be rung now offers a call-back (issue #40); loads only with the storefront.
const LazyCallFallback = lazy(() => import('../features/calls/components/call-fallback'));
function StorefrontCallFallback({ store }: { store: StoreProfile }) {
  // A shop that can be rung (or takes no calls) loads nothing more.
  if (!store.videoCallEnabled || canRing(store.callState) || store.callState.state === 'disabled')
    return null;
  return createElement(
    Suspense,
    { fallback: null },
    createElement(LazyCallFallback, {
      sellerId: store.sellerId,
      shopName: store.shopName,
      videoCallEnabled: store.videoCallEnabled,
      callState: store.callState,
    }),
  );
}

// "Try it on" (issue #36) loads with the product's actions, its camera and model on the first tap.
const LazyTryOnButton = lazyPart(() => import('../features/tryon/try-on-button'));
function TryOnButton({ product }: { product: Product }) {
  return createElement(Suspense, { fallback: null }, createElement(LazyTryOnButton, { product }));
}

// The jeweller's call-back queue loads with the dashboard that shows it, not with a visitor's first page.
const LazyCallbackQueue = lazy(() =>
  import('../features/calls/components/callback-queue').then((m) => ({ default: m.CallbackQueueCard })),
);
function CallbackQueueEntry() {
  return createElement(Suspense, { fallback: null }, createElement(LazyCallbackQueue));
}
// The jeweller's upcoming video appointments (issue #22), likewise.
const LazyShopAppointments = lazy(() =>
  import('../features/calls/components/shop-appointments-card').then((m) => ({
    default: m.ShopAppointmentsCard,
  })),
);
function ShopAppointmentsEntry() {
  return createElement(Suspense, { fallback: null }, createElement(LazyShopAppointments));
}
// Its slot length and buffer, with the shop hours.
const LazyAppointmentSettings = lazy(() => import('../features/schedule/components/appointment-settings'));
function AppointmentSettingsEntry() {
  return createElement(Suspense, { fallback: null }, createElement(LazyAppointmentSettings));
}

/**
 * The code of the product page's own actions, loaded before a server-rendered product page is hydrated
 * (src/boot.tsx): the row then hydrates whole, as the server rendered it, instead of leaving these parts'
 * markup to be replaced once their code arrives (issue #49: the row and the price breakdown under it moved).
 */
export function preloadProductActions(): Promise<unknown> {
  return Promise.all([LazyDialogCallButton.preload(), LazyTryOnButton.preload()]);
}

/**
 * What each feature contributes to the extension points. Keep entries light (a small button that lazy-loads
 * its heavy parts), since they load with the pages that show them.
 */
export const EXTENSIONS: Extensions = {
  productDialogActions: [AddToCartButton, TryOnButton, ProductDialogCallButton, ProductBookAppointment],
  productCardActions: [ProductCardCallButton],
  storefrontActions: [StorefrontVideoCallButton, StorefrontCallFallback, StorefrontBookAppointment],
  // ProductDialogHost sends an old ?product=<id> link on any page to the product's address; CartGlobal is the
  // cart's header button (customers) and its side panel. PwaGlobals: service worker updates, the install
  // button and the offline banner. LoginNotice: failed sign-ins on the account, for its owner.
  globals: [ProductDialogHost, CartGlobal, CallGlobals, PwaGlobals, LoginNotice],
  sellerVideoSettings: [PushOptInEntry, ShopHoursEntry, AppointmentSettingsEntry],
  sellerDashboard: [CallbackQueueEntry, ShopAppointmentsEntry],
};
