import {
  LIMITS,
  PRODUCT_CATEGORIES,
  PRODUCT_MATERIALS,
  SORT_OPTIONS,
  type ProductCategory,
  type ProductMaterial,
  type SortOption,
} from '../../../../../api/contract/constants';

/** The marketplace's filters as they live in the URL (docs/product-rules.md §2: every one is a query parameter). */
export interface MarketplaceFilters {
  page: number;
  query: string;
  category?: ProductCategory;
  material?: ProductMaterial;
  minPrice?: number;
  maxPrice?: number;
  sortBy: MarketplaceSort;
}

/** The marketplace's orders: the API's sorts, and best match first (relevance), which only a search has. */
export type MarketplaceSort = SortOption | 'relevance';
export const MARKETPLACE_SORTS: readonly MarketplaceSort[] = ['relevance', ...SORT_OPTIONS];

export const PRICE_MIN = 0;
export const PRICE_MAX = LIMITS.priceFilterMax;
export const PRICE_STEP = LIMITS.priceFilterStep;
export const DEFAULT_SORT: SortOption = 'newest';
/** A search is in best-match order unless another is asked for; browsing, newest first. */
export const defaultSort = (query: string): MarketplaceSort => (query ? 'relevance' : DEFAULT_SORT);

function oneOf<T extends string>(values: readonly T[], raw: string | null): T | undefined {
  const v = (raw ?? '').trim().toLowerCase();
  return (values as readonly string[]).includes(v) ? (v as T) : undefined;
}

/** A positive whole page number, else 1. */
export function parsePage(raw: string | null): number {
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/** A price bound from the URL, dropped when it is not a number or sits on (or beyond) the slider's bound. */
function parseBound(raw: string | null, kind: 'min' | 'max'): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) return undefined;
  const clamped = Math.min(PRICE_MAX, Math.max(PRICE_MIN, n));
  if (kind === 'min' && clamped <= PRICE_MIN) return undefined;
  if (kind === 'max' && clamped >= PRICE_MAX) return undefined;
  return clamped;
}

/** Reads the filters from the URL; unknown category, material and sort values are ignored (docs/product-rules.md §2). */
export function parseMarketplaceParams(params: URLSearchParams): MarketplaceFilters {
  let minPrice = parseBound(params.get('minPrice'), 'min');
  let maxPrice = parseBound(params.get('maxPrice'), 'max');
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    [minPrice, maxPrice] = [maxPrice, minPrice];
  }
  const query = (params.get('query') ?? '').trim();
  const sortBy = oneOf(MARKETPLACE_SORTS, params.get('sortBy'));
  return {
    page: parsePage(params.get('page')),
    query,
    category: oneOf(PRODUCT_CATEGORIES, params.get('category')),
    material: oneOf(PRODUCT_MATERIALS, params.get('material')),
    minPrice,
    maxPrice,
    sortBy: sortBy && (sortBy !== 'relevance' || query) ? sortBy : defaultSort(query),
  };
}

/**
 * The URL form of the filters: only what differs from the defaults, in a stable order, so equal filters give
 * equal URLs (and shared links stay short).
 */
export function toMarketplaceParams(f: MarketplaceFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.query) p.set('query', f.query);
  if (f.category) p.set('category', f.category);
  if (f.material) p.set('material', f.material);
  if (f.minPrice !== undefined && f.minPrice > PRICE_MIN) p.set('minPrice', String(f.minPrice));
  if (f.maxPrice !== undefined && f.maxPrice < PRICE_MAX) p.set('maxPrice', String(f.maxPrice));
  if (f.sortBy !== defaultSort(f.query) && (f.sortBy !== 'relevance' || f.query)) p.set('sortBy', f.sortBy);
  if (f.page > 1) p.set('page', String(f.page));
  return p;
}

/** Any filter change other than paging starts again at page 1. */
export function withFilters(
  current: MarketplaceFilters,
  change: Partial<MarketplaceFilters>,
): MarketplaceFilters {
  return { ...current, page: 1, ...change };
}

/** The product-list request for the filters: price bounds go out only when they differ from the slider's. */
export function toListRequest(f: MarketplaceFilters, limit: number = LIMITS.marketplacePageSize) {
  return {
    page: f.page,
    limit,
    ...(f.query ? { query: f.query } : {}),
    ...(f.category ? { category: f.category } : {}),
    ...(f.material ? { material: f.material } : {}),
    ...(f.minPrice !== undefined && f.minPrice > PRICE_MIN ? { minPrice: f.minPrice } : {}),
    ...(f.maxPrice !== undefined && f.maxPrice < PRICE_MAX ? { maxPrice: f.maxPrice } : {}),
    // Without a sort the API ranks a search by relevance.
    ...(f.sortBy === 'relevance' ? {} : { sortBy: f.sortBy }),
  };
}

/** 'Showing X-Y of N results' numbers for a page. */
export function resultRange(page: number, limit: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from: Math.min(from, total), to: Math.min(page * limit, total) };
}
