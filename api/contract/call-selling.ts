import { z } from 'zod';
import { positiveId, positiveIdFromQuery } from './ids';
import type { CallStatus, ProductCategory, ProductMaterial } from './constants';
import { ID_MAX } from './constants';
import type { TryOnImage } from './catalog';

/**
 * Selling inside the call: the piece the customer called about, products the jeweller shows, photos, chat,
 * holds and the call's summary. Everything here is private to the call's two participants; anyone else is
 * told the call does not exist (404).
 */

/** Hours a held piece stays reserved for the customer (HOLD_HOURS overrides it on the server). */
export const HOLD_HOURS_DEFAULT = 48;
/** Longest chat message, in characters. */
export const CALL_CHAT_MAX_CHARS = 1000;
/** Most products one "Show a product" sends at once. */
export const CALL_SHARE_MAX_PRODUCTS = 6;
/** Largest photo sent in a call, in bytes (a full-resolution phone camera JPEG is 2-6 MB). */
export const CALL_PHOTO_MAX_BYTES = 12 * 1024 * 1024;
/** Most items GET /_api/call/items returns at once; the client pages on with `after`. */
export const CALL_ITEMS_PAGE_SIZE = 200;
/** Most products a search of the shop inside a call returns. */
export const CALL_PRODUCT_SEARCH_LIMIT = 20;

export const SELLING_MESSAGES = {
  invalidProductId: 'productId must be a positive integer.',
  productNotInShop: 'This product is not sold by this shop.',
  productIdsInvalid: `productIds must list 1 to ${CALL_SHARE_MAX_PRODUCTS} product ids.`,
  sellerOnlyShares: 'Only the jeweller on this call can show products and send photos.',
  notYourProduct: 'You can only show products of your own shop.',
  messageEmpty: 'Please type a message.',
  messageTooLong: `A message can be at most ${CALL_CHAT_MAX_CHARS} characters.`,
  photoInvalid: 'Send a JPEG, PNG or WebP photo.',
  photoTooLarge: 'This photo is too large to send.',
  photoNotFound: 'Photo not found.',
  searchTooLong: 'The search can be at most 100 characters.',
  holdNotShown: 'You can hold a piece the jeweller showed you in this call.',
  holdOutOfStock: 'This piece is no longer available to hold.',
  holdAlreadyHeld: 'You are already holding this piece.',
  holdUsedInCall: 'You already held this piece during this call. It can be held again after another call.',
  holdLimit:
    'You have held {n} pieces in the last 30 days, the most allowed. Please buy or wait before holding more.',
  holdNotFound: 'Hold not found.',
  holdNotActive: 'This hold has already ended.',
  invalidHoldId: 'holdId must be a positive integer.',
} as const;

export const SELLING_ERROR_CODES = {
  productNotInShop: 'product_not_in_shop',
  sellerOnly: 'seller_only',
  notYourProduct: 'not_your_product',
  photoInvalid: 'photo_invalid',
  photoTooLarge: 'photo_too_large',
  holdNotShown: 'hold_not_shown',
  holdOutOfStock: 'hold_out_of_stock',
  holdAlreadyHeld: 'hold_already_held',
  holdUsedInCall: 'hold_used_in_call',
  holdLimit: 'hold_limit',
  holdNotFound: 'hold_not_found',
  holdNotActive: 'hold_not_active',
} as const;

const M = SELLING_MESSAGES;
const CALL_ID = 'callId must be a positive integer.';

/** GET /_api/call/products: the jeweller searches their own shop (name or SKU) during an active call. */
export const callProductSearchSchema = z.object({
  callId: positiveIdFromQuery(CALL_ID),
  q: z.string().trim().max(100, { error: M.searchTooLong }).default(''),
});

/** POST /_api/call/share: the jeweller shows one or several of their shop's products. */
export const shareProductsSchema = z.object({
  callId: positiveId(CALL_ID),
  productIds: z
    .array(positiveId(M.productIdsInvalid), { error: M.productIdsInvalid })
    .min(1, { error: M.productIdsInvalid })
    .max(CALL_SHARE_MAX_PRODUCTS, { error: M.productIdsInvalid }),
});

/** POST /_api/call/message: a chat message from either participant. */
export const sendChatSchema = z.object({
  callId: positiveId(CALL_ID),
  text: z
    .string({ error: M.messageEmpty })
    .trim()
    .min(1, { error: M.messageEmpty })
    .max(CALL_CHAT_MAX_CHARS, { error: M.messageTooLong }),
});

/**
 * POST /_api/call/photo: a still from the jeweller's camera, as a base64 data URI (the body limit is the
 * large one). Stored as sent, at full resolution, with its metadata stripped.
 */
export const sendPhotoSchema = z.object({
  callId: positiveId(CALL_ID),
  image: z
    .string({ error: M.photoInvalid })
    .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/, { error: M.photoInvalid })
    .max(Math.ceil((CALL_PHOTO_MAX_BYTES * 4) / 3) + 40, { error: M.photoTooLarge }),
});

/** GET /_api/call/items: what was shown, sent and said in a call after `after` (any status). */
export const callItemsQuerySchema = z.object({
  callId: positiveIdFromQuery(CALL_ID),
  after: z.coerce.number().int().min(0).max(ID_MAX).default(0),
});

/** GET /_api/call/photo: the bytes of one photo of a call. */
export const callPhotoQuerySchema = z.object({ id: positiveIdFromQuery(M.photoNotFound) });

/** GET /_api/call/detail: a call's summary (history detail view). */
export const callDetailQuerySchema = z.object({ callId: positiveIdFromQuery(CALL_ID) });

/** POST /_api/holds: the customer holds one unit of a product the jeweller showed in this call. */
export const createHoldSchema = z.object({
  callId: positiveId(CALL_ID),
  productId: positiveId(M.invalidProductId),
});

/** POST /_api/holds/release: the jeweller of the shop, or the customer who holds it, ends a hold. */
export const releaseHoldSchema = z.object({ holdId: positiveId(M.invalidHoldId) });

/** A product as a call shows it: the card over the video, the ringing modal's context. */
export interface CallProduct {
  id: number;
  name: string;
  /** Decimal rupees ("125000.00"), as every price in the contract. */
  price: string;
  imageUrl: string | null;
  /** The large rendition, for the full-screen view. */
  fullImageUrl: string | null;
  material: ProductMaterial;
  /** The product's category (the call's try-on tells earrings, nose pins, necklaces and pendants by it). */
  category: ProductCategory;
  /** Millimetres, as the product gives them (the try-on draws the piece at its real size). */
  width: number | null;
  height: number | null;
  /** The piece's own try-on image, or null (the try-on draws a piece of its kind). */
  tryOnImage: TryOnImage | null;
  purity: string | null;
  /** Grams. */
  weight: number | null;
  sku: string | null;
  /** null means unlimited. */
  stockQuantity: number | null;
  available: boolean;
}

/**
 * What a call item is (the database's call_items.kind lists the same values): a piece the jeweller showed, a
 * photo, a chat message, and the customer's hold or add-to-cart of a piece during the call ('hold', 'cart':
 * written by the server from the real hold or cart change, never sent by a client).
 */
export const CALL_ITEM_KINDS = ['product', 'photo', 'message', 'hold', 'cart'] as const;
export type CallItemKind = (typeof CALL_ITEM_KINDS)[number];

/** Most products one chat message shows as cards (the product links in its text, in order). */
export const CALL_MESSAGE_MAX_LINKED_PRODUCTS = 3;

interface CallItemBase {
  id: number;
  callId: number;
  fromUserId: number;
  createdAt: string;
}
export interface ProductCallItem extends CallItemBase {
  kind: 'product';
  product: CallProduct;
}
export interface PhotoCallItem extends CallItemBase {
  kind: 'photo';
  /** GET /_api/call/photo?id=… (participants), or GET /_api/family/guest/photo?itemId=… (admitted guests). */
  photoUrl: string;
  width: number;
  height: number;
}
export interface MessageCallItem extends CallItemBase {
  kind: 'message';
  text: string;
  /** Products the message links to (a product URL of this marketplace), shown as cards. */
  products: CallProduct[];
}
/** The customer held the piece ('hold') or put it in the cart ('cart') during the call: a line for the jeweller. */
export interface ActivityCallItem extends CallItemBase {
  kind: 'hold' | 'cart';
  product: CallProduct;
}
export type CallItem = ProductCallItem | PhotoCallItem | MessageCallItem | ActivityCallItem;

export interface CallItemsResponse {
  items: CallItem[];
  status: CallStatus;
}
export interface CallItemsCreatedResponse {
  items: CallItem[];
}
export interface CallProductSearchResponse {
  products: CallProduct[];
}

export const HOLD_STATUSES = ['active', 'consumed', 'released', 'expired'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

export interface ProductHold {
  id: number;
  productId: number;
  productName: string;
  imageUrl: string | null;
  price: string;
  customerId: number;
  customerName: string;
  sellerId: number;
  shopName: string;
  callId: number | null;
  status: HoldStatus;
  expiresAt: string;
  createdAt: string;
}
export interface HoldResponse {
  hold: ProductHold;
}
export interface HoldsResponse {
  holds: ProductHold[];
}

/** GET /_api/call/detail: the call's summary, for both participants. */
/** A guest's heart or "I like this one" on a piece of the call (issue #52, call-family.ts). */
export interface FamilyLike {
  id: number;
  guestId: number;
  guestName: string;
  productId: number;
  productName: string;
  kind: 'heart' | 'like';
  createdAt: string;
}

export interface CallDetailResponse {
  callId: number;
  status: CallStatus;
  /** The viewer is the side rung, who answers (the other offers the video): the seller, or a call-back's customer. */
  isIncoming: boolean;
  participantId: number;
  participantName: string;
  /** The shop called (the same as participantName on the customer's side). */
  shopName: string;
  createdAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  endReason: string | null;
  durationSeconds: number;
  /** The piece the customer called about. */
  product: CallProduct | null;
  items: CallItem[];
  /**
   * The customer's holds of this call's pieces (the piece called about, those shown or linked): those made in
   * this call, and any still active from another (a piece already held is not offered to hold again).
   */
  holds: ProductHold[];
  /**
   * What the customer bought of this call's pieces since the call was placed: their orders with the shop
   * (not cancelled), one line per order and piece (issue #40: the jeweller sees what came of the call).
   */
  purchases: CallPurchase[];
  /** The family's hearts and "I like this one" on the call's pieces (issue #52), oldest first. */
  likes: FamilyLike[];
}

/** One piece of a call bought by its customer: the order, the piece and how many. */
export interface CallPurchase {
  orderId: number;
  productId: number;
  productName: string;
  quantity: number;
  orderStatus: string;
  orderedAt: string;
}
