import {
  PRODUCT_MESSAGES,
  ProductCreateSchema,
  ProductDeleteSchema,
  ProductOpenOrdersQuerySchema,
  ProductUpdateSchema,
} from '../../../contract/products';
import { ProductImportSchema } from '../../../contract/products-csv';
import { API_ROUTES as R } from '../../../contract/routes';
import type { AppDeps, Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { tooManyRequests } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import { loadProductsByIds } from '../catalog/service';
import {
  countOpenOrders,
  createProduct,
  deleteProduct,
  updateProduct,
  type ProductImageOptions,
} from './product-service';
import { exportProductsCsv, importProductsCsv } from './products-csv';

/** The product as the catalogue presents it (the seller's view: pending shops see their own products too). */
async function presented(deps: AppDeps, productId: number) {
  const [product] = await loadProductsByIds(deps.db, [productId]);
  return product;
}

/** A create's or an update's answer: the saved product as a listing shows it. */
async function savedAndPresented(deps: AppDeps, saving: Promise<number>) {
  const productId = await saving;
  return { success: true as const, productId, product: await presented(deps, productId) };
}

/** Images ingested per user per hour (UPLOAD_LIMIT_PER_USER_PER_HOUR): each one is downloaded or decoded. */
const imageOptions = (deps: AppDeps, userId: number): ProductImageOptions => ({
  allowPrivateUrls: deps.config.mediaAllowPrivateUrls === true,
  beforeIngest: async () => {
    const { db, clock, config } = deps;
    const limit = await hitRateLimit(
      db,
      `upload:user:${userId}`,
      config.limits.uploadsPerUserPerHour,
      3_600_000,
      clock.now(),
    );
    if (!limit.allowed) {
      throw tooManyRequests(PRODUCT_MESSAGES.tooManyUploads, limit.retryAfterMs / 1000, 'too_many_uploads');
    }
  },
});

/** Product mutations of a shop: a seller changes only their own products, an admin any. */
export const productsRoutes: Feature = (router) => {
  endpoint(router, R.productCreate, {
    input: ProductCreateSchema,
    handle: (deps, user, input) =>
      savedAndPresented(
        deps,
        createProduct(deps.db, user, input, deps.clock.now(), imageOptions(deps, user.id)),
      ),
  });
  endpoint(router, R.productUpdate, {
    input: ProductUpdateSchema,
    handle: (deps, user, input) =>
      savedAndPresented(
        deps,
        updateProduct(deps.db, user, input, deps.clock.now(), imageOptions(deps, user.id)),
      ),
  });

  rawEndpoint(router, R.productsExport, async (ctx) => {
    const csv = await exportProductsCsv(ctx.deps.db, ctx.state.user!);
    const day = ctx.deps.clock.now().toISOString().slice(0, 10);
    ctx.set('Content-Disposition', `attachment; filename="products-${day}.csv"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = csv;
  });

  endpoint(router, R.productsImport, {
    input: ProductImportSchema,
    handle: (deps, user, { csv }) =>
      importProductsCsv(deps.db, user, csv, deps.clock.now(), imageOptions(deps, user.id)),
  });

  endpoint(router, R.productOpenOrders, {
    input: ProductOpenOrdersQuerySchema,
    handle: async (deps, user, { id }) => ({ openOrders: await countOpenOrders(deps.db, user, id) }),
  });

  endpoint(router, R.productDelete, {
    input: ProductDeleteSchema,
    handle: async (deps, user, { id }) => {
      await deleteProduct(deps.db, user, id, deps.clock.now());
      return { success: true as const };
    },
  });
};
