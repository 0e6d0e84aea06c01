import type { Knex } from 'knex';
import {
  SELLING_ERROR_CODES as CODES,
  SELLING_MESSAGES as MSG,
  type HoldResponse,
  type HoldsResponse,
  type ProductHold,
} from '../../../contract/call-selling';
import { CALL_ERROR_CODES, CALL_MESSAGES } from '../../../contract/calls';
import type { AppDeps, SessionUser } from '../../http/context';
import { conflict, forbidden, notFound, tooManyRequests } from '../../http/errors';
import type { CallRow } from '../calls/presenter';
import { presentHold, type HoldRow } from './presenter';

/**
 * Holds: one unit of a product set aside for a customer after the jeweller showed it in a call. A hold is
 * stock: taking one takes the unit out of products.stock_quantity in the same transaction (guarded, so two
 * customers can never hold the last unit together), and releasing or expiring it puts the unit back; checkout
 * consumes it instead of taking a second unit (api/src/features/checkout/service.ts). Null stock is unlimited:
 * nothing is taken or put back.
 *
 * Locks are always taken in the order checkout takes them (cart line, product, hold), so a hold, a release,
 * an expiry and a checkout of the same product wait for each other but never deadlock.
 */

type HoldsDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

const HOLD_SELECT = `select h.id, h.product_id, h.customer_id, h.seller_id, h.call_id, h.status, h.expires_at,
       h.created_at, p.name as product_name, p.price,
       (select i.card_url from product_images i where i.product_id = p.id order by i.position limit 1) as image_url,
       cu.display_name as customer_name, coalesce(sp.shop_name, su.display_name) as shop_name
  from product_holds h
  join products p on p.id = h.product_id
  join users cu on cu.id = h.customer_id
  join users su on su.id = h.seller_id
  left join seller_profiles sp on sp.user_id = h.seller_id`;

async function selectHolds(
  db: Knex,
  where: string,
  bindings: unknown[],
  order = 'h.id',
): Promise<ProductHold[]> {
  const { rows } = (await db.raw(
    `${HOLD_SELECT} where ${where} order by ${order}`,
    bindings as Knex.RawBinding[],
  )) as {
    rows: HoldRow[];
  };
  return rows.map(presentHold);
}

const isUniqueViolation = (err: unknown, index: string) => {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.constraint === index || (typeof e.message === 'string' && e.message.includes(index)))
  );
};

/** Most holds one expiry statement ends; the sweep runs again soon after. */
const EXPIRE_BATCH = 500;

/**
 * Ends the active holds whose time is up and puts their units back, in one statement (one transaction): the
 * products first, locked in id order, then the holds, guarded on their status, so two API processes sweeping
 * at once end each hold once, and a checkout or release of the same hold either comes first or finds it
 * expired. Scoped to a call, a seller, a customer's product or a hold when run lazily before a read.
 */
export async function expireHolds(
  db: Knex,
  now: Date,
  scope: {
    callId?: number;
    sellerId?: number;
    customerId?: number;
    productId?: number;
    holdId?: number;
  } = {},
): Promise<number> {
  const filters: string[] = [];
  const bindings: unknown[] = [now];
  const add = (column: string, value: number | undefined) => {
    if (value === undefined) return;
    filters.push(`and ${column} = ?`);
    bindings.push(value);
  };
  add('call_id', scope.callId);
  add('seller_id', scope.sellerId);
  add('customer_id', scope.customerId);
  add('product_id', scope.productId);
  add('id', scope.holdId);
  const { rows } = (await db.raw(
    `with due as materialized (
       select id, product_id from product_holds
        where status = 'active' and expires_at <= ? ${filters.join(' ')}
        order by id limit ${EXPIRE_BATCH}
     ), locked as materialized (
       select p.id from products p where p.id in (select product_id from due) order by p.id for update
     ), expired as (
       update product_holds h set status = 'expired', ended_at = h.expires_at
        where h.id in (select id from due) and h.product_id = any(array(select id from locked))
          and h.status = 'active' and h.expires_at <= ?
       returning h.product_id
     ), restocked as (
       update products p set stock_quantity = p.stock_quantity + x.n, updated_at = now()
         from (select product_id, count(*)::int as n from expired group by product_id) x
        where p.id = x.product_id and p.stock_quantity is not null
     )
     select count(*)::int as n from expired`,
    [...bindings, now] as Knex.RawBinding[],
  )) as { rows: { n: number }[] };
  return rows[0]?.n ?? 0;
}

/**
 * A call's summary's holds, oldest first: those made in the call, and the customer's holds still active of the
 * call's pieces (`productIds`) made in another call, so a piece already held is not offered to hold again.
 */
export function holdsOfCall(
  db: Knex,
  callId: number,
  customerId: number,
  productIds: readonly number[],
): Promise<ProductHold[]> {
  return selectHolds(
    db,
    `(h.call_id = ? or (h.customer_id = ? and h.status = 'active' and h.product_id = any(?::int[])))`,
    [callId, customerId, [...productIds]],
  );
}

/**
 * The customer (the caller of the call) holds one unit of a product the jeweller showed in it: a product card
 * of the call, or the piece the call was placed about. The call must have been answered; it may still be on
 * or have ended, but not longer ago than the hold window (HOLD_HOURS). Taking the unit, storing the hold and
 * putting the product in the customer's cart (so checkout consumes the hold) happen in one transaction.
 */
export async function createHold(
  deps: HoldsDeps,
  customer: SessionUser,
  callId: number,
  productId: number,
): Promise<HoldResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const call = (await db('calls').where({ id: callId, caller_id: customer.id }).first()) as
    CallRow | undefined;
  if (!call) throw notFound(CALL_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
  const shown =
    call.answered_at !== null &&
    (call.product_id === productId ||
      !!(await db('call_items')
        .where({ call_id: callId, kind: 'product', product_id: productId })
        .first('id')));
  if (!shown) throw forbidden(MSG.holdNotShown, CODES.holdNotShown);
  const over = call.status !== 'active' && call.status !== 'ended';
  const tooLate =
    call.status === 'ended' &&
    call.ended_at !== null &&
    new Date(call.ended_at).getTime() <= now.getTime() - deps.config.productHoldMs;
  if (over || tooLate) throw conflict(CALL_MESSAGES.callNotActive, CALL_ERROR_CODES.callNotActive);

  // A hold of this piece that ran out but was not swept yet must not count as held (nor block a new one).
  await expireHolds(db, now, { customerId: customer.id, productId });
  if (
    await db('product_holds')
      .where({ customer_id: customer.id, product_id: productId, status: 'active' })
      .first('id')
  ) {
    throw conflict(MSG.holdAlreadyHeld, CODES.holdAlreadyHeld);
  }
  // A hold is not renewable: released or run out, the piece is not held again in the same call (a fresh 48 h each
  // time would keep it off sale for good), and a customer holds at most HOLDS_MAX_PER_CUSTOMER_PER_30_DAYS pieces.
  if (
    await db('product_holds')
      .where({ customer_id: customer.id, product_id: productId, call_id: callId })
      .first('id')
  ) {
    throw conflict(MSG.holdUsedInCall, CODES.holdUsedInCall);
  }
  const maxHolds = deps.config.holdsPerCustomerPer30Days;
  const recent = (await db('product_holds')
    .where({ customer_id: customer.id })
    .where('created_at', '>', new Date(now.getTime() - 30 * 86_400_000))
    .count({ n: '*' })) as { n: string | number }[];
  if (Number(recent[0]?.n ?? 0) >= maxHolds) {
    throw tooManyRequests(MSG.holdLimit.replace('{n}', String(maxHolds)), 24 * 3600, CODES.holdLimit);
  }

  const expiresAt = new Date(now.getTime() + deps.config.productHoldMs);
  let holdId: number;
  try {
    holdId = await db.transaction(async (trx) => {
      // The lock order of checkout: the customer's cart line, then the product.
      await trx.raw(`select id from cart_items where user_id = ? and product_id = ? for update`, [
        customer.id,
        productId,
      ]);
      const taken = (
        (await trx.raw(
          `update products set stock_quantity = case when stock_quantity is null then null else stock_quantity - 1 end,
                  updated_at = now()
            where id = ? and seller_id = ? and deleted_at is null and (stock_quantity is null or stock_quantity >= 1)
            returning id`,
          [productId, call.seller_id],
        )) as { rows: { id: number }[] }
      ).rows;
      if (!taken.length) throw conflict(MSG.holdOutOfStock, CODES.holdOutOfStock);
      const [hold] = (await trx('product_holds')
        .insert({
          product_id: productId,
          customer_id: customer.id,
          seller_id: call.seller_id,
          call_id: callId,
          status: 'active',
          expires_at: expiresAt,
          created_at: now,
        })
        .returning('id')) as { id: number }[];
      await trx.raw(
        `insert into cart_items (user_id, product_id, quantity) values (?, ?, 1)
         on conflict (user_id, product_id) do nothing`,
        [customer.id, productId],
      );
      // While the call is on, the jeweller reads it as a line in the call (an item the trigger of migration 0013
      // carries to both sides), written here from the hold itself. A hold after the call is in its summary.
      await trx.raw(
        `insert into call_items (call_id, from_user_id, kind, product_id, created_at)
         select c.id, ?, 'hold', ?, ? from calls c where c.id = ? and c.status = 'active'`,
        [customer.id, productId, now, callId],
      );
      return hold.id;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'product_holds_one_active')) {
      throw conflict(MSG.holdAlreadyHeld, CODES.holdAlreadyHeld);
    }
    throw err;
  }
  const [hold] = await selectHolds(db, 'h.id = ?', [holdId]);
  return { hold };
}

/**
 * The jeweller of the product's shop, or the customer who holds it, ends an active hold: its unit goes back
 * to stock (product locked first, as everywhere). Anyone else is told the hold does not exist.
 */
export async function releaseHold(deps: HoldsDeps, user: SessionUser, holdId: number): Promise<HoldResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const mine = (await db('product_holds as h')
    .join('products as p', 'p.id', 'h.product_id')
    .where('h.id', holdId)
    .where((w) => w.where('h.customer_id', user.id).orWhere('p.seller_id', user.id))
    .first('h.id', 'h.product_id')) as { id: number; product_id: number } | undefined;
  if (!mine) throw notFound(MSG.holdNotFound, CODES.holdNotFound);
  await expireHolds(db, now, { holdId });
  const released = await db.transaction(async (trx) => {
    await trx.raw('select id from products where id = ? for update', [mine.product_id]);
    const ended = (
      (await trx.raw(
        `update product_holds set status = 'released', ended_at = ?
          where id = ? and status = 'active' returning id, product_id`,
        [now, holdId],
      )) as { rows: { id: number; product_id: number }[] }
    ).rows;
    if (!ended.length) return false;
    await trx.raw(
      `update products set stock_quantity = stock_quantity + 1, updated_at = now()
        where id = ? and stock_quantity is not null`,
      [mine.product_id],
    );
    return true;
  });
  if (!released) throw conflict(MSG.holdNotActive, CODES.holdNotActive);
  const [hold] = await selectHolds(db, 'h.id = ?', [holdId]);
  return { hold };
}

/** The shop's active holds, the soonest to expire first. */
export async function listSellerHolds(deps: HoldsDeps, seller: SessionUser): Promise<HoldsResponse> {
  await expireHolds(deps.db, deps.clock.now(), { sellerId: seller.id });
  return {
    holds: await selectHolds(
      deps.db,
      `h.seller_id = ? and h.status = 'active'`,
      [seller.id],
      'h.expires_at, h.id',
    ),
  };
}
