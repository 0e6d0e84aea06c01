import type { Extensions } from './extensions';

/**
 * What each feature contributes to the extension points. Keep entries light (a small button that lazy-loads
 * its heavy parts), since they load with the pages that show them.
 */
export const EXTENSIONS: Extensions = {
  productDialogActions: [],
  productCardActions: [],
  storefrontActions: [],
  globals: [],
  sellerVideoSettings: [],
};
