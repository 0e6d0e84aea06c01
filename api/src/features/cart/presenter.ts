import { type Cart } from '../../../contract/cart';
import { pieceFigures } from '../../../contract/figures';
import { fromPaise, toPaise } from '../../../contract/money';
import { presentPricing, type ProductRow } from '../catalog/presenter';

/** A cart line joined with its product and shop, as getCart selects it. */
export interface CartLineRow {
  cart_item_id: number;
  product_id: number;
  quantity: number;
  name: string;
  price: string;
  stock_quantity: number | null;
  seller_id: number;
  shop_name: string | null;
  line_total: string;
  /** The unit price when the line was added (null for lines from before it was kept). */
  price_at_add: string | null;
  available: boolean;
  image_url: string | null;
  /** The customer's active hold of this product (a call's hold), if any. */
  hold_id: number | null;
  hold_expires_at: Date | string | null;
  /** What the line's price is made of (issue #49): the product's pricing columns. */
  making_charges: string | null;
  stone_charges: string | null;
  pricing_mode: ProductRow['pricing_mode'];
  metal: string | null;
  metal_purity: string | null;
  net_weight_g: string | null;
  making_type: string | null;
  making_value: string | null;
  metal_rate: string | null;
}

/** Maps cart lines to the API's Cart; the total counts available lines only, summed in integer paise. */
export function presentCart(rows: CartLineRow[]): Cart {
  let totalPaise = 0;
  let totalQuantity = 0;
  const items = rows.map((r) => {
    if (r.available) totalPaise += toPaise(r.line_total);
    totalQuantity += r.quantity;
    return {
      cartItemId: r.cart_item_id,
      productId: r.product_id,
      productName: r.name,
      imageUrl: r.image_url,
      price: r.price,
      quantity: r.quantity,
      stockQuantity: r.stock_quantity,
      sellerId: r.seller_id,
      shopName: r.shop_name,
      available: r.available,
      lineTotal: r.line_total,
      priceAtAdd: r.price_at_add,
      priceChanged: r.price_at_add !== null && toPaise(r.price_at_add) !== toPaise(r.price),
      figures: pieceFigures({
        price: r.price,
        makingCharges: r.making_charges,
        stoneCharges: r.stone_charges,
        rateLinked: presentPricing(r).rateLinked,
      }),
      hold:
        r.hold_id === null || r.hold_expires_at === null
          ? null
          : { holdId: r.hold_id, expiresAt: new Date(r.hold_expires_at).toISOString() },
    };
  });
  return { items, totalAmount: fromPaise(totalPaise), totalQuantity };
}
