import { createContext, useContext, type ComponentType } from 'react';
import type { Product, StoreProfile } from '../../../api/contract/catalog';

/**
 * Extension points: places one feature renders that other features fill (the catalogue's product dialog
 * shows the cart's Add to Cart; product cards and storefronts show the calls' video buttons). The app
 * wires them in extension-registry.ts, so features never import each other.
 */
export interface Extensions {
  /** Rendered in the product detail dialog's action area (e.g. Add to Cart). */
  productDialogActions: ComponentType<{ product: Product }>[];
  /** Rendered on each product card (e.g. the camera button that starts a video call). */
  productCardActions: ComponentType<{ product: Product }>[];
  /** Rendered in the storefront header (e.g. the Video Call button). */
  storefrontActions: ComponentType<{ store: StoreProfile }>[];
  /** Rendered once on every page inside the router (e.g. the cart panel, the call layer). */
  globals: ComponentType[];
  /** Rendered inside the seller profile's #video-settings section (e.g. the push ringing opt-in). */
  sellerVideoSettings: ComponentType[];
  /** Rendered on the seller dashboard (e.g. the call-back queue and today's missed calls, issue #22). */
  sellerDashboard: ComponentType[];
}

export const EMPTY_EXTENSIONS: Extensions = {
  productDialogActions: [],
  productCardActions: [],
  storefrontActions: [],
  globals: [],
  sellerVideoSettings: [],
  sellerDashboard: [],
};

export const ExtensionsContext = createContext<Extensions>(EMPTY_EXTENSIONS);

/** The components other features contributed to an extension point. */
export function useExtensions(): Extensions {
  return useContext(ExtensionsContext);
}
