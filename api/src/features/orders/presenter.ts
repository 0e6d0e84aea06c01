import type { OrderStatus, PaymentMethod } from '../../../contract/constants';
import { fromPaise, toPaise } from '../../../contract/money';
import type { CancelReason, Order, OrderItem, OrderItemRating } from '../../../contract/orders';
import { gstInInclusive } from '../../../contract/pricing';

/** An orders row joined with its customer and the seller's shop profile. */
export interface OrderRow {
  id: number;
  checkout_ref: string;
  status: OrderStatus;
  created_at: Date | string;
  updated_at: Date | string;
  subtotal: string;
  gst_total: string;
  shipping_charges: string;
  total_amount: string;
  customer_name: string;
  customer_phone: string;
  shipping_address: string;
  city: string;
  state: string;
  pin_code: string;
  payment_method: PaymentMethod;
  payment_status: Order['paymentStatus'];
  paid_at: Date | string | null;
  pay_before: Date | string | null;
  buyer_pan_masked: string | null;
  /** The order's tax invoice has been issued (docs/product-rules.md §10). */
  invoiced: boolean;
  cancel_reason: CancelReason | null;
  cancel_note: string | null;
  refund_status: 'pending' | 'processed' | 'failed' | null;
  refund_amount_paise: string | number | null;
  customer_id: number;
  customer_display_name: string;
  customer_email: string;
  seller_id: number;
  shop_name: string | null;
  gst_number: string | null;
  shop_address: string | null;
  seller_city: string | null;
  seller_state: string | null;
  seller_pincode: string | null;
  seller_phone: string | null;
}

export interface OrderItemRow {
  id: number;
  order_id: number;
  product_id: number;
  product_name: string;
  image_url: string | null;
  price: string;
  gst_amount: string;
  quantity: number;
  line_total: string;
}

export interface RatingRow {
  order_id: number;
  product_id: number;
  stars: number;
  review: string | null;
  created_at: Date | string;
}

/** Who is looking: ratings can be given only by the order's own customer. */
export interface OrderViewer {
  id: number;
  role: string;
}

const iso = (v: Date | string) => new Date(v).toISOString();

export function presentRating(row: RatingRow): OrderItemRating {
  return { stars: row.stars, review: row.review, createdAt: iso(row.created_at) };
}

/** Maps an order with its items, current product images and ratings to the API's Order. */
export function presentOrder(
  row: OrderRow,
  items: OrderItemRow[],
  imagesByProduct: Map<number, string[]>,
  ratings: Map<string, RatingRow>,
  viewer: OrderViewer,
): Order {
  const mayRate =
    row.status === 'delivered' &&
    (row.payment_status === 'paid' || row.payment_status === 'cash_collected') &&
    viewer.id === row.customer_id;
  const awaitingPayment =
    (row.status === 'pending' || row.status === 'confirmed') &&
    (row.payment_status === 'pending' || row.payment_status === 'failed');
  // GST as the tax invoice computes it: the GST inside each unit price (api/contract/pricing.ts), × quantity.
  let gstPaise = 0;
  const presentedItems: OrderItem[] = items.map((it) => {
    const rating = ratings.get(`${row.id}:${it.product_id}`);
    const images = imagesByProduct.get(it.product_id) ?? (it.image_url ? [it.image_url] : []);
    const unitGst = gstInInclusive(toPaise(it.price));
    gstPaise += unitGst * it.quantity;
    return {
      id: it.id,
      quantity: it.quantity,
      price: it.price,
      gstAmount: fromPaise(unitGst),
      lineTotal: it.line_total,
      product: { id: it.product_id, name: it.product_name, images, gstAmount: fromPaise(unitGst) },
      rating: rating ? presentRating(rating) : null,
      canRate: mayRate && !rating,
    };
  });
  return {
    id: row.id,
    checkoutRef: row.checkout_ref,
    status: row.status,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    subtotal: row.subtotal,
    gstTotal: items.length ? fromPaise(gstPaise) : row.gst_total,
    shippingCharges: row.shipping_charges,
    totalAmount: row.total_amount,
    shippingAddress: row.shipping_address,
    city: row.city,
    state: row.state,
    pinCode: row.pin_code,
    paymentMethod: row.payment_method,
    paymentStatus: row.payment_status,
    paidAt: row.paid_at ? new Date(row.paid_at).toISOString() : null,
    payBefore: awaitingPayment && row.pay_before ? iso(row.pay_before) : null,
    cancellation:
      row.status === 'cancelled' && row.cancel_reason
        ? { reason: row.cancel_reason, note: row.cancel_note }
        : null,
    refund: row.refund_status
      ? { status: row.refund_status, amountPaise: Number(row.refund_amount_paise) }
      : null,
    buyerPanMasked: row.buyer_pan_masked,
    invoiced: row.invoiced,
    customer: {
      id: row.customer_id,
      displayName: row.customer_display_name,
      email: row.customer_email,
      name: row.customer_name,
      phone: row.customer_phone,
    },
    seller: {
      id: row.seller_id,
      shopName: row.shop_name,
      gstNumber: row.gst_number,
      shopAddress: row.shop_address,
      city: row.seller_city,
      state: row.seller_state,
      pincode: row.seller_pincode,
      phone: row.seller_phone,
    },
    items: presentedItems,
    canRate: presentedItems.some((i) => i.canRate),
  };
}
