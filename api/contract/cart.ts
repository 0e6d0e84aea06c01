import { z } from 'zod';
import { ID_MAX } from './constants';
import type { PieceFigures } from './figures';

/** Every cart message: the product rules' (docs/product-rules.md §5, §8) word for word, plus server texts of ours where it is silent. */
export const CART_MESSAGES = {
  productIdInvalid: 'Product ID must be a positive integer.',
  cartItemIdInvalid: 'Cart item ID must be a positive integer.',
  quantityInvalid: 'Quantity must be a positive integer.',
  quantityMin: 'Quantity must be at least 1',
  quantityMax: 'Quantity cannot exceed 1000.',
  insufficientStock: 'Only {n} item(s) available in stock',
  productNotFound: 'Product not found.',
  cartItemNotFound: 'Cart item not found.',
  added: 'Item added to cart!',
  updated: 'Cart updated!',
  removed: 'Item removed from cart.',
  addFailed: 'Failed to add item: {message}',
  updateFailed: 'Failed to update cart: {message}',
  removeFailed: 'Failed to remove item: {message}',
  unknownError: 'An unknown error occurred',
  emptyTitle: 'Your cart is empty',
  emptyBody: "Looks like you haven't added anything to your cart yet.",
} as const;

/** The most one cart line may hold; keeps quantities (and money sums) far from integer limits. */
export const MAX_LINE_QUANTITY = 1000;

/** The stock message with its number filled in. */
export const insufficientStockMessage = (available: number) =>
  CART_MESSAGES.insufficientStock.replace('{n}', String(Math.max(0, available)));

const M = CART_MESSAGES;
// Ids are PostgreSQL integers: anything above ID_MAX is refused here, not by the database.
const positiveId = (message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(ID_MAX, { error: message });

export const CartAddSchema = z.object({
  productId: positiveId(M.productIdInvalid),
  quantity: z
    .number({ error: M.quantityInvalid })
    .int({ error: M.quantityInvalid })
    .positive({ error: M.quantityInvalid })
    .max(MAX_LINE_QUANTITY, M.quantityMax),
});
export type CartAddInput = z.infer<typeof CartAddSchema>;

export const CartUpdateSchema = z.object({
  cartItemId: positiveId(M.cartItemIdInvalid),
  quantity: z
    .number({ error: M.quantityMin })
    .int({ error: M.quantityMin })
    .min(1, M.quantityMin)
    .max(MAX_LINE_QUANTITY, M.quantityMax),
});
export type CartUpdateInput = z.infer<typeof CartUpdateSchema>;

export const CartRemoveSchema = z.object({ cartItemId: positiveId(M.cartItemIdInvalid) });
export type CartRemoveInput = z.infer<typeof CartRemoveSchema>;

/** One cart line (docs/product-rules.md §3 cart item, plus what the panel needs to show availability and shop). */
export interface CartItem {
  cartItemId: number;
  productId: number;
  productName: string;
  imageUrl: string | null;
  /** Unit price, decimal string. */
  price: string;
  quantity: number;
  /** null means unlimited. */
  stockQuantity: number | null;
  sellerId: number;
  shopName: string | null;
  /** False when the product was deleted, its seller is not approved, or it is out of stock. */
  available: boolean;
  /** price × quantity, decimal string. */
  lineTotal: string;
  /**
   * The unit price when the line was added (issue #25: a rate-linked price follows the shop's rate), null
   * for a line added before it was kept. The order is placed at `price`, the current one.
   */
  priceAtAdd: string | null;
  /** True when price differs from priceAtAdd: the cart says so before payment. */
  priceChanged: boolean;
  /** What one unit's price is made of, in paise (issue #49, api/contract/figures.ts). */
  figures: PieceFigures;
  /** A unit of this line held for the customer in a call (call-selling.ts): checkout consumes it. */
  hold: { holdId: number; expiresAt: string } | null;
}

/** GET /_api/cart/list. totalAmount sums available lines only. */
export interface Cart {
  items: CartItem[];
  totalAmount: string;
  totalQuantity: number;
}

/** Answer of add and update: the line as it now stands. */
export interface CartChangeResponse {
  success: true;
  cartItemId: number;
  quantity: number;
}
