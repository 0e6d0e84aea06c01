import type { Knex } from 'knex';
import { queueOrderNotices } from '../notices/service';
import { ORDER_STATUSES, ORDER_TRANSITIONS, type OrderStatus } from '../../../contract/constants';
import {
  CUSTOMER_ORDER_FILTERS,
  ORDER_MESSAGES,
  invalidTransitionMessage,
  type CustomerOrderFilter,
  type Order,
  type OrdersPage,
  type CancelReason,
  type RateProductInput,
  type RateProductResponse,
} from '../../../contract/orders';
import { hotQuery, toNumber } from '../../../../db/connection';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { issueCreditNote, issueInvoices } from '../invoices/service';
import { isOnlinePayment, type PaymentMethod, type PaymentStatus } from '../../../contract/constants';
import { PAYMENT_MESSAGES } from '../../../contract/payments';
import { recordRefund } from '../payments/ledger';
import {
  presentOrder,
  presentRating,
  type OrderItemRow,
  type OrderRow,
  type OrderViewer,
  type RatingRow,
} from './presenter';

type Db = Knex | Knex.Transaction;

const ORDER_COLUMNS = `
  o.id, o.checkout_ref, o.status, o.created_at, o.updated_at, o.subtotal, o.gst_total, o.shipping_charges,
  o.total_amount, o.customer_name, o.customer_phone, o.shipping_address, o.city, o.state, o.pin_code,
  o.payment_method, o.payment_status, o.paid_at, o.pay_before, o.buyer_pan_masked, o.cancel_reason, o.cancel_note,
  (select r.status from refunds r where r.order_id = o.id) as refund_status,
  (select r.amount_paise from refunds r where r.order_id = o.id) as refund_amount_paise,
  exists (select 1 from invoices i where i.order_id = o.id and i.kind = 'invoice') as invoiced,
  o.customer_id, u.display_name as customer_display_name,
  u.email as customer_email, o.seller_id, sp.shop_name, sp.gst_number, sp.shop_address,
  sp.city as seller_city, sp.state as seller_state, sp.pincode as seller_pincode, sp.phone as seller_phone`;

/**
 * The ids for an `= any($1)` lookup, padded to at least 10 by repeating the last one (the index scan drops
 * duplicates). PostgreSQL plans a prepared statement for an array parameter as if it held 10 elements; for
 * the actual one or two ids of a checkout it saw a cheaper plan and planned every execution anew (~1 ms of
 * database CPU per checkout). With at least 10 elements the cached plan is never worse, so it is kept.
 */
function planStableIds(ids: number[]): number[] {
  return ids.length >= 10 ? ids : [...ids, ...Array<number>(10 - ids.length).fill(ids[ids.length - 1])];
}

/** Loads whole orders (items, current images, ratings) for the given ids, in the order of the ids. */
export async function loadOrders(db: Db, ids: number[], viewer: OrderViewer): Promise<Order[]> {
  if (ids.length === 0) return [];
  const keys = planStableIds(ids);
  const orders = await hotQuery<OrderRow>(
    db,
    'orders_by_ids',
    `select ${ORDER_COLUMNS}
       from orders o
       join users u on u.id = o.customer_id
       left join seller_profiles sp on sp.user_id = o.seller_id
      where o.id = any(?::int[])`,
    [keys],
  );
  // Each item carries its product's current images (in position order) and its rating, if any, so one
  // query answers for all three (ratings are unique per order and product).
  const items = await hotQuery<
    OrderItemRow & {
      images: string[] | null;
      rating_stars: number | null;
      rating_review: string | null;
      rating_created_at: Date | string | null;
    }
  >(
    db,
    'order_items_by_orders',
    `select oi.id, oi.order_id, oi.product_id, oi.product_name, oi.image_url, oi.price, oi.gst_amount,
              oi.quantity, (oi.price * oi.quantity) as line_total,
              array(select pi.card_url from product_images pi where pi.product_id = oi.product_id
                     order by pi.position) as images,
              r.stars as rating_stars, r.review as rating_review, r.created_at as rating_created_at
         from order_items oi
         left join product_ratings r on r.order_id = oi.order_id and r.product_id = oi.product_id
        where oi.order_id = any(?::int[])
        order by oi.order_id, oi.id`,
    [keys],
  );

  const imagesByProduct = new Map<number, string[]>();
  const ratingsByKey = new Map<string, RatingRow>();
  for (const it of items) {
    // A product with no images now has no entry: the item then shows the image stored at checkout.
    if (it.images?.length) imagesByProduct.set(it.product_id, it.images);
    if (it.rating_stars !== null && it.rating_created_at !== null) {
      ratingsByKey.set(`${it.order_id}:${it.product_id}`, {
        order_id: it.order_id,
        product_id: it.product_id,
        stars: it.rating_stars,
        review: it.rating_review,
        created_at: it.rating_created_at,
      });
    }
  }
  const itemsByOrder = new Map<number, OrderItemRow[]>();
  for (const it of items) {
    const list = itemsByOrder.get(it.order_id) ?? [];
    list.push(it);
    itemsByOrder.set(it.order_id, list);
  }
  const byId = new Map(orders.map((o) => [o.id, o]));
  return ids
    .map((id) => byId.get(id))
    .filter((o): o is OrderRow => !!o)
    .map((o) => presentOrder(o, itemsByOrder.get(o.id) ?? [], imagesByProduct, ratingsByKey, viewer));
}

/** One page of a customer's orders or a shop's orders, newest first. */
export async function listOrders(
  db: Knex,
  opts: {
    side: 'customer' | 'seller';
    viewer: OrderViewer;
    status?: CustomerOrderFilter;
    page: number;
    pageSize: number;
  },
): Promise<OrdersPage> {
  const column = opts.side === 'customer' ? 'customer_id' : 'seller_id';
  const statuses: readonly OrderStatus[] | undefined = !opts.status
    ? undefined
    : opts.status in CUSTOMER_ORDER_FILTERS
      ? CUSTOMER_ORDER_FILTERS[opts.status as keyof typeof CUSTOMER_ORDER_FILTERS]
      : [opts.status as OrderStatus];
  const base = () => {
    const q = db('orders').where(column, opts.viewer.id);
    if (statuses) q.whereIn('status', statuses);
    return q;
  };
  const [countRow] = (await base().count({ n: '*' })) as { n: unknown }[];
  const totalOrders = toNumber(countRow?.n);
  const rows = (await base()
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize)
    .select('id')) as { id: number }[];
  return {
    orders: await loadOrders(
      db,
      rows.map((r) => r.id),
      opts.viewer,
    ),
    pagination: {
      currentPage: opts.page,
      pageSize: opts.pageSize,
      totalOrders,
      totalPages: Math.ceil(totalOrders / opts.pageSize),
    },
  };
}

/** An order as its customer, its seller or an admin sees it; anyone else gets 'Order Not Found'. */
export async function getOrderForViewer(db: Knex, orderId: number, viewer: OrderViewer): Promise<Order> {
  const row = (await db('orders').where({ id: orderId }).first('customer_id', 'seller_id')) as
    { customer_id: number; seller_id: number } | undefined;
  const allowed =
    row && (viewer.role === 'admin' || row.customer_id === viewer.id || row.seller_id === viewer.id);
  if (!allowed) throw notFound(ORDER_MESSAGES.notFound);
  const [order] = await loadOrders(db, [orderId], viewer);
  return order;
}

/**
 * Puts stock back for every item of an order, in product id order (as checkout locks them), and queues the
 * units_sold correction (see sales.ts).
 */
async function restoreStock(trx: Knex.Transaction, orderId: number): Promise<void> {
  const items = (
    (await trx.raw(
      `select product_id, sum(quantity)::int as quantity from order_items
        where order_id = ? group by product_id order by product_id`,
      [orderId],
    )) as { rows: { product_id: number; quantity: number }[] }
  ).rows;
  for (const it of items) {
    await trx.raw(
      `update products
          set stock_quantity = case when stock_quantity is null then null else stock_quantity + ? end,
              updated_at = now()
        where id = ?`,
      [it.quantity, it.product_id],
    );
  }
  if (items.length) {
    await trx('product_sales_pending').insert(
      items.map((it) => ({ product_id: it.product_id, quantity: -it.quantity })),
    );
  }
}

/**
 * Moves an order along ORDER_TRANSITIONS, by the seller of that order only. The update is guarded on the
 * status that was read, so of two racing requests exactly one wins; a cancel restores stock in the same
 * transaction, at most once (stock_restored).
 */
export async function updateOrderStatus(
  db: Knex,
  seller: OrderViewer,
  orderId: number,
  to: string,
  now: Date = new Date(),
  cancel: { reason?: CancelReason; note?: string } = {},
): Promise<{ order: Order; refundRequested: boolean }> {
  if (!(ORDER_STATUSES as readonly string[]).includes(to)) {
    throw badRequest(ORDER_MESSAGES.statusInvalid);
  }
  const target = to as OrderStatus;
  // A shop cancels only with a reason the customer is told (issue #48); 'other' in its own words.
  if (target === 'cancelled' && !cancel.reason) {
    throw new AppError(422, 'cancel_reason_required', ORDER_MESSAGES.cancelReasonRequired);
  }
  if (target === 'cancelled' && cancel.reason === 'other' && !cancel.note) {
    throw new AppError(422, 'cancel_note_required', ORDER_MESSAGES.cancelNoteRequired);
  }
  const cancelReason = target === 'cancelled' ? (cancel.reason ?? null) : null;
  const cancelNote = cancelReason === 'other' ? (cancel.note ?? null) : null;
  let refundRequested = false;
  await db.transaction(async (trx) => {
    const row = (await trx('orders')
      .where({ id: orderId })
      .first(
        'seller_id',
        'status',
        'payment_method',
        'payment_status',
        'gateway_order_id',
        'total_amount',
      )) as
      | {
          seller_id: number;
          status: OrderStatus;
          payment_method: PaymentMethod;
          payment_status: PaymentStatus;
          gateway_order_id: string | null;
          total_amount: string;
        }
      | undefined;
    if (!row || row.seller_id !== seller.id) throw notFound(ORDER_MESSAGES.notFound);
    if (!ORDER_TRANSITIONS[row.status].includes(target)) {
      throw new AppError(400, 'invalid_transition', invalidTransitionMessage(row.status, target));
    }
    const online = isOnlinePayment(row.payment_method);
    // An online order ships only once it is paid (docs/product-rules.md "Payments").
    if (target === 'shipped' && online && row.payment_status !== 'paid') {
      throw new AppError(409, 'order_not_paid', PAYMENT_MESSAGES.notPaidYet);
    }
    const cancelling = target === 'cancelled';
    // A paid online order cancelled is refunded through the gateway, in full.
    const refunding = cancelling && online && row.payment_status === 'paid';
    // Delivering a cash-on-delivery order is collecting its cash.
    const cashCollected = target === 'delivered' && row.payment_method === 'cash_on_delivery';
    const updated = (
      (await trx.raw(
        `update orders
            set status = ?, updated_at = now(),
                delivered_at = case when ? = 'delivered' then ?::timestamptz else delivered_at end,
                stock_restored = case when ? then true else stock_restored end,
                payment_status = case when ? then 'cash_collected' when ? then 'refunded' else payment_status end,
                paid_at = case when ? then now() else paid_at end,
                cancel_reason = case when ? then ? else cancel_reason end,
                cancel_note = case when ? then ? else cancel_note end
          where id = ? and status = ? and payment_status = ? and (not ? or stock_restored = false)
          returning id`,
        [
          target,
          target,
          now,
          cancelling,
          cashCollected,
          refunding,
          cashCollected,
          cancelling,
          cancelReason,
          cancelling,
          cancelNote,
          orderId,
          row.status,
          row.payment_status,
          cancelling,
        ],
      )) as { rows: { id: number }[] }
    ).rows;
    if (updated.length === 0) throw conflict(ORDER_MESSAGES.staleOrder, 'stale_order');
    // A cash-on-delivery order's tax invoice is due when its goods leave the shop (an online order's was
    // issued with its payment): issued now, in this transaction (docs/product-rules.md §10).
    if ((target === 'shipped' || target === 'delivered') && row.payment_method === 'cash_on_delivery') {
      await issueInvoices(trx, [orderId], now);
    }
    // The buyer hears of it by SMS when they opted in (issue #37).
    if (target === 'shipped' || target === 'delivered')
      await queueOrderNotices(
        trx,
        [orderId],
        target === 'shipped' ? 'order_shipped' : 'order_delivered',
        now,
      );
    // A cancellation tells the buyer why: with the refund when they had paid (issue #48).
    if (cancelling)
      await queueOrderNotices(trx, [orderId], refunding ? 'order_refunded' : 'order_cancelled', now);
    if (cancelling) {
      await restoreStock(trx, orderId);
      // The invoice stays as issued; the cancellation is a credit note (docs/product-rules.md §10).
      await issueCreditNote(trx, orderId, new Date());
    }
    if (refunding) {
      // One refund per order (refunds.order_id is unique); the gateway is called after the commit.
      const inserted = (
        (await trx.raw(
          `insert into refunds (order_id, gateway_payment_id, amount_paise)
           select ?, p.gateway_payment_id, (?::numeric * 100)::bigint
             from gateway_payments p where p.gateway_order_id = ? and p.applied
           on conflict (order_id) do nothing
           returning id`,
          [orderId, row.total_amount, row.gateway_order_id],
        )) as { rows: { id: number }[] }
      ).rows;
      // Marked paid without a payment through the gateway: nothing can be refunded automatically. Nothing changes
      // (the transaction rolls back) and the shop is told so, never a 500.
      if (inserted.length !== 1)
        throw new AppError(409, 'no_payment_to_refund', PAYMENT_MESSAGES.noPaymentToRefund);
      await recordRefund(trx, orderId);
      refundRequested = true;
    }
  });
  const [order] = await loadOrders(db, [orderId], seller);
  return { order, refundRequested };
}

/**
 * Records a customer's rating of one product of one of their delivered orders, once, and recomputes the
 * product's and the shop's averages in the same transaction.
 */
export async function rateProduct(
  db: Knex,
  customer: OrderViewer,
  input: RateProductInput,
): Promise<RateProductResponse> {
  return db.transaction(async (trx) => {
    const order = (await trx('orders')
      .where({ id: input.orderId })
      .first('customer_id', 'seller_id', 'status', 'payment_status')) as
      { customer_id: number; seller_id: number; status: OrderStatus; payment_status: string } | undefined;
    if (!order || order.customer_id !== customer.id) throw notFound(ORDER_MESSAGES.notFound);
    if (order.status !== 'delivered') throw badRequest(ORDER_MESSAGES.notDelivered, 'order_not_delivered');
    // A delivered order that was never paid is how a shop would rate itself to the top with fake orders.
    if (order.payment_status !== 'paid' && order.payment_status !== 'cash_collected')
      throw badRequest(ORDER_MESSAGES.notPaid, 'order_not_paid');
    const item = await trx('order_items')
      .where({ order_id: input.orderId, product_id: input.productId })
      .first('id');
    if (!item) throw notFound(ORDER_MESSAGES.productNotInOrder, 'product_not_in_order');

    const inserted = (
      (await trx.raw(
        `insert into product_ratings (product_id, order_id, customer_id, stars, review)
         values (?, ?, ?, ?, ?)
         on conflict (order_id, product_id) do nothing
         returning order_id, product_id, stars, review, created_at`,
        [input.productId, input.orderId, customer.id, input.stars, input.review ?? null],
      )) as { rows: RatingRow[] }
    ).rows;
    if (inserted.length === 0) throw conflict(ORDER_MESSAGES.alreadyRated, 'already_rated');

    // Lock first, then aggregate in a new statement: under READ COMMITTED that statement's snapshot then
    // includes every rating committed by a racing transaction that held the lock before us.
    await trx.raw('select id from products where id = ? for update', [input.productId]);
    const product = (
      (await trx.raw(
        `update products p
            set rating_avg = coalesce(a.avg, 0), rating_count = a.n
           from (select round(avg(stars)::numeric, 2) as avg, count(*)::int as n
                   from product_ratings where product_id = ?) a
          where p.id = ?
          returning p.id, p.rating_avg, p.rating_count`,
        [input.productId, input.productId],
      )) as { rows: { id: number; rating_avg: string; rating_count: number }[] }
    ).rows[0];
    await trx.raw('select id from seller_profiles where user_id = ? for update', [order.seller_id]);
    const shop = (
      (await trx.raw(
        `update seller_profiles sp
            set rating_avg = coalesce(a.avg, 0), rating_count = a.n
           from (select round(avg(r.stars)::numeric, 2) as avg, count(*)::int as n
                   from product_ratings r join products p on p.id = r.product_id
                  where p.seller_id = ?) a
          where sp.user_id = ?
          returning sp.rating_avg, sp.rating_count`,
        [order.seller_id, order.seller_id],
      )) as { rows: { rating_avg: string; rating_count: number }[] }
    ).rows[0];

    const rating = inserted[0];
    return {
      success: true as const,
      rating: { ...presentRating(rating), orderId: input.orderId, productId: input.productId },
      product: {
        id: input.productId,
        averageRating: Number(product.rating_avg),
        ratingCount: product.rating_count,
      },
      seller: {
        id: order.seller_id,
        averageRating: Number(shop?.rating_avg ?? 0),
        ratingCount: shop?.rating_count ?? 0,
      },
    };
  });
}

/**
 * Releases the stock of orders nobody paid for (docs/product-rules.md "Payments"):
 * - an online order still awaiting payment (pending or failed) at its pay_before (PAYMENT_WINDOW_MINUTES after
 *   checkout) is cancelled;
 * - a cash-on-delivery order still awaiting its shop after `cashHoldMs` (UNPAID_ORDER_HOLD_MINUTES) is cancelled.
 * Either way its stock goes back, once. Oldest first, a bounded batch per run; each order in its own
 * transaction. An online order's gateway order row is locked first, as a payment's capture locks it, so a payment
 * arriving at the same moment either pays the order (and the release changes nothing) or finds it cancelled
 * (and is refunded whole).
 */
export async function releaseUnpaidOrders(
  db: Knex,
  now: Date,
  cashHoldMs: number,
  batch = 100,
): Promise<number> {
  const cutoff = new Date(now.getTime() - cashHoldMs);
  const online = (await db('orders')
    .whereIn('status', ['pending', 'confirmed'])
    .whereIn('payment_status', ['pending', 'failed'])
    .where('pay_before', '<=', now)
    .orderBy('pay_before')
    .limit(batch)
    .select('id', 'gateway_order_id')) as { id: number; gateway_order_id: string | null }[];
  const cash = (await db('orders')
    .where({ status: 'pending', payment_status: 'cash_due' })
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(batch)
    .select('id', 'gateway_order_id')) as { id: number; gateway_order_id: string | null }[];
  let released = 0;
  for (const { id, gateway_order_id: gatewayOrderId } of [...online, ...cash]) {
    await db.transaction(async (trx) => {
      if (gatewayOrderId) {
        await trx.raw('select 1 from gateway_orders where gateway_order_id = ? for update', [gatewayOrderId]);
      }
      const updated = (
        (await trx.raw(
          `update orders set status = 'cancelled', updated_at = now(), stock_restored = true,
                  lapsed_at = case when payment_status in ('pending', 'failed') then ?::timestamptz end
            where id = ? and stock_restored = false
              and ((status in ('pending', 'confirmed') and payment_status in ('pending', 'failed') and pay_before <= ?)
                or (status = 'pending' and payment_status = 'cash_due' and created_at < ?))
            returning id`,
          [now, id, now, cutoff],
        )) as { rows: { id: number }[] }
      ).rows;
      if (updated.length === 0) return;
      await restoreStock(trx, id);
      await issueCreditNote(trx, id, now);
      released++;
    });
  }
  return released;
}
