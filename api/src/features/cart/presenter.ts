import { fromPaise, toPaise, type Cart } from '../../../contract/cart';

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
  available: boolean;
  image_url: string | null;
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
    };
  });
  return { items, totalAmount: fromPaise(totalPaise), totalQuantity };
}
