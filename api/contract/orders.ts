import { z } from 'zod';
import {
  CANCEL_NOTE_MAX,
  CANCEL_REASONS,
  type CancelReason,
  ID_MAX,
  ORDER_STATUSES,
  type OrderStatus,
  type PaymentMethod,
  type PaymentStatus,
} from './constants';

/** Every orders and ratings message: the product rules' (docs/product-rules.md §8) word for word, plus server texts of ours. */
export const ORDER_MESSAGES = {
  notFound: 'Order Not Found',
  orderIdInvalid: 'Order ID must be a positive integer.',
  productIdInvalid: 'Product ID must be a positive integer.',
  pageInvalid: 'Page must be a positive integer.',
  pageSizeInvalid: 'Page size must be a positive integer.',
  pageSizeMax: 'Page size cannot exceed 100.',
  statusInvalid: 'Invalid order status.',
  statusRequired: 'Status is required.',
  invalidTransition: 'Cannot change an order from {from} to {to}.',
  staleOrder: 'This order was updated by someone else. Please refresh.',
  statusUpdateFailed: 'Failed to update order status',
  fetchSellerFailed: 'Failed to fetch seller orders',
  fetchCustomerFailed: 'Failed to fetch customer orders',
  fetchDetailsFailed: 'Failed to fetch order details',
  emptyTitle: 'No Orders Found',
  emptyCustomer: "You haven't placed any orders yet.",
  emptyFiltered: 'There are no orders matching the current filters.',
  authRequired: 'Please log in to view your orders.',
  starsInvalid: 'Stars must be a whole number from 1 to 5.',
  reviewMax: 'Review cannot exceed 500 characters.',
  notDelivered: 'You can rate a product only after the order is delivered.',
  notPaid: 'You can rate a product only after the order is paid.',
  productNotInOrder: 'This product is not part of this order.',
  alreadyRated: 'You have already rated this product for this order.',
  cancelReasonRequired: 'Choose why the order is cancelled: the customer is told the reason.',
  cancelReasonInvalid: 'Choose one of the reasons offered.',
  cancelNoteRequired: 'Write the reason in a few words: the customer is told it.',
  cancelNoteMax: 'The reason cannot exceed 200 characters.',
} as const;

// The cancel reasons live with the other constants (no zod there, for the app's seller pages).
export { CANCEL_NOTE_MAX, CANCEL_REASONS, type CancelReason } from './constants';

/** The customer list's extra filters: in-progress = pending/confirmed/shipped, completed = delivered. */
export const CUSTOMER_ORDER_FILTERS = {
  'in-progress': ['pending', 'confirmed', 'shipped'],
  completed: ['delivered'],
} as const satisfies Record<string, readonly OrderStatus[]>;
export type CustomerOrderFilter = OrderStatus | keyof typeof CUSTOMER_ORDER_FILTERS;

export const REVIEW_MAX = 500;
export const MAX_ORDER_PAGE_SIZE = 100;

const M = ORDER_MESSAGES;
const positiveInt = (message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(ID_MAX, { error: message });
/** "all" (or nothing) means no filter: the UI sends the filter only when it is not all. */
const noFilter = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

const pageFields = {
  page: positiveInt(M.pageInvalid).default(1),
  pageSize: positiveInt(M.pageSizeInvalid).max(MAX_ORDER_PAGE_SIZE, M.pageSizeMax).default(10),
};

export const SellerOrdersQuerySchema = z.object({
  ...pageFields,
  status: z.preprocess(noFilter, z.enum(ORDER_STATUSES, { error: M.statusInvalid }).optional()),
});
export type SellerOrdersQuery = z.output<typeof SellerOrdersQuerySchema>;

export const CustomerOrdersQuerySchema = z.object({
  ...pageFields,
  status: z.preprocess(
    noFilter,
    z.enum([...ORDER_STATUSES, 'in-progress', 'completed'], { error: M.statusInvalid }).optional(),
  ),
});
export type CustomerOrdersQuery = z.output<typeof CustomerOrdersQuerySchema>;

export const OrderDetailsQuerySchema = z.object({ orderId: positiveInt(M.orderIdInvalid) });

export const OrderStatusUpdateSchema = z.object({
  orderId: positiveInt(M.orderIdInvalid),
  status: z.string({ error: M.statusRequired }).trim().min(1, M.statusRequired),
  /** Required when the status is 'cancelled' (the service answers 422 cancel_reason_required without it). */
  cancelReason: z.enum(CANCEL_REASONS, { error: M.cancelReasonInvalid }).optional(),
  /** The shop's own words, required with 'other' (422 cancel_note_required). */
  cancelNote: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(CANCEL_NOTE_MAX, M.cancelNoteMax).optional(),
  ),
});
export type OrderStatusUpdateInput = z.output<typeof OrderStatusUpdateSchema>;

export const RateProductSchema = z.object({
  orderId: positiveInt(M.orderIdInvalid),
  productId: positiveInt(M.productIdInvalid),
  stars: z
    .number({ error: M.starsInvalid })
    .int({ error: M.starsInvalid })
    .min(1, M.starsInvalid)
    .max(5, M.starsInvalid),
  review: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(REVIEW_MAX, M.reviewMax).optional(),
  ),
});
export type RateProductInput = z.output<typeof RateProductSchema>;

/** A customer's rating of one product of one order. */
export interface OrderItemRating {
  stars: number;
  review: string | null;
  createdAt: string;
}

export interface OrderItem {
  id: number;
  quantity: number;
  /** Unit price at checkout (GST included), decimal string. */
  price: string;
  /** GST per unit at checkout, decimal string. */
  gstAmount: string;
  /** price × quantity, decimal string. */
  lineTotal: string;
  product: { id: number; name: string; images: string[]; gstAmount: string };
  rating: OrderItemRating | null;
  /** True only for the order's customer, on a delivered and paid order, for a product not yet rated. */
  canRate: boolean;
}

/** An order of one shop (docs/product-rules.md §3), with what the invoice needs (§9). Money fields are decimal strings. */
export interface Order {
  id: number;
  checkoutRef: string;
  status: OrderStatus;
  createdAt: string;
  updatedAt: string;
  subtotal: string;
  gstTotal: string;
  shippingCharges: string;
  totalAmount: string;
  shippingAddress: string;
  city: string;
  state: string;
  pinCode: string;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  /** When the payment was taken (a cash-on-delivery order: when the seller delivered it), else null. */
  paidAt: string | null;
  /** An online order awaiting payment is cancelled by the server at this time (PAYMENT_WINDOW_MINUTES). */
  payBefore: string | null;
  /** Why the shop cancelled it (null when it is not cancelled, or the server cancelled it unpaid). */
  cancellation: { reason: CancelReason; note: string | null } | null;
  /** The refund of a paid order that was cancelled, as the gateway reports it. */
  refund: { status: 'pending' | 'processed' | 'failed'; amountPaise: number } | null;
  /** The buyer's PAN, masked (ABCDE****F), for an order of ₹2,00,000 or more. */
  buyerPanMasked: string | null;
  /** Its tax invoice has been issued (on payment; cash on delivery: when shipped). */
  invoiced: boolean;
  customer: {
    id: number;
    displayName: string;
    email: string;
    /** The name and phone given at checkout. */
    name: string;
    phone: string;
  };
  seller: {
    id: number;
    shopName: string | null;
    gstNumber: string | null;
    shopAddress: string | null;
    city: string | null;
    state: string | null;
    pincode: string | null;
    phone: string | null;
  };
  items: OrderItem[];
  /** True when the viewer is the customer, the order is delivered and paid, and some item is not yet rated. */
  canRate: boolean;
}

export interface OrdersPage {
  orders: Order[];
  pagination: { currentPage: number; pageSize: number; totalOrders: number; totalPages: number };
}

/** POST /_api/orders/update-status answer. */
export interface OrderStatusUpdateResponse {
  success: true;
  order: Order;
}

/** POST /_api/orders/rate answer: the product's and the shop's new averages. */
export interface RateProductResponse {
  success: true;
  rating: OrderItemRating & { orderId: number; productId: number };
  product: { id: number; averageRating: number; ratingCount: number };
  seller: { id: number; averageRating: number; ratingCount: number };
}

/** The transition message with both statuses filled in. */
export const invalidTransitionMessage = (from: string, to: string) =>
  M.invalidTransition.replace('{from}', from).replace('{to}', to);

/**
 * What an order's page and its link are called (issue #49, docs/product-rules.md §20.1): an order is an order
 * until it is paid and has its tax invoice; only then, and while it is not cancelled, an invoice.
 */
export const readsAsInvoice = (o: Pick<Order, 'invoiced' | 'paymentStatus' | 'status'>): boolean =>
  o.invoiced &&
  (o.paymentStatus === 'paid' || o.paymentStatus === 'cash_collected') &&
  o.status !== 'cancelled';
