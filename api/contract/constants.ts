/** Product categories, in the spec's order. Displayed with underscores as spaces. */
export const PRODUCT_CATEGORIES = [
  'anklets',
  'armlets',
  'bangles',
  'bracelets',
  'bridal_sets',
  'chains',
  'earrings',
  'hair_accessories',
  'necklaces',
  'nose_pins',
  'pendants',
  'rings',
  'toe_rings',
  'waist_chains',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

/** Product materials, in the spec's order. */
export const PRODUCT_MATERIALS = [
  'artificial',
  'brass',
  'copper',
  'diamond',
  'emerald',
  'gold',
  'kundan',
  'meenakari',
  'pearl',
  'platinum',
  'polki',
  'ruby',
  'sapphire',
  'silver',
  'temple_jewelry',
] as const;
export type ProductMaterial = (typeof PRODUCT_MATERIALS)[number];

export const USER_ROLES = ['customer', 'seller', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The only order status moves a seller may make. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export const PAYMENT_METHODS = ['credit_card', 'google_pay', 'cash_on_delivery'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;

export const CALL_STATUSES = ['pending', 'ringing', 'active', 'declined', 'ended', 'missed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const LIVE_CALL_STATUSES = ['pending', 'ringing', 'active'] as const;
export const TERMINAL_CALL_STATUSES = ['declined', 'ended', 'missed'] as const;

export const SIGNAL_KINDS = ['offer', 'answer', 'candidate', 'bye'] as const;

export const SORT_OPTIONS = ['newest', 'popularity', 'rating', 'price-asc', 'price-desc'] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

/** Business constants of the spec (§9 of both documents). */
/** The largest id a row can have (PostgreSQL integer): a larger one in a request is refused, not queried. */
export const ID_MAX = 2_147_483_647;

export const LIMITS = {
  defaultPageSize: 10,
  marketplacePageSize: 20,
  directoryPageSize: 12,
  storefrontPageSize: 12,
  customerOrdersPageSize: 20,
  sellerOrdersPageSize: 10,
  sellersListMaxLimit: 100,
  topSellers: 8,
  priceFilterMax: 500000,
  priceFilterStep: 1000,
  lowStockThreshold: 5,
  passwordMin: 8,
  addressMax: 500,
  sellerDescriptionMax: 500,
  urlSlugMin: 3,
  urlSlugMax: 50,
  suggestionDebounceMs: 300,
  suggestionCacheMs: 300_000,
  loginRedirectDelayMs: 200,
  callAfterLoginDelayMs: 200,
  mobileBreakpointPx: 767,
} as const;

export const CALL_LIMITS = {
  ringTimeoutMs: 30_000,
  incomingPollMs: 4_000,
  statusPollMs: 2_000,
  videoTokenCacheMs: 300_000,
  connectTimeoutMs: 30_000,
  sdkLoadTimeoutMs: 15_000,
  remoteLeaveGraceMs: 1_500,
  retryBackoffMs: [1000, 2000, 4000],
  ringtoneVolume: 0.5,
  historyCacheMs: 300_000,
  onlineWindowMs: 15_000,
} as const;

/** The cookie holding a visitor's chosen language, so the server renders pages in it (api/src/http/ssr.ts). */
export const LANGUAGE_COOKIE = 'nagai_lang';
