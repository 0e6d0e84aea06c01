import {
  PRODUCT_MESSAGES,
  ProductCreateSchema,
  ProductDeleteSchema,
  ProductUpdateSchema,
} from '../../../contract/products';
import { API_ROUTES as R } from '../../../contract/routes';
import type { AppDeps, Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { tooManyRequests } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import { loadProductsByIds } from '../catalog/service';
import { createProduct, deleteProduct, updateProduct, type ProductImageOptions } from './product-service';

/** The product as the catalogue presents it (the seller's view: pending shops see their own products too). */
async function presented(deps: AppDeps, productId: number) {
  const [product] = await loadProductsByIds(deps.db, [productId]);
  return product;
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
    handle: async (deps, user, input) => {
      const productId = await createProduct(
        deps.db,
        user,
        input,
        deps.clock.now(),
        imageOptions(deps, user.id),
      );
      return { success: true as const, productId, product: await presented(deps, productId) };
    },
  });

  endpoint(router, R.productUpdate, {
    input: ProductUpdateSchema,
    handle: async (deps, user, input) => {
      const productId = await updateProduct(
        deps.db,
        user,
        input,
        deps.clock.now(),
        imageOptions(deps, user.id),
      );
      return { success: true as const, productId, product: await presented(deps, productId) };
    },
  });

  endpoint(router, R.productDelete, {
    input: ProductDeleteSchema,
    handle: async (deps, user, { id }) => {
      await deleteProduct(deps.db, user, id, deps.clock.now());
      return { success: true as const };
    },
  });
};
