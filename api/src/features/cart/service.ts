import type { Knex } from 'knex';
import {
  CART_MESSAGES,
  MAX_LINE_QUANTITY,
  insufficientStockMessage,
  type Cart,
  type CartAddInput,
  type CartChangeResponse,
  type CartUpdateInput,
} from '../../../contract/cart';
import { badRequest, notFound } from '../../http/errors';
import type { AppDeps } from '../../http/context';
import { queryWithSession, type SessionRow } from '../../http/session';
import { presentCart, type CartLineRow } from './presenter';

const insufficientStock = (available: number) =>
  badRequest(insufficientStockMessage(available), 'insufficient_stock');

/**
 * The signed-in customer's cart with each line's availability and the total of the available lines, read with
 * the session in one round trip (queryWithSession): `me` is the session's user, and only a customer's lines
 * are read. The caller checks the role after adopting the session.
 *
 * A line the customer holds a unit of (a hold from a call, not yet expired) carries the hold, and counts as
 * available even when the shop's stock shows 0: the held unit is already out of that stock, set aside for them.
 */
export async function readCartWithSession(
  deps: AppDeps,
  sessionId: string,
): Promise<{ session: SessionRow | undefined; cart: Cart }> {
  const { session, rows } = await queryWithSession<CartLineRow>(
    deps,
    sessionId,
    'cart_list',
    {
      select: `select ci.id as cart_item_id, ci.product_id, ci.quantity, p.name, p.price, p.stock_quantity,
                      p.seller_id, sp.shop_name, (p.price * ci.quantity) as line_total,
                      ci.price_at_add::text as price_at_add,
                      p.making_charges::text as making_charges, p.stone_charges::text as stone_charges,
                      p.pricing_mode, p.metal, p.metal_purity, p.net_weight_g::text as net_weight_g,
                      p.making_type, p.making_value::text as making_value, p.metal_rate::text as metal_rate,
                      (p.deleted_at is null and sp.is_approved is true
                        and (p.stock_quantity is null or p.stock_quantity > 0 or h.id is not null)) as available,
                      (select pi.card_url from product_images pi where pi.product_id = p.id
                        order by pi.position limit 1) as image_url,
                      ci.created_at as line_created_at, h.id as hold_id, h.expires_at as hold_expires_at
                 from cart_items ci
                 join products p on p.id = ci.product_id
                 left join seller_profiles sp on sp.user_id = p.seller_id
                 left join lateral (
                   select h.id, h.expires_at from product_holds h
                    where h.customer_id = ci.user_id and h.product_id = ci.product_id and h.status = 'active'
                      and h.expires_at > ?
                    order by h.expires_at, h.id limit 1) h on true
                where ci.user_id = me.id and me.role = 'customer'`,
      orderBy: 'r.line_created_at, r.cart_item_id',
    },
    [deps.clock.now()],
  );
  return { session, cart: presentCart(rows) };
}

/**
 * Adds to the customer's line for the product (creating it), checked against stock, in one statement with the
 * session lookup: the product must be buyable (not deleted, its shop approved), and the guard sits in the
 * upsert itself so two quick adds cannot together pass the stock. Nothing is written unless the session is a
 * customer's. The units the customer holds (`held`: their active holds, already taken out of the stock) count
 * as available to them.
 */
const ADD_CTES = `held as (
       select count(*)::int as n from product_holds h join me on h.customer_id = me.id
        where h.product_id = ? and h.status = 'active' and h.expires_at > ?
     ), product as (
       select p.id, p.seller_id, p.price, p.stock_quantity + (select n from held) as stock_quantity,
              least(coalesce(p.stock_quantity + (select n from held), ?), ?) as line_limit
         from products p join seller_profiles sp on sp.user_id = p.seller_id
        where p.id = ? and p.deleted_at is null and sp.is_approved
     ), added as (
       insert into cart_items (user_id, product_id, quantity, price_at_add)
       select me.id, product.id, ?, product.price from product, me
        where me.role = 'customer' and ? <= product.line_limit
       on conflict (user_id, product_id) do update
         -- Adding again is buying at the price shown now: the price moved note starts over.
         set quantity = cart_items.quantity + excluded.quantity, updated_at = now(),
             price_at_add = excluded.price_at_add
         where cart_items.quantity + excluded.quantity <= (select line_limit from product)
       returning id, quantity
     ), noted as (
       -- In a call with the piece's jeweller, the add is a line in the call for them (call_items 'cart', whose
       -- trigger tells both sides): written from the add itself, only when a unit went in.
       insert into call_items (call_id, from_user_id, kind, product_id, created_at)
       select c.id, me.id, 'cart', product.id, ?
         from added, product, me,
              lateral (select c.id from calls c
                        where c.caller_id = me.id and c.seller_id = product.seller_id and c.status = 'active'
                        order by c.id desc limit 1) c
       returning id
     )`;

export async function addToCartWithSession(
  deps: AppDeps,
  sessionId: string,
  input: CartAddInput,
): Promise<{ session: SessionRow | undefined; add: () => CartChangeResponse }> {
  const { productId, quantity } = input;
  const { session, rows } = await queryWithSession<{
    found: boolean;
    stock_quantity: number | null;
    id: number | null;
    quantity: number | null;
  }>(
    deps,
    sessionId,
    'cart_add',
    {
      ctes: ADD_CTES,
      select: `select true as found, product.stock_quantity, added.id, added.quantity
                 from product left join added on true`,
    },
    [
      productId,
      deps.clock.now(),
      MAX_LINE_QUANTITY,
      MAX_LINE_QUANTITY,
      productId,
      quantity,
      quantity,
      deps.clock.now(),
    ],
  );
  // The answer, for the caller to give once it has checked the session's role.
  const add = (): CartChangeResponse => {
    const row = rows[0];
    if (!row) throw notFound(CART_MESSAGES.productNotFound);
    const stock = row.stock_quantity;
    if (row.id === null || row.quantity === null) {
      if (stock !== null && (quantity > stock || stock <= MAX_LINE_QUANTITY)) throw insufficientStock(stock);
      throw badRequest(CART_MESSAGES.quantityMax);
    }
    return { success: true, cartItemId: row.id, quantity: row.quantity };
  };
  return { session, add };
}

async function findOwnLine(db: Knex, userId: number, cartItemId: number) {
  const line = (await db('cart_items')
    .where({ id: cartItemId, user_id: userId })
    .first('id', 'product_id', 'quantity')) as
    { id: number; product_id: number; quantity: number } | undefined;
  // Another customer's line is reported exactly like a missing one: ids reveal nothing.
  if (!line) throw notFound(CART_MESSAGES.cartItemNotFound);
  return line;
}

/**
 * Sets a line's quantity, checked against stock (a decrease is always allowed); the units the customer holds
 * count as available to them.
 */
export async function updateCartItem(
  db: Knex,
  userId: number,
  input: CartUpdateInput,
  now: Date,
): Promise<CartChangeResponse> {
  const line = await findOwnLine(db, userId, input.cartItemId);
  const product = (await db('products as p')
    .where('p.id', line.product_id)
    .first(
      db.raw(
        `p.stock_quantity + (select count(*)::int from product_holds h
          where h.product_id = p.id and h.customer_id = ? and h.status = 'active' and h.expires_at > ?)
          as stock_quantity`,
        [userId, now],
      ),
    )) as { stock_quantity: number | null } | undefined;
  const stock = product?.stock_quantity ?? null;
  if (stock !== null && input.quantity > stock && input.quantity > line.quantity) {
    throw insufficientStock(stock);
  }
  await db('cart_items')
    .where({ id: line.id, user_id: userId })
    .update({ quantity: input.quantity, updated_at: db.fn.now() });
  return { success: true, cartItemId: line.id, quantity: input.quantity };
}

/** Removes one of the customer's lines. */
export async function removeCartItem(db: Knex, userId: number, cartItemId: number): Promise<void> {
  const deleted = await db('cart_items').where({ id: cartItemId, user_id: userId }).delete().returning('id');
  if (deleted.length === 0) throw notFound(CART_MESSAGES.cartItemNotFound);
}
