/**
 * The catalogue's services, by concern: the product list and search (products.ts), search-box suggestions
 * (suggestions.ts), the jeweller directory, top sellers and storefronts (directory.ts), the landing's counts
 * (stats.ts). This module gathers them for the routes and for other areas.
 */
export {
  COUNT_EXACT_CAP,
  PRODUCT_COLUMNS,
  getProduct,
  listProducts,
  loadImages,
  loadProductsByIds,
  seesUnapproved,
} from './products';
export { suggest } from './suggestions';
export { getStore, listSellers, topSellers } from './directory';
export { catalogStats } from './stats';
