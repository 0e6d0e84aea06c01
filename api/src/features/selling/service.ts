import type { Knex } from 'knex';
import { loadLikes } from '../calls/family-mesh';
import sharp from 'sharp';
import {
  CALL_ITEMS_PAGE_SIZE,
  CALL_PHOTO_MAX_BYTES,
  CALL_PRODUCT_SEARCH_LIMIT,
  SELLING_ERROR_CODES as CODES,
  SELLING_MESSAGES as MSG,
  type CallDetailResponse,
  type CallPurchase,
  type CallItem,
  type CallItemsCreatedResponse,
  type CallItemsResponse,
  type CallProductSearchResponse,
} from '../../../contract/call-selling';
import { CALL_ERROR_CODES, CALL_MESSAGES } from '../../../contract/calls';
import type { AppDeps, SessionUser } from '../../http/context';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import {
  callDurationSeconds,
  isRung,
  shopName,
  type CallRow,
  type CallWithNamesRow,
} from '../calls/presenter';
import { sniffRasterFormat } from '../media/service';
import { expireHolds, holdsOfCall } from './holds';
import { loadCallItems, loadCallItemsById } from './items';
import { loadCallProduct, searchShopProducts } from './products';

type SellingDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** The largest photo decoded, in pixels: a 50-megapixel phone camera still fits. */
const CALL_PHOTO_MAX_PIXELS = 60_000_000;
/** JPEG quality of a stored photo: close to what the camera sent, without its metadata. */
const CALL_PHOTO_QUALITY = 90;

const callNotFound = () => notFound(CALL_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
const callNotActive = () => conflict(CALL_MESSAGES.callNotActive, CALL_ERROR_CODES.callNotActive);

/** The call if the user is one of its two participants; anyone else is told it does not exist. */
export async function participantCall(db: Knex, callId: number, userId: number): Promise<CallRow> {
  const row = (await db('calls')
    .where('id', callId)
    .where((w) => w.where('caller_id', userId).orWhere('seller_id', userId))
    .first()) as CallRow | undefined;
  if (!row) throw callNotFound();
  return row;
}

/** The call's jeweller only (a participant customer is refused, anyone else told the call does not exist). */
async function sellerCall(db: Knex, callId: number, user: SessionUser): Promise<CallRow> {
  const call = await participantCall(db, callId, user.id);
  if (call.seller_id !== user.id) throw forbidden(MSG.sellerOnlyShares, CODES.sellerOnly);
  return call;
}

/**
 * Stores items of an active call, in the given order, from one participant. The insert selects the call in
 * the same statement, so nothing is stored in a call that ended a moment earlier; the trigger of migration
 * 0013 tells both participants' event streams.
 */
async function insertItems(
  db: Knex,
  callId: number,
  fromUserId: number,
  now: Date,
  rows: { kind: 'product' | 'message' | 'photo'; productId?: number; body?: string }[],
): Promise<number[]> {
  const { rows: inserted } = (await db.raw(
    `insert into call_items (call_id, from_user_id, kind, product_id, body, created_at)
     select c.id, ?, x.kind, x.product_id, x.body, ?
       from calls c,
            unnest(?::text[], ?::int[], ?::text[]) with ordinality as x(kind, product_id, body, n)
      where c.id = ? and c.status = 'active'
      order by x.n
     returning id`,
    [
      fromUserId,
      now,
      rows.map((r) => r.kind),
      rows.map((r) => r.productId ?? null),
      rows.map((r) => r.body ?? null),
      callId,
    ] as Knex.RawBinding[],
  )) as { rows: { id: number | string }[] };
  if (!inserted.length) throw callNotActive();
  return inserted.map((r) => Number(r.id)).sort((a, b) => a - b);
}

async function itemsOf(db: Knex, ids: number[]): Promise<CallItemsCreatedResponse> {
  const byId = await loadCallItemsById(db, ids);
  return { items: ids.flatMap((id) => byId.get(id) ?? []) };
}

/** The jeweller's own products, to show in an active call (name or SKU; empty: the newest). */
export async function searchCallProducts(
  deps: SellingDeps,
  seller: SessionUser,
  callId: number,
  q: string,
): Promise<CallProductSearchResponse> {
  const call = await sellerCall(deps.db, callId, seller);
  if (call.status !== 'active') throw callNotActive();
  return { products: await searchShopProducts(deps.db, seller.id, q, CALL_PRODUCT_SEARCH_LIMIT) };
}

/** The jeweller shows products of their own shop (not deleted) in an active call: one item each. */
export async function shareProducts(
  deps: SellingDeps,
  seller: SessionUser,
  callId: number,
  productIds: number[],
): Promise<CallItemsCreatedResponse> {
  const { db } = deps;
  const call = await sellerCall(db, callId, seller);
  if (call.status !== 'active') throw callNotActive();
  const ids = [...new Set(productIds)];
  const own = (await db('products')
    .whereIn('id', ids)
    .where('seller_id', seller.id)
    .whereNull('deleted_at')
    .pluck('id')) as number[];
  if (own.length !== ids.length) throw forbidden(MSG.notYourProduct, CODES.notYourProduct);
  const created = await insertItems(
    db,
    callId,
    seller.id,
    deps.clock.now(),
    ids.map((productId) => ({ kind: 'product', productId })),
  );
  return itemsOf(db, created);
}

/** A chat message from either participant of an active call; its product links become cards when shown. */
export async function sendChat(
  deps: SellingDeps,
  user: SessionUser,
  callId: number,
  text: string,
): Promise<CallItemsCreatedResponse> {
  const { db } = deps;
  const call = await participantCall(db, callId, user.id);
  if (call.status !== 'active') throw callNotActive();
  const created = await insertItems(db, callId, user.id, deps.clock.now(), [{ kind: 'message', body: text }]);
  return itemsOf(db, created);
}

const DATA_URI = /^data:image\/(jpeg|png|webp);base64,([A-Za-z0-9+/=]+)$/;

/**
 * Decodes a photo sent as a data URI, refusing what is not a JPEG, PNG or WebP by its bytes (the declared
 * type is not trusted), turns it upright by its EXIF orientation, and re-encodes it as a JPEG at full
 * resolution. Re-encoding drops every metadata block (location, camera serial), which sharp never copies
 * unless asked.
 */
export async function preparePhoto(image: string): Promise<{ bytes: Buffer; width: number; height: number }> {
  const m = DATA_URI.exec(image);
  if (!m) throw badRequest(MSG.photoInvalid, CODES.photoInvalid);
  const raw = Buffer.from(m[2], 'base64');
  if (raw.length > CALL_PHOTO_MAX_BYTES) throw new AppError(413, CODES.photoTooLarge, MSG.photoTooLarge);
  const format = sniffRasterFormat(raw);
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp') {
    throw badRequest(MSG.photoInvalid, CODES.photoInvalid);
  }
  try {
    const { data, info } = await sharp(raw, { limitInputPixels: CALL_PHOTO_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .jpeg({ quality: CALL_PHOTO_QUALITY, mozjpeg: false })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    throw badRequest(MSG.photoInvalid, CODES.photoInvalid);
  }
}

/** A photo from the jeweller's camera, in an active call: stored privately, with its item, in one transaction. */
export async function sendPhoto(
  deps: SellingDeps,
  seller: SessionUser,
  callId: number,
  image: string,
): Promise<CallItemsCreatedResponse> {
  const { db } = deps;
  const call = await sellerCall(db, callId, seller);
  if (call.status !== 'active') throw callNotActive();
  const photo = await preparePhoto(image);
  const id = await db.transaction(async (trx) => {
    const [itemId] = await insertItems(trx, callId, seller.id, deps.clock.now(), [{ kind: 'photo' }]);
    await trx('call_photos').insert({
      item_id: itemId,
      bytes: photo.bytes,
      mime: 'image/jpeg',
      width: photo.width,
      height: photo.height,
    });
    return itemId;
  });
  return itemsOf(db, [id]);
}

/** A photo's bytes, for the two participants of its call only. */
export async function readPhoto(
  db: Knex,
  userId: number,
  itemId: number,
): Promise<{ bytes: Buffer; mime: string }> {
  const row = (await db('call_photos as ph')
    .join('call_items as i', 'i.id', 'ph.item_id')
    .join('calls as c', 'c.id', 'i.call_id')
    .where('ph.item_id', itemId)
    .where((w) => w.where('c.caller_id', userId).orWhere('c.seller_id', userId))
    .first('ph.bytes', 'ph.mime')) as { bytes: Buffer | Uint8Array; mime: string } | undefined;
  if (!row) throw notFound(MSG.photoNotFound, 'photo_not_found');
  return { bytes: Buffer.from(row.bytes), mime: row.mime };
}

/** A call's items after `after` (any status), with the call's status: the fallback of the event stream. */
export async function listCallItems(
  deps: SellingDeps,
  user: SessionUser,
  callId: number,
  after: number,
): Promise<CallItemsResponse> {
  const call = await participantCall(deps.db, callId, user.id);
  return {
    items: await loadCallItems(deps.db, callId, after, CALL_ITEMS_PAGE_SIZE),
    status: call.status,
  };
}

/**
 * What the call's customer bought of its pieces from its shop since the call was placed: order lines of their
 * orders that are not cancelled, oldest first.
 */
async function purchasesOfCall(db: Knex, call: CallRow, pieceIds: number[]): Promise<CallPurchase[]> {
  if (!pieceIds.length) return [];
  const rows = (await db('orders as o')
    .join('order_items as oi', 'oi.order_id', 'o.id')
    .where('o.customer_id', call.caller_id)
    .where('o.seller_id', call.seller_id)
    .where('o.created_at', '>=', call.created_at)
    .whereNot('o.status', 'cancelled')
    .whereIn('oi.product_id', pieceIds)
    .orderBy([
      { column: 'o.created_at', order: 'asc' },
      { column: 'o.id', order: 'asc' },
      { column: 'oi.id', order: 'asc' },
    ])
    .select(
      'o.id as order_id',
      'o.status',
      'o.created_at',
      'oi.product_id',
      'oi.product_name',
      'oi.quantity',
    )) as {
    order_id: number;
    status: string;
    created_at: Date | string;
    product_id: number;
    product_name: string;
    quantity: number;
  }[];
  return rows.map((r) => ({
    orderId: r.order_id,
    productId: r.product_id,
    productName: r.product_name,
    quantity: r.quantity,
    orderStatus: r.status,
    orderedAt: new Date(r.created_at).toISOString(),
  }));
}

/** The call's summary for either participant: who, when, how long, the piece, everything shown, the holds. */
export async function callDetail(
  deps: SellingDeps,
  user: SessionUser,
  callId: number,
): Promise<CallDetailResponse> {
  const { db } = deps;
  await participantCall(db, callId, user.id);
  await expireHolds(db, deps.clock.now(), { callId });
  const row = (await db('calls as c')
    .join('users as cu', 'cu.id', 'c.caller_id')
    .join('users as su', 'su.id', 'c.seller_id')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'c.seller_id')
    .where('c.id', callId)
    .first(
      'c.*',
      'cu.display_name as caller_name',
      'cu.avatar_url as caller_avatar_url',
      'sp.shop_name',
      'su.display_name as seller_display_name',
    )) as CallWithNamesRow;
  const isSeller = row.seller_id === user.id;
  const items: CallItem[] = await loadCallItems(db, callId, 0, null);
  // The call's pieces: the one called about, those shown, those linked in the chat.
  const pieceIds = [
    ...new Set([
      ...(row.product_id === null ? [] : [row.product_id]),
      ...items.flatMap((i) =>
        i.kind === 'product' ? [i.product.id] : i.kind === 'message' ? i.products.map((p) => p.id) : [],
      ),
    ]),
  ];
  return {
    callId: row.id,
    status: row.status,
    isIncoming: isRung(row, user.id),
    participantId: isSeller ? row.caller_id : row.seller_id,
    participantName: isSeller ? row.caller_name : shopName(row),
    shopName: shopName(row),
    createdAt: new Date(row.created_at).toISOString(),
    answeredAt: row.answered_at === null ? null : new Date(row.answered_at).toISOString(),
    endedAt: row.ended_at === null ? null : new Date(row.ended_at).toISOString(),
    endReason: row.end_reason ?? null,
    durationSeconds: callDurationSeconds(row),
    product: await loadCallProduct(db, row.product_id),
    items,
    holds: await holdsOfCall(db, callId, row.caller_id, pieceIds),
    purchases: await purchasesOfCall(db, row, pieceIds),
    likes: await loadLikes(db, callId),
  };
}
