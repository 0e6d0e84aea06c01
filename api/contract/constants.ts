/** Product categories, in the product rules' order. Displayed with underscores as spaces. */
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

/** Product materials, in the product rules' order. */
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

/**
 * Why a shop cancels an order (issue #48): the shop must give one, and the customer sees it on the order and in
 * the notice. 'other' takes the shop's own words (cancelNote, at most CANCEL_NOTE_MAX characters).
 */
export const CANCEL_REASONS = ['out_of_stock', 'customer_asked', 'cannot_deliver', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const CANCEL_NOTE_MAX = 200;

/** The only order status moves a seller may make. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** UPI first (docs/product-rules.md "Payments"); upi, card and netbanking are paid online through the gateway. */
export const PAYMENT_METHODS = ['upi', 'card', 'netbanking', 'cash_on_delivery'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const ONLINE_PAYMENT_METHODS = ['upi', 'card', 'netbanking'] as const;
export type OnlinePaymentMethod = (typeof ONLINE_PAYMENT_METHODS)[number];
export const isOnlinePayment = (m: PaymentMethod): m is OnlinePaymentMethod => m !== 'cash_on_delivery';
/** Online: pending → paid or failed (failed → paid on a retry), paid → refunded. Cash: cash_due → cash_collected. */
export const PAYMENT_STATUSES = [
  'pending',
  'paid',
  'failed',
  'refunded',
  'cash_due',
  'cash_collected',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const CALL_STATUSES = ['pending', 'ringing', 'active', 'declined', 'ended', 'missed'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const LIVE_CALL_STATUSES = ['pending', 'ringing', 'active'] as const;
export const TERMINAL_CALL_STATUSES = ['declined', 'ended', 'missed'] as const;

export const SIGNAL_KINDS = ['offer', 'answer', 'candidate', 'bye'] as const;

export const SORT_OPTIONS = ['newest', 'popularity', 'rating', 'price-asc', 'price-desc'] as const;
export type SortOption = (typeof SORT_OPTIONS)[number];

/** Business constants (docs/product-rules.md §9). */
/** The largest id a row can have (PostgreSQL integer): a larger one in a request is refused, not queried. */
export const ID_MAX = 2_147_483_647;

/**
 * Ranking by rating sorts by a Bayesian average, (average × count + mean × weight) / (count + weight): every
 * product and shop starts as if it had `weight` ratings of `mean`, so a score rises only with real volume (one
 * 5-star rating: 3.18; 500 ratings at 4.9: 4.86). Unrated ones score 0. Computed by the database
 * (rating_score, migration 0012), whose expression holds these same numbers.
 */
export const RATING_PRIOR = { mean: 3, weight: 10 } as const;

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

/**
 * Characters that change how a name reads without being seen: bidirectional overrides and isolates (which can
 * turn "Lakshmi Jewellers" around or hide text), zero-width spaces and joiners, word joiners, the byte-order
 * mark, soft hyphen and blank fillers. Names shown to other people (display names, shop names, the name on an
 * order) refuse them. ZWJ and ZWNJ are allowed right after a letter of an Indic script (U+0900–U+0DFF), where
 * they choose how a conjunct is drawn; anywhere else they only hide things. Control characters (C0, DEL, C1:
 * line breaks, tab, BEL, ESC) are refused too: they forge lines in logs, notifications and exports.
 */
const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]/;
const STRAY_JOINER = /(^|[^\u0900-\u0DFF])[\u200C\u200D]/;

/** True when the text holds a character that only hides or reorders what a reader sees (see above). */
/** What a name with such characters is answered with (names of people, shops and orders). */
export const HIDDEN_CHARACTERS_MESSAGE = 'Names cannot contain hidden or direction-changing characters.';

export const hasHiddenCharacters = (text: string) => HIDDEN_CHARACTERS.test(text) || STRAY_JOINER.test(text);
