import type { Feature } from '../../app';
import {
  CustomerOrdersQuerySchema,
  OrderDetailsQuerySchema,
  OrderStatusUpdateSchema,
  RateProductSchema,
  SellerOrdersQuerySchema,
} from '../../../contract/orders';
import { currentUser, requireAuth } from '../../http/auth';
import { parseBody, parseQuery } from '../../http/validate';
import { applyPendingSales, SALES_FLUSH_MS } from './sales';
import { getOrderForViewer, listOrders, rateProduct, updateOrderStatus } from './service';

/** Routes of the orders area: lists, details, status moves and ratings. */
export const ordersFeature: Feature = (router, { deps, background }) => {
  background.every('orders:units-sold', SALES_FLUSH_MS, () => applyPendingSales(deps.db));

  router.get('/_api/orders/customer', requireAuth('customer'), async (ctx) => {
    const q = parseQuery(ctx, CustomerOrdersQuerySchema);
    ctx.body = await listOrders(ctx.deps.db, { side: 'customer', viewer: currentUser(ctx), ...q });
  });

  // Admins may open the seller pages (spec §2); they see the orders of their own shop, if they have one.
  router.get('/_api/orders/seller', requireAuth('seller', 'admin'), async (ctx) => {
    const q = parseQuery(ctx, SellerOrdersQuerySchema);
    ctx.body = await listOrders(ctx.deps.db, { side: 'seller', viewer: currentUser(ctx), ...q });
  });

  router.get('/_api/order/details', requireAuth(), async (ctx) => {
    const { orderId } = parseQuery(ctx, OrderDetailsQuerySchema);
    ctx.body = { order: await getOrderForViewer(ctx.deps.db, orderId, currentUser(ctx)) };
  });

  router.post('/_api/orders/update-status', requireAuth('seller'), async (ctx) => {
    const { orderId, status } = parseBody(ctx, OrderStatusUpdateSchema);
    const order = await updateOrderStatus(ctx.deps.db, currentUser(ctx), orderId, status);
    // A cancellation puts stock back: the catalogue answers showing these products are dropped.
    ctx.deps.catalogCache.invalidateProducts(order.items.map((i) => i.product.id));
    ctx.body = { success: true, order };
  });

  router.post('/_api/orders/rate', requireAuth('customer'), async (ctx) => {
    const input = parseBody(ctx, RateProductSchema);
    ctx.body = await rateProduct(ctx.deps.db, currentUser(ctx), input);
    ctx.deps.catalogCache.invalidateProducts([input.productId]);
  });
};
