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
import type { AppContext } from '../../http/context';
import { queryWithSession, type SessionRow } from '../../http/session';
import { presentCart, type CartLineRow } from './presenter';

const insufficientStock = (available: number) =>
  badRequest(insufficientStockMessage(available), 'insufficient_stock');

/**
 * The signed-in customer's cart with each line's availability and the total of the available lines, read with
 * the session in one round trip (queryWithSession): `me` is the session's user, and only a customer's lines
 * are read. The caller checks the role after adopting the session.
 */
export async function readCartWithSession(
  ctx: AppContext,
  sessionId: string,
): Promise<{ session: SessionRow | undefined; cart: Cart }> {
  const { session, rows } = await queryWithSession<CartLineRow>(
    ctx,
    sessionId,
    'cart_list',
    {
      select: `select ci.id as cart_item_id, ci.product_id, ci.quantity, p.name, p.price, p.stock_quantity,
                      p.seller_id, sp.shop_name, (p.price * ci.quantity) as line_total,
                      (p.deleted_at is null and sp.is_approved is true
                        and (p.stock_quantity is null or p.stock_quantity > 0)) as available,
                      (select pi.card_url from product_images pi where pi.product_id = p.id
                        order by pi.position limit 1) as image_url,
                      ci.created_at as line_created_at
                 from cart_items ci
                 join products p on p.id = ci.product_id
                 left join seller_profiles sp on sp.user_id = p.seller_id
                where ci.user_id = me.id and me.role = 'customer'`,
      orderBy: 'r.line_created_at, r.cart_item_id',
    },
    [],
  );
  return { session, cart: presentCart(rows) };
}

/**
 * Adds to the customer's line for the product (creating it), checked against stock, in one statement with the
 * session lookup: the product must be buyable (not deleted, its shop approved), and the guard sits in the
 * upsert itself so two quick adds cannot together pass the stock. Nothing is written unless the session is a
 * customer's.
 */
const ADD_CTES = `product as (
       select p.id, p.stock_quantity, least(coalesce(p.stock_quantity, ?), ?) as line_limit
         from products p join seller_profiles sp on sp.user_id = p.seller_id
        where p.id = ? and p.deleted_at is null and sp.is_approved
     ), added as (
       insert into cart_items (user_id, product_id, quantity)
       select me.id, product.id, ? from product, me where me.role = 'customer' and ? <= product.line_limit
       on conflict (user_id, product_id) do update
         set quantity = cart_items.quantity + excluded.quantity, updated_at = now()
         where cart_items.quantity + excluded.quantity <= (select line_limit from product)
       returning id, quantity
     )`;

export async function addToCartWithSession(
  ctx: AppContext,
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
    ctx,
    sessionId,
    'cart_add',
    {
      ctes: ADD_CTES,
      select: `select true as found, product.stock_quantity, added.id, added.quantity
                 from product left join added on true`,
    },
    [MAX_LINE_QUANTITY, MAX_LINE_QUANTITY, productId, quantity, quantity],
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

/** Sets a line's quantity, checked against stock (a decrease is always allowed). */
export async function updateCartItem(
  db: Knex,
  userId: number,
  input: CartUpdateInput,
): Promise<CartChangeResponse> {
  const line = await findOwnLine(db, userId, input.cartItemId);
  const product = (await db('products').where({ id: line.product_id }).first('stock_quantity')) as
    { stock_quantity: number | null } | undefined;
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
