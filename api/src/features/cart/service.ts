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
import { presentCart, type CartLineRow } from './presenter';

const insufficientStock = (available: number) =>
  badRequest(insufficientStockMessage(available), 'insufficient_stock');

/** A product that may be put into a cart: not deleted, and its shop approved. */
async function findBuyableProduct(db: Knex, productId: number) {
  return (await db('products as p')
    .join('seller_profiles as sp', 'sp.user_id', 'p.seller_id')
    .where('p.id', productId)
    .whereNull('p.deleted_at')
    .where('sp.is_approved', true)
    .first('p.id', 'p.stock_quantity')) as { id: number; stock_quantity: number | null } | undefined;
}

/** The customer's cart with each line's availability and the total of the available lines. */
export async function getCart(db: Knex, userId: number): Promise<Cart> {
  const rows = (
    (await db.raw(
      `select ci.id as cart_item_id, ci.product_id, ci.quantity, p.name, p.price, p.stock_quantity,
              p.seller_id, sp.shop_name, (p.price * ci.quantity) as line_total,
              (p.deleted_at is null and sp.is_approved is true
                and (p.stock_quantity is null or p.stock_quantity > 0)) as available,
              (select pi.card_url from product_images pi where pi.product_id = p.id
                order by pi.position limit 1) as image_url
         from cart_items ci
         join products p on p.id = ci.product_id
         left join seller_profiles sp on sp.user_id = p.seller_id
        where ci.user_id = ?
        order by ci.created_at, ci.id`,
      [userId],
    )) as { rows: CartLineRow[] }
  ).rows;
  return presentCart(rows);
}

/**
 * Adds to the customer's line for the product (creating it), checked against stock. The guard sits in the
 * upsert itself so two quick adds cannot together pass the stock.
 */
export async function addToCart(db: Knex, userId: number, input: CartAddInput): Promise<CartChangeResponse> {
  const product = await findBuyableProduct(db, input.productId);
  if (!product) throw notFound(CART_MESSAGES.productNotFound);
  const stock = product.stock_quantity;
  if (stock !== null && input.quantity > stock) throw insufficientStock(stock);
  const limit = stock === null ? MAX_LINE_QUANTITY : Math.min(stock, MAX_LINE_QUANTITY);
  const row = (
    (await db.raw(
      `insert into cart_items (user_id, product_id, quantity) values (?, ?, ?)
       on conflict (user_id, product_id) do update
         set quantity = cart_items.quantity + excluded.quantity, updated_at = now()
         where cart_items.quantity + excluded.quantity <= ?
       returning id, quantity`,
      [userId, input.productId, input.quantity, limit],
    )) as { rows: { id: number; quantity: number }[] }
  ).rows[0];
  if (!row) {
    if (stock !== null && stock <= MAX_LINE_QUANTITY) throw insufficientStock(stock);
    throw badRequest(CART_MESSAGES.quantityMax);
  }
  return { success: true, cartItemId: row.id, quantity: row.quantity };
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
