import {
  CALL_MESSAGE_MAX_LINKED_PRODUCTS,
  type CallItem,
  type CallItemKind,
  type HoldStatus,
  type ProductHold,
} from '../../../contract/call-selling';
import { ID_MAX } from '../../../contract/constants';
import { API_ROUTES } from '../../../contract/routes';
import { presentCallProduct, type CallProductRow } from './products';

/** A call_items row with its photo's size (null for other kinds). */
export interface CallItemRow {
  id: number | string;
  call_id: number;
  from_user_id: number;
  kind: CallItemKind;
  product_id: number | null;
  body: string | null;
  created_at: Date | string;
  width: number | null;
  height: number | null;
}

/** A product_holds row with the names a hold is shown with. */
export interface HoldRow {
  id: number;
  product_id: number;
  customer_id: number;
  seller_id: number;
  call_id: number | null;
  status: HoldStatus;
  expires_at: Date | string;
  created_at: Date | string;
  product_name: string;
  price: string;
  image_url: string | null;
  customer_name: string;
  shop_name: string;
}

const iso = (v: Date | string): string => new Date(v).toISOString();

/** Where a photo's bytes are read (participants only). */
export const callPhotoUrl = (itemId: number) => `${API_ROUTES.callPhoto.path}?id=${itemId}`;

/** Strips what usually follows a link in a sentence: closing brackets, quotes and punctuation. */
const TRAILING = /[.,;:!?)\]}'"»”’>]+$/;
const PRODUCT_PATH = /\/products?\/(?:[^/]*-)?(\d{1,10})\/?$/;
const DIGITS = /^\d{1,10}$/;

/**
 * The products a chat message links to, in order, without repeats: a `?product=<id>` link (the catalogue's
 * product dialog, on any page) or a path ending in `-<id>` under /product/ or /products/, of any host (a
 * link copied from another tab, a shop's own site). At most `limit` ids; an id that is not a product is
 * dropped later, when the products are loaded.
 */
export function linkedProductIds(text: string, limit = CALL_MESSAGE_MAX_LINKED_PRODUCTS): number[] {
  const ids: number[] = [];
  for (const [raw] of text.matchAll(/\S+/g)) {
    if (ids.length >= limit) break;
    const token = raw.replace(TRAILING, '');
    if (!/product/i.test(token)) continue;
    let url: URL;
    try {
      const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(token);
      const relative = token.startsWith('/') || token.startsWith('?');
      url = new URL(absolute || relative ? token : `https://${token}`, 'https://nagai.invalid');
    } catch {
      continue;
    }
    const query = url.searchParams.get('product');
    const match = query !== null && DIGITS.test(query) ? query : PRODUCT_PATH.exec(url.pathname)?.[1];
    if (match === undefined) continue;
    const id = Number(match);
    if (id >= 1 && id <= ID_MAX && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The product ids an item needs loaded: its product, or the products its message links to. */
export function productIdsOf(row: CallItemRow): number[] {
  if (row.kind === 'product' || row.kind === 'hold' || row.kind === 'cart')
    return row.product_id === null ? [] : [row.product_id];
  if (row.kind === 'message') return linkedProductIds(row.body ?? '');
  return [];
}

/**
 * A call item as the contract shows it. A shown product that no longer exists (its shop was removed) is
 * null and left out; a message's links keep only products that exist and are not deleted.
 */
export function presentCallItem(row: CallItemRow, products: Map<number, CallProductRow>): CallItem | null {
  const base = {
    id: Number(row.id),
    callId: row.call_id,
    fromUserId: row.from_user_id,
    createdAt: iso(row.created_at),
  };
  if (row.kind === 'product') {
    const product = row.product_id === null ? undefined : products.get(row.product_id);
    return product ? { ...base, kind: 'product', product: presentCallProduct(product) } : null;
  }
  if (row.kind === 'hold' || row.kind === 'cart') {
    const product = row.product_id === null ? undefined : products.get(row.product_id);
    return product ? { ...base, kind: row.kind, product: presentCallProduct(product) } : null;
  }
  if (row.kind === 'photo') {
    return {
      ...base,
      kind: 'photo',
      photoUrl: callPhotoUrl(base.id),
      width: row.width ?? 0,
      height: row.height ?? 0,
    };
  }
  return {
    ...base,
    kind: 'message',
    text: row.body ?? '',
    products: linkedProductIds(row.body ?? '')
      .map((id) => products.get(id))
      .filter((p): p is CallProductRow => p !== undefined && !p.deleted)
      .map(presentCallProduct),
  };
}

export function presentHold(row: HoldRow): ProductHold {
  return {
    id: row.id,
    productId: row.product_id,
    productName: row.product_name,
    imageUrl: row.image_url,
    price: row.price,
    customerId: row.customer_id,
    customerName: row.customer_name,
    sellerId: row.seller_id,
    shopName: row.shop_name,
    callId: row.call_id,
    status: row.status,
    expiresAt: iso(row.expires_at),
    createdAt: iso(row.created_at),
  };
}
