import { z } from 'zod';
import {
  ID_MAX,
  LIMITS,
  PRODUCT_CATEGORIES,
  PRODUCT_MATERIALS,
  SORT_OPTIONS,
  type ProductCategory,
  type ProductMaterial,
  type SortOption,
} from './constants';
import type { MakingType, Metal, MetalPurity } from './pricing';
import type { SellerProfile } from './sellers';
import type { ShopCallState } from './shop-call-state';

/** Every catalogue message returned by the API, word for word. */
export const CATALOG_MESSAGES = {
  tooManySearches: 'Too many searches from this network. Please wait a moment and try again.',
  pagePositive: 'Page must be a positive integer.',
  limitPositive: 'Limit must be a positive integer.',
  limitMax: `Limit cannot exceed ${LIMITS.sellersListMaxLimit}.`,
  pageAtLeastOne: 'Page must be at least 1.',
  limitRange: `Limit must be between 1 and ${LIMITS.sellersListMaxLimit}.`,
  minPrice: 'Minimum price must be a number of at least 0.',
  maxPrice: 'Maximum price must be a number of at least 0.',
  priceRange: 'Minimum price cannot be greater than maximum price.',
  sortBy: `Sort must be one of: ${SORT_OPTIONS.join(', ')}.`,
  sellerId: 'Seller ID must be a positive integer.',
  productId: 'Product ID must be a positive integer.',
  queryTooLong: 'Search text cannot exceed 200 characters.',
  queryRequired: 'Search text must be at least 1 character.',
  slugRequired: 'URL slug is required.',
  sellerIdRequired: 'Seller ID is required.',
  storeNotFound: 'Store Not Found',
  productNotFound: 'Product not found.',
  filterTooLong: 'Filter text cannot exceed 100 characters.',
} as const;

/** The largest page a product listing may ask for. */
export const PRODUCT_LIST_MAX_LIMIT = 100;
export const SEARCH_QUERY_MAX = 200;
/** How many of each kind the suggestions box shows. */
export const SUGGESTION_LIMIT = 5;

// A repeated query key arrives as an array: the last one wins, as in URLSearchParams.get semantics of most UIs.
const last = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);
const scalar = z.preprocess(last, z.union([z.string(), z.number(), z.undefined(), z.null()]));
const blank = (v: string | number | null | undefined) =>
  v === undefined || v === null || String(v).trim() === '';

function intParam(message: string, opts: { max?: number; maxMessage?: string } = {}) {
  return scalar.transform((v, ctx): number | undefined => {
    if (blank(v)) return undefined;
    const s = String(v).trim();
    const n = Number(s);
    if (!/^[+]?\d+$/.test(s) || !Number.isSafeInteger(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (opts.max !== undefined && n > opts.max) {
      ctx.addIssue({ code: 'custom', message: opts.maxMessage ?? message });
      return z.NEVER;
    }
    return n;
  });
}

function priceParam(message: string) {
  return scalar.transform((v, ctx): number | undefined => {
    if (blank(v)) return undefined;
    const s = String(v).trim();
    const n = Number(s);
    if (!/^\d+(\.\d+)?$/.test(s) || !Number.isFinite(n) || n > 1e10) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });
}

function textParam(max: number, message: string) {
  return scalar.transform((v, ctx): string | undefined => {
    if (blank(v)) return undefined;
    const s = String(v).trim().replace(/\s+/g, ' ');
    if (s.length > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return s;
  });
}

/** A value of a fixed list, or undefined: the product rules ignore unknown category and material values. */
function listParam<T extends string>(values: readonly T[]) {
  return scalar.transform((v): T | undefined => {
    const s = blank(v) ? '' : String(v).trim().toLowerCase();
    return (values as readonly string[]).includes(s) ? (s as T) : undefined;
  });
}

const sortParam = scalar.transform((v, ctx): SortOption | undefined => {
  if (blank(v)) return undefined;
  const s = String(v).trim();
  if (!(SORT_OPTIONS as readonly string[]).includes(s)) {
    ctx.addIssue({ code: 'custom', message: CATALOG_MESSAGES.sortBy });
    return z.NEVER;
  }
  return s as SortOption;
});

/** GET /_api/products/list query. sortBy stays undefined when not given, so a search can rank by relevance. */
export const productListQuerySchema = z
  .object({
    page: intParam(CATALOG_MESSAGES.pagePositive),
    limit: intParam(CATALOG_MESSAGES.limitPositive, {
      max: PRODUCT_LIST_MAX_LIMIT,
      maxMessage: CATALOG_MESSAGES.limitMax,
    }),
    query: textParam(SEARCH_QUERY_MAX, CATALOG_MESSAGES.queryTooLong),
    category: listParam<ProductCategory>(PRODUCT_CATEGORIES),
    material: listParam<ProductMaterial>(PRODUCT_MATERIALS),
    minPrice: priceParam(CATALOG_MESSAGES.minPrice),
    maxPrice: priceParam(CATALOG_MESSAGES.maxPrice),
    sortBy: sortParam,
    sellerId: intParam(CATALOG_MESSAGES.sellerId, { max: ID_MAX }),
  })
  .superRefine((q, ctx) => {
    if (q.minPrice !== undefined && q.maxPrice !== undefined && q.minPrice > q.maxPrice) {
      ctx.addIssue({ code: 'custom', message: CATALOG_MESSAGES.priceRange, path: ['minPrice'] });
    }
  })
  .transform((q) => ({ ...q, page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize }));
export type ProductListQuery = z.output<typeof productListQuerySchema>;

/** GET /_api/products/get query. */
export const productGetQuerySchema = z.object({
  id: intParam(CATALOG_MESSAGES.productId, { max: ID_MAX }).refine(
    (v) => v !== undefined,
    CATALOG_MESSAGES.productId,
  ),
});

/** GET /_api/search/suggestions query. */
export const suggestionsQuerySchema = z.object({
  query: textParam(SEARCH_QUERY_MAX, CATALOG_MESSAGES.queryTooLong).refine(
    (v) => v !== undefined,
    CATALOG_MESSAGES.queryRequired,
  ),
});

const directoryPage = scalar.transform((v, ctx): number => {
  if (blank(v)) return 1;
  const s = String(v).trim();
  if (!/^[+]?\d+$/.test(s) || !Number.isSafeInteger(Number(s)) || Number(s) < 1) {
    ctx.addIssue({ code: 'custom', message: CATALOG_MESSAGES.pageAtLeastOne });
    return z.NEVER;
  }
  return Number(s);
});
const directoryLimit = (def: number) =>
  scalar.transform((v, ctx): number => {
    if (blank(v)) return def;
    const s = String(v).trim();
    const n = Number(s);
    if (!/^[+]?\d+$/.test(s) || n < 1 || n > LIMITS.sellersListMaxLimit) {
      ctx.addIssue({ code: 'custom', message: CATALOG_MESSAGES.limitRange });
      return z.NEVER;
    }
    return n;
  });

/** GET /_api/sellers/list query (docs/product-rules.md §5: page at least 1, limit 1 to 100, default 10). */
export const sellerListQuerySchema = z.object({
  page: directoryPage,
  limit: directoryLimit(LIMITS.defaultPageSize),
  city: textParam(100, CATALOG_MESSAGES.filterTooLong),
  state: textParam(100, CATALOG_MESSAGES.filterTooLong),
  searchQuery: textParam(SEARCH_QUERY_MAX, CATALOG_MESSAGES.queryTooLong),
});
export type SellerListQuery = z.output<typeof sellerListQuerySchema>;

/** GET /_api/sellers/top query. */
export const topSellersQuerySchema = z.object({ limit: directoryLimit(LIMITS.topSellers) });

/** GET /_api/seller/store query. */
export const storeQuerySchema = z.object({
  slug: textParam(1000, CATALOG_MESSAGES.slugRequired).refine(
    (v) => v !== undefined,
    CATALOG_MESSAGES.slugRequired,
  ),
  page: intParam(CATALOG_MESSAGES.pagePositive),
  limit: intParam(CATALOG_MESSAGES.limitPositive, {
    max: PRODUCT_LIST_MAX_LIMIT,
    maxMessage: CATALOG_MESSAGES.limitMax,
  }),
});

/** GET /_api/seller/store/by-id query (the /sellers/{id} fallback for shops without a slug). */
export const storeByIdQuerySchema = z.object({
  sellerId: intParam(CATALOG_MESSAGES.sellerId, { max: ID_MAX }).refine(
    (v) => v !== undefined,
    CATALOG_MESSAGES.sellerIdRequired,
  ),
  page: intParam(CATALOG_MESSAGES.pagePositive),
  limit: intParam(CATALOG_MESSAGES.limitPositive, {
    max: PRODUCT_LIST_MAX_LIMIT,
    maxMessage: CATALOG_MESSAGES.limitMax,
  }),
});

/** `GET /_api/shop/call_state` (issue #50): whose live call state. */
export const shopCallStateQuerySchema = z.object({ sellerId: storeByIdQuerySchema.shape.sellerId });

/** Displayed name of a category or material: underscores become spaces. */
export const displayName = (value: string) => value.replace(/_/g, ' ');

/** One product image; url is the detail size, cardUrl the grid size. */
export interface ProductImage {
  url: string;
  cardUrl: string;
  width: number | null;
  height: number | null;
  /** A tiny blurred preview (data: URI) shown while the image loads; null for images stored before it existed. */
  placeholder: string | null;
}

/** A public product (docs/product-rules.md §3). Money is a decimal string. */
export interface Product {
  id: number;
  productId: number;
  sellerId: number;
  name: string;
  description: string;
  price: string;
  category: ProductCategory;
  material: ProductMaterial;
  stockQuantity: number | null;
  sku: string | null;
  /** Millimetres. */
  width: number | null;
  /** Millimetres. */
  height: number | null;
  size: string | null;
  purity: string | null;
  /** Grams. */
  weight: number | null;
  diamondsTotalCount: number | null;
  diamondsType: string | null;
  /** Carats. */
  diamondsTotalWeight: number | null;
  gemstoneTotalCount: number | null;
  gemstoneType: string | null;
  makingCharges: string | null;
  stoneCharges: string | null;
  discountAmount: string | null;
  gstAmount: string | null;
  /** Ordered by position; the first is the cover. */
  images: ProductImage[];
  /** The cover's card-size URL. */
  imageUrl: string | null;
  sizeAvailable: string[];
  isCustomMade: boolean;
  averageRating: number;
  ratingCount: number;
  unitsSold: number;
  shopName: string;
  urlSlug: string | null;
  videoCallEnabled: boolean;
  /** The shop's call state now (catalogue lists, the product page, storefronts); absent elsewhere. */
  callState?: ShopCallState;
  createdAt: string;
  /**
   * A rate-linked product's pricing (issue #25): the price is computed from the shop's rate for the metal and
   * purity (api/contract/pricing.ts priceBreakdown; stoneCharges is the stone value, weight the gross weight).
   * null for a fixed-price product.
   */
  rateLinked: {
    metal: Metal;
    purity: MetalPurity;
    /** Grams, decimal string. */
    netWeight: string;
    makingType: MakingType;
    /** Percent or rupees per gram, decimal string. */
    makingValue: string;
    /** The shop's rate the price was computed from, rupees per gram. */
    ratePerGram: string;
  } | null;
  /** BIS hallmark unique ID (6 letters and digits). */
  huid: string | null;
  /** A diamond or gemstone certificate. */
  certificate: { lab: string; number: string; fileUrl: string | null } | null;
  /** The piece's own try-on image (docs/product-rules.md §16), or null: the try-on draws a piece of its kind. */
  tryOnImage: TryOnImage | null;
}

/**
 * A product's try-on image: a front view of the piece on a transparent background (WebP), its size in pixels,
 * and where the piece is held (fractions of its width and height from the top left).
 */
export interface TryOnImage {
  url: string;
  width: number;
  height: number;
  anchorX: number;
  anchorY: number;
}

/** Pagination of a product listing (docs/product-rules.md §3). */
export interface ProductPagination {
  currentPage: number;
  limit: number;
  totalProducts: number;
  totalPages: number;
}

/** GET /_api/products/list answer. */
export interface ProductListResponse {
  products: Product[];
  pagination: ProductPagination;
  /** Only when a search found nothing: the category it most likely meant, and pieces to look at instead. */
  didYouMean?: DidYouMean;
  /** A price the search named ("under 30k"), applied as a filter (docs/product-rules.md §20.2). */
  priceFilter?: SearchPriceFilter;
  /** Shops whose names the search names, shown before its pieces (§20.2). */
  shops?: SellerCard[];
  /** The pieces are all of these shops (seller ids): the search named them whole ("lakshmi jewellers"). */
  shopPieces?: number[];
  /** The search named a kind of piece the catalogue has none of: its nearest kind is shown instead (§20.2). */
  missingKind?: MissingKind;
}

/** The price a search named, in integer paise, and the search without it (what removing the filter searches). */
export interface SearchPriceFilter {
  minPaise?: number;
  maxPaise?: number;
  /** The words that named it, as typed. */
  phrase: string;
  /** The search without them ('' when only a price was typed). */
  rest: string;
}

/** A kind of piece (lexicon.ts PIECES id) the catalogue has none of, and the category shown instead. */
export interface MissingKind {
  piece: string;
  category: ProductCategory;
}

/** What a search that found nothing offers: its nearest category (null: none is near) and some pieces. */
export interface DidYouMean {
  category: ProductCategory | null;
  products: Product[];
}

/** GET /_api/products/get answer. */
export interface ProductGetResponse {
  product: Product;
}

/** A jeweller in the directory, the top-sellers strip and on store pages (docs/product-rules.md §3 seller card). */
export interface SellerCard {
  sellerId: number;
  shopName: string;
  sellerName: string;
  city: string;
  state: string;
  /** Public products of the shop. */
  productCount: number;
  averageRating: number;
  ratingCount: number;
  /** Whole 365.25-day years since the established date; null without a date. */
  yearsInBusiness: number | null;
  videoCallEnabled: boolean;
  urlSlug: string | null;
  /** The seller's app polled for calls within the online window. */
  isOnline: boolean;
  /** The shop's call state now: hours, away and presence in one (api/src/features/schedule/hours.ts). */
  callState: ShopCallState;
  /** First two initials of the seller's name, uppercased. */
  avatarInitials: string;
}

/** Directory pagination: currentPage and page are the same number (the product rules name both). */
export interface SellerPagination {
  currentPage: number;
  page: number;
  limit: number;
  totalSellers: number;
  totalPages: number;
}

/** GET /_api/sellers/list answer. */
export interface SellerListResponse {
  sellers: SellerCard[];
  pagination: SellerPagination;
}

/** GET /_api/sellers/top answer. */
export interface TopSellersResponse {
  sellers: SellerCard[];
}

/** Suggestions for the search box. */
export interface SearchSuggestions {
  products: { id: number; name: string; imageUrl: string | null; price: string; category: ProductCategory }[];
  sellers: { sellerId: number; shopName: string; urlSlug: string | null; city: string }[];
  /** Category values (not displayed names). */
  categories: ProductCategory[];
}

/** The public store profile: every SellerProfile field plus the card's computed fields. */
export interface StoreProfile extends SellerProfile {
  sellerName: string;
  yearsInBusiness: number | null;
  isOnline: boolean;
  callState: ShopCallState;
  productCount: number;
  avatarInitials: string;
}

/** GET /_api/seller/store and /_api/seller/store/by-id answer. */
export interface StoreResponse {
  sellerProfile: StoreProfile;
  productsData: ProductListResponse;
}

/** GET /_api/catalog/stats answer: real counts for the landing hero and the seller pitch. */
export interface CatalogStats {
  happyCustomers: number;
  verifiedJewelers: number;
  jewelryPieces: number;
  /** Customers with an order placed in the last 30 days (not cancelled). */
  monthlyBuyers: number;
}

// A product's address lives in a module without zod: the PWA's first page imports it.
export { productIdFromRef, productPath } from './product-path';
