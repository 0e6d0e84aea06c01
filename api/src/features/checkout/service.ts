import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { fromPaise, insufficientStockMessage, toPaise } from '../../../contract/cart';
import { CHECKOUT_MESSAGES, type CheckoutData, type CheckoutResponse } from '../../../contract/checkout';
import { hotQuery } from '../../../../db/connection';
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
    const inserted =
      // The claim's commit skips the WAL flush (~5 ms per commit on a slow disk): losing it in a crash
      // loses nothing, because the orders' own (synchronous) commit flushes every earlier WAL record with it,
      // and without that commit there is no order, so a retry may simply claim the key again.
      (
        await hotQuery<{ id: number }>(
          db,
          'checkout_claim',
          `insert into idempotency_keys (user_id, scope, key, request_hash)
           select ?, ?, ?, ? from (select set_config('synchronous_commit', 'off', true)) async_commit
           on conflict (user_id, scope, key) do nothing returning id`,
          [userId, SCOPE, key, hash],
        )
      )[0];
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

interface CartLine {
  id: number;
  product_id: number;
  quantity: number;
  name: string;
  stock_quantity: number | null;
  buyable: boolean;
  image_url: string | null;
}

interface SoldProduct {
  id: number;
  name: string;
  price: string;
  gst_amount: string | null;
  seller_id: number;
}

/*
 * The checkout is a handful of statements, each one round trip (a round trip on a busy server costs more
 * than the statement): read and lock the cart with its products, decrement all stock, insert all orders
 * with their items, load the answer, then empty the cart and store the answer. Every guarantee is in SQL.
 */

/**
 * The customer's cart lines, locked, with each product's state. Locking the lines serialises two tabs
 * checking out the same cart: the second waits, then finds the lines gone (deleted by the first) and sees
 * an empty cart.
 */
const CART_SQL = `select ci.id, ci.product_id, ci.quantity, p.name, p.stock_quantity,
        p.deleted_at is null and coalesce(sp.is_approved, false) as buyable,
        (select pi.card_url from product_images pi where pi.product_id = p.id
          order by pi.position limit 1) as image_url
   from cart_items ci
   join products p on p.id = ci.product_id
   left join seller_profiles sp on sp.user_id = p.seller_id
  where ci.user_id = ?
  order by ci.product_id
  for update of ci`;

/**
 * Conditional decrements of every line at once: a product that is deleted or short of stock is simply not
 * updated (its row is missing from RETURNING), so stock can never go below zero. The rows are locked first
 * in product id order (the materialised CTE), so two checkouts sharing products cannot deadlock; the UPDATE
 * then rechecks the guard on the latest row version (READ COMMITTED re-evaluates it after a wait).
 */
const DECREMENT_SQL = `with wanted as (
       select (l->>'id')::int as id, (l->>'quantity')::int as quantity from jsonb_array_elements(?::jsonb) l
     ), locked as materialized (
       select p.id from products p where p.id in (select id from wanted) order by p.id for update
     )
     update products p
        set stock_quantity = case when p.stock_quantity is null then null else p.stock_quantity - w.quantity end,
            units_sold = p.units_sold + w.quantity,
            updated_at = now()
       from wanted w, locked k
      where p.id = w.id and k.id = w.id
        and p.deleted_at is null and (p.stock_quantity is null or p.stock_quantity >= w.quantity)
      returning p.id, p.name, p.price, p.gst_amount, p.seller_id`;

/**
 * All orders of the checkout and all their items in one statement. Orders are inserted in seller id order
 * and items in (seller, product) order, so ids grow as they did when they were inserted one by one.
 */
const INSERT_ORDERS_SQL = `with o as (
       insert into orders (customer_id, seller_id, checkout_ref, status, subtotal, gst_total, shipping_charges,
                           total_amount, customer_name, customer_phone, shipping_address, city, state, pin_code,
                           payment_method, payment_status)
       select ?, s.seller_id, ?, 'pending', s.subtotal, s.gst_total, s.shipping_charges, s.total_amount,
              ?, ?, ?, ?, ?, ?, ?, 'pending'
         from jsonb_to_recordset(?::jsonb)
              as s(ord int, seller_id int, subtotal numeric, gst_total numeric, shipping_charges numeric,
                   total_amount numeric)
        order by s.ord
       returning id, seller_id
     ), items as (
       insert into order_items (order_id, product_id, product_name, image_url, price, gst_amount, quantity)
       select o.id, it.product_id, it.product_name, it.image_url, it.price, it.gst_amount, it.quantity
         from jsonb_to_recordset(?::jsonb)
              as it(ord int, seller_id int, product_id int, product_name text, image_url text, price numeric,
                    gst_amount numeric, quantity int)
         join o on o.seller_id = it.seller_id
        order by it.ord
       returning 1
     )
     select o.id, o.seller_id, (select count(*) from items)::int as item_count from o order by o.seller_id`;

/** Empties the checked-out lines and stores the answer for replays, in one statement. */
const FINISH_SQL = `with emptied as (delete from cart_items where id = any(?::int[]))
     update idempotency_keys set state = 'completed', response_status = ?, response_body = ?::jsonb where id = ?`;

/** The whole checkout inside one transaction: everything or nothing. */
async function placeOrders(
  trx: Knex.Transaction,
  user: CheckoutUser,
  input: CheckoutData,
  keyId: number,
): Promise<CheckoutResult> {
  const lines = await hotQuery<CartLine>(trx, 'checkout_cart', CART_SQL, [user.id]);
  if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.cartEmpty, 'cart_empty');

  for (const line of lines) {
    if (!line.buyable) {
      throw conflict(
        CHECKOUT_MESSAGES.productUnavailable.replace('{name}', line.name ?? `#${line.product_id}`),
        'product_unavailable',
      );
    }
    // A sold-out product fails here without queueing behind the row locks of the checkouts that bought it;
    // the conditional update below stays the real guard.
    if (line.stock_quantity !== null && line.stock_quantity < line.quantity) {
      throw insufficientStockError(line.product_id, line.name, line.stock_quantity);
    }
  }

  const decremented = await hotQuery<SoldProduct>(trx, 'checkout_decrement', DECREMENT_SQL, [
    JSON.stringify(lines.map((l) => ({ id: l.product_id, quantity: l.quantity }))),
  ]);
  const sold = new Map(decremented.map((row) => [row.id, row]));
  if (sold.size !== lines.length) {
    // The first line (in product id order) that the guard refused, named with its current state.
    const failed = lines.find((l) => !sold.has(l.product_id))!;
    const now = (await trx('products')
      .where({ id: failed.product_id })
      .first('name', 'stock_quantity', 'deleted_at')) as
      { name: string; stock_quantity: number | null; deleted_at: Date | null } | undefined;
    if (!now || now.deleted_at) {
      throw conflict(
        CHECKOUT_MESSAGES.productUnavailable.replace('{name}', now?.name ?? `#${failed.product_id}`),
        'product_unavailable',
      );
    }
    throw insufficientStockError(failed.product_id, now.name, now.stock_quantity ?? 0);
  }

  // One order per shop, priced from the product rows just locked, never from the client.
  const bySeller = new Map<number, CartLine[]>();
  for (const line of lines) {
    const sellerId = sold.get(line.product_id)!.seller_id;
    bySeller.set(sellerId, [...(bySeller.get(sellerId) ?? []), line]);
  }
  const sellerIds = [...bySeller.keys()].sort((a, b) => a - b);
  const orderRows = sellerIds.map((sellerId, ord) => {
    let subtotal = 0;
    let gstTotal = 0;
    for (const line of bySeller.get(sellerId)!) {
      const p = sold.get(line.product_id)!;
      subtotal += toPaise(p.price) * line.quantity;
      gstTotal += toPaise(p.gst_amount ?? '0') * line.quantity;
    }
    const shipping = 0;
    return {
      ord,
      seller_id: sellerId,
      subtotal: fromPaise(subtotal),
      gst_total: fromPaise(gstTotal),
      shipping_charges: fromPaise(shipping),
      total_amount: fromPaise(subtotal + shipping),
    };
  });
  const itemRows = sellerIds
    .flatMap((sellerId) => bySeller.get(sellerId)!.map((line) => ({ sellerId, line })))
    .map(({ sellerId, line }, ord) => {
      const p = sold.get(line.product_id)!;
      return {
        ord,
        seller_id: sellerId,
        product_id: p.id,
        product_name: p.name,
        image_url: line.image_url,
        price: p.price,
        gst_amount: p.gst_amount ?? '0',
        quantity: line.quantity,
      };
    });
  const checkoutRef = crypto.randomUUID();
  const inserted = await hotQuery<{ id: number; seller_id: number; item_count: number }>(
    trx,
    'checkout_orders',
    INSERT_ORDERS_SQL,
    [
      user.id,
      checkoutRef,
      input.customerName,
      input.customerPhone,
      input.shippingAddress,
      input.city,
      input.state,
      input.pinCode,
      input.paymentMethod,
      // No payment is taken yet, whatever the method (payment_status 'pending'): a gateway is a later step.
      JSON.stringify(orderRows),
      JSON.stringify(itemRows),
    ],
  );
  if (inserted.length !== sellerIds.length || inserted[0]?.item_count !== itemRows.length) {
    throw new Error('checkout: orders or items were not all inserted');
  }
  const orderIds = inserted.map((o) => o.id);

  const body: CheckoutResponse = { orders: await loadOrders(trx, orderIds, user), checkoutRef };
  const result: CheckoutResult = { status: 201, body };
  // Stored in the same transaction as the orders: a replay can never see orders without their answer.
  await hotQuery(trx, 'checkout_finish', FINISH_SQL, [
    lines.map((l) => l.id),
    result.status,
    JSON.stringify(body),
    keyId,
  ]);
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
