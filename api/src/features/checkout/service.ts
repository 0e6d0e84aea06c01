import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { fromPaise, insufficientStockMessage, toPaise } from '../../../contract/cart';
import { CHECKOUT_MESSAGES, type CheckoutData, type CheckoutResponse } from '../../../contract/checkout';
import { AppError, badRequest, conflict } from '../../http/errors';
import { loadOrders } from '../orders/service';

const SCOPE = 'checkout';
/** An in-progress claim older than this belongs to a request that died; a retry may take it over. */
const STALE_CLAIM_SECONDS = 60;

export interface CheckoutUser {
  id: number;
  role: string;
}

export interface CheckoutResult {
  status: number;
  body: CheckoutResponse;
}

/** Order-independent hash of the validated body: the same checkout sent twice hashes the same. */
export function checkoutRequestHash(input: CheckoutData): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .sort()
      .map((k) => [k, input[k as keyof CheckoutData]]),
  );
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

interface KeyRow {
  id: number;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
  stale: boolean;
}

type Claim = { kind: 'claimed'; id: number } | { kind: 'replay'; result: CheckoutResult };

/**
 * Claims the key for this request in its own short statement, so a duplicate arriving while the checkout
 * runs sees it at once (409) instead of waiting, and a finished one sees the stored answer.
 */
async function claimKey(db: Knex, userId: number, key: string, hash: string): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = (
      (await db.raw(
        `insert into idempotency_keys (user_id, scope, key, request_hash) values (?, ?, ?, ?)
         on conflict (user_id, scope, key) do nothing returning id`,
        [userId, SCOPE, key, hash],
      )) as { rows: { id: number }[] }
    ).rows[0];
    if (inserted) return { kind: 'claimed', id: inserted.id };

    const row = (
      (await db.raw(
        `select id, request_hash, state, response_status, response_body,
                created_at < now() - make_interval(secs => ?) as stale
           from idempotency_keys where user_id = ? and scope = ? and key = ?`,
        [STALE_CLAIM_SECONDS, userId, SCOPE, key],
      )) as { rows: KeyRow[] }
    ).rows[0];
    if (!row) continue; // released by a failed attempt a moment ago: try to claim again
    if (row.request_hash !== hash) {
      throw new AppError(422, 'idempotency_key_reused', CHECKOUT_MESSAGES.idempotencyKeyReused);
    }
    if (row.state === 'completed') {
      const body =
        typeof row.response_body === 'string'
          ? (JSON.parse(row.response_body) as unknown)
          : row.response_body;
      return {
        kind: 'replay',
        result: { status: row.response_status ?? 201, body: body as CheckoutResponse },
      };
    }
    if (row.stale) {
      const taken = (
        (await db.raw(
          `update idempotency_keys set created_at = now()
            where id = ? and state = 'in_progress'
              and created_at < now() - make_interval(secs => ?)
            returning id`,
          [row.id, STALE_CLAIM_SECONDS],
        )) as { rows: { id: number }[] }
      ).rows[0];
      if (taken) return { kind: 'claimed', id: taken.id };
    }
    throw conflict(CHECKOUT_MESSAGES.alreadyProcessing, 'checkout_in_progress');
  }
  throw conflict(CHECKOUT_MESSAGES.alreadyProcessing, 'checkout_in_progress');
}

/** Database refusals that mean "the data changed under us", shown as a clear 409 rather than a 500. */
function isConflictError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('23') || code === '22003' || code === '40001' || code === '40P01')
  );
}

/** 409 with the spec's stock text; the product is named in issues so the UI can point at the line. */
const insufficientStockError = (productId: number, name: string, available: number) =>
  new AppError(409, 'insufficient_stock', insufficientStockMessage(available), [
    { path: `product.${productId}`, message: name },
  ]);

interface LockedLine {
  id: number;
  product_id: number;
  quantity: number;
}

interface SoldProduct {
  id: number;
  name: string;
  price: string;
  gst_amount: string | null;
  seller_id: number;
}

/** The whole checkout inside one transaction: everything or nothing. */
async function placeOrders(
  trx: Knex.Transaction,
  user: CheckoutUser,
  input: CheckoutData,
  keyId: number,
): Promise<CheckoutResult> {
  // Locking the customer's cart lines serialises two tabs checking out the same cart: the second waits,
  // then finds the lines gone (deleted by the first) and sees an empty cart.
  const lines = (
    (await trx.raw(
      `select id, product_id, quantity from cart_items where user_id = ? order by product_id for update`,
      [user.id],
    )) as { rows: LockedLine[] }
  ).rows;
  if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.cartEmpty, 'cart_empty');

  const productIds = lines.map((l) => l.product_id);
  const state = (
    (await trx.raw(
      `select p.id, p.name, p.stock_quantity, p.deleted_at is null and coalesce(sp.is_approved, false) as buyable,
              (select pi.card_url from product_images pi where pi.product_id = p.id
                order by pi.position limit 1) as image_url
         from products p left join seller_profiles sp on sp.user_id = p.seller_id
        where p.id = any(?::int[])`,
      [productIds],
    )) as {
      rows: {
        id: number;
        name: string;
        stock_quantity: number | null;
        buyable: boolean;
        image_url: string | null;
      }[];
    }
  ).rows;
  const byId = new Map(state.map((p) => [p.id, p]));
  for (const line of lines) {
    const p = byId.get(line.product_id);
    if (!p?.buyable) {
      throw conflict(
        CHECKOUT_MESSAGES.productUnavailable.replace('{name}', p?.name ?? `#${line.product_id}`),
        'product_unavailable',
      );
    }
    // A sold-out product fails here without queueing behind the row locks of the checkouts that bought it;
    // the conditional update below stays the real guard.
    if (p.stock_quantity !== null && p.stock_quantity < line.quantity) {
      throw insufficientStockError(line.product_id, p.name, p.stock_quantity);
    }
  }

  // Conditional decrements in product id order (lines are sorted): stock can never go below zero, and
  // two checkouts sharing products take their row locks in the same order, so they cannot deadlock.
  const sold = new Map<number, SoldProduct>();
  for (const line of lines) {
    const row = (
      (await trx.raw(
        `update products
            set stock_quantity = case when stock_quantity is null then null else stock_quantity - ? end,
                units_sold = units_sold + ?,
                updated_at = now()
          where id = ? and deleted_at is null and (stock_quantity is null or stock_quantity >= ?)
          returning id, name, price, gst_amount, seller_id`,
        [line.quantity, line.quantity, line.product_id, line.quantity],
      )) as { rows: SoldProduct[] }
    ).rows[0];
    if (!row) {
      const now = (await trx('products')
        .where({ id: line.product_id })
        .first('name', 'stock_quantity', 'deleted_at')) as
        { name: string; stock_quantity: number | null; deleted_at: Date | null } | undefined;
      if (!now || now.deleted_at) {
        throw conflict(
          CHECKOUT_MESSAGES.productUnavailable.replace('{name}', now?.name ?? `#${line.product_id}`),
          'product_unavailable',
        );
      }
      throw insufficientStockError(line.product_id, now.name, now.stock_quantity ?? 0);
    }
    sold.set(row.id, row);
  }

  // One order per shop, priced from the product rows just locked, never from the client.
  const bySeller = new Map<number, LockedLine[]>();
  for (const line of lines) {
    const sellerId = sold.get(line.product_id)!.seller_id;
    bySeller.set(sellerId, [...(bySeller.get(sellerId) ?? []), line]);
  }
  const checkoutRef = crypto.randomUUID();
  const orderIds: number[] = [];
  for (const sellerId of [...bySeller.keys()].sort((a, b) => a - b)) {
    const group = bySeller.get(sellerId)!;
    let subtotal = 0;
    let gstTotal = 0;
    for (const line of group) {
      const p = sold.get(line.product_id)!;
      subtotal += toPaise(p.price) * line.quantity;
      gstTotal += toPaise(p.gst_amount ?? '0') * line.quantity;
    }
    const shipping = 0;
    const [order] = (await trx('orders')
      .insert({
        customer_id: user.id,
        seller_id: sellerId,
        checkout_ref: checkoutRef,
        status: 'pending',
        subtotal: fromPaise(subtotal),
        gst_total: fromPaise(gstTotal),
        shipping_charges: fromPaise(shipping),
        total_amount: fromPaise(subtotal + shipping),
        customer_name: input.customerName,
        customer_phone: input.customerPhone,
        shipping_address: input.shippingAddress,
        city: input.city,
        state: input.state,
        pin_code: input.pinCode,
        payment_method: input.paymentMethod,
        // No payment is taken yet, whatever the method: a gateway is a later step.
        payment_status: 'pending',
      })
      .returning('id')) as { id: number }[];
    orderIds.push(order.id);
    await trx('order_items').insert(
      group.map((line) => {
        const p = sold.get(line.product_id)!;
        return {
          order_id: order.id,
          product_id: p.id,
          product_name: p.name,
          image_url: byId.get(p.id)?.image_url ?? null,
          price: p.price,
          gst_amount: p.gst_amount ?? '0',
          quantity: line.quantity,
        };
      }),
    );
  }

  await trx('cart_items')
    .whereIn(
      'id',
      lines.map((l) => l.id),
    )
    .delete();

  const body: CheckoutResponse = { orders: await loadOrders(trx, orderIds, user), checkoutRef };
  const result: CheckoutResult = { status: 201, body };
  // Stored in the same transaction as the orders: a replay can never see orders without their answer.
  await trx.raw(
    `update idempotency_keys set state = 'completed', response_status = ?, response_body = ?::jsonb where id = ?`,
    [result.status, JSON.stringify(body), keyId],
  );
  return result;
}

/**
 * Places the customer's cart as one order per shop, once per Idempotency-Key: the same key and body replay
 * the stored answer, a different body is refused, and a duplicate still running gets 409.
 */
export async function checkout(
  db: Knex,
  user: CheckoutUser,
  idempotencyKey: string,
  input: CheckoutData,
): Promise<CheckoutResult> {
  const claim = await claimKey(db, user.id, idempotencyKey, checkoutRequestHash(input));
  if (claim.kind === 'replay') return claim.result;
  try {
    return await db.transaction((trx) => placeOrders(trx, user, input, claim.id));
  } catch (err) {
    // A failed attempt leaves nothing behind, so the same key may be tried again once the cart is fixed.
    await db('idempotency_keys')
      .where({ id: claim.id, state: 'in_progress' })
      .delete()
      .catch(() => undefined);
    if (err instanceof AppError) throw err;
    if (isConflictError(err)) throw conflict(CHECKOUT_MESSAGES.checkoutConflict, 'checkout_conflict');
    throw err;
  }
}
