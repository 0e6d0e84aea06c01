import {
  CustomerOrdersQuerySchema,
  OrderDetailsQuerySchema,
  OrderStatusUpdateSchema,
  RateProductSchema,
  SellerOrdersQuerySchema,
} from '../../../contract/orders';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { sendDueRefunds } from '../payments/service';
import { applyPendingSales, SALES_FLUSH_MS } from './sales';
import {
  getOrderForViewer,
  listOrders,
  rateProduct,
  releaseUnpaidOrders,
  updateOrderStatus,
} from './service';

/** How often each process looks for unpaid orders past their hold. */
export const RELEASE_UNPAID_EVERY_MS = 60_000;

/** Routes of the orders area: lists, details, status moves and ratings. */
export const ordersFeature: Feature = (router, { deps, background }) => {
  background.every('orders:units-sold', SALES_FLUSH_MS, () => applyPendingSales(deps.db));
  // Online orders not paid within PAYMENT_WINDOW_MINUTES, and cash orders left waiting for their shop longer
  // than UNPAID_ORDER_HOLD_MINUTES, give their stock back.
  background.every('orders:release-unpaid', RELEASE_UNPAID_EVERY_MS, async () => {
    const released = await releaseUnpaidOrders(deps.db, deps.clock.now(), deps.config.unpaidOrders.holdMs);
    if (released > 0) {
      deps.catalogCache.invalidate();
      deps.logger.info({ released }, 'released the stock of unpaid orders');
    }
  });

  endpoint(router, R.customerOrders, {
    input: CustomerOrdersQuerySchema,
    handle: (deps, user, q) => listOrders(deps.db, { side: 'customer', viewer: user, ...q }),
  });

  // Admins may open the seller pages (docs/product-rules.md, roles); they see the orders of their own shop.
  endpoint(router, R.sellerOrders, {
    input: SellerOrdersQuerySchema,
    handle: (deps, user, q) => listOrders(deps.db, { side: 'seller', viewer: user, ...q }),
  });

  endpoint(router, R.orderDetails, {
    input: OrderDetailsQuerySchema,
    handle: async (deps, user, { orderId }) => ({ order: await getOrderForViewer(deps.db, orderId, user) }),
  });

  endpoint(router, R.orderStatusUpdate, {
    input: OrderStatusUpdateSchema,
    handle: async (deps, user, { orderId, status, cancelReason, cancelNote }) => {
      const { order, refundRequested } = await updateOrderStatus(
        deps.db,
        user,
        orderId,
        status,
        deps.clock.now(),
        { reason: cancelReason, note: cancelNote },
      );
      // A cancellation puts stock back: the catalogue answers showing these products are dropped.
      deps.catalogCache.invalidateProducts(order.items.map((i) => i.product.id));
      if (!refundRequested) return { success: true as const, order };
      // A paid order cancelled: the refund goes to the gateway now (a failure is retried every minute).
      await sendDueRefunds(deps);
      return { success: true as const, order: await getOrderForViewer(deps.db, orderId, user) };
    },
  });

  endpoint(router, R.rateProduct, {
    input: RateProductSchema,
    handle: async (deps, user, input) => {
      const rated = await rateProduct(deps.db, user, input);
      deps.catalogCache.invalidateProducts([input.productId]);
      return rated;
    },
  });
};
