/**
 * What the catalog area offers the other areas (the signed-in home and the landing page browse the catalogue
 * with its own pieces). Another area imports this file and nothing else of catalog: eslint.config.js keeps it so.
 */
export { productQueries, sellerQueries } from './api';
export { CategoryStrip } from './components/category-strip';
export { ProductGrid } from './components/product-grid';
export { SearchBox } from './components/search-box';
export { SellerCard, SellerCardSkeleton } from './components/seller-card';
export { parseMarketplaceParams, toMarketplaceParams } from './utils/marketplace-params';
export { formatMeasure, translateValue } from './utils/product-values';
