import type { Feature } from '../../app';
import {
  ProductCreateSchema,
  ProductDeleteSchema,
  ProductUpdateSchema,
  type ProductDeleteResponse,
  type ProductMutationResponse,
} from '../../../contract/products';
import { currentUser, requireAuth } from '../../http/auth';
import type { AppContext } from '../../http/context';
import { parseBody } from '../../http/validate';
import { loadProductsByIds } from '../catalog/service';
import { createProduct, deleteProduct, updateProduct, type ProductImageOptions } from './product-service';

/** The product as the catalogue presents it (the seller's view: pending shops see their own products too). */
async function presented(ctx: AppContext, productId: number) {
  const [product] = await loadProductsByIds(ctx.deps.db, [productId]);
  return product;
}

const imageOptions = (ctx: AppContext): ProductImageOptions => ({
  allowPrivateUrls: ctx.deps.config.mediaAllowPrivateUrls === true,
});

/** Product mutations of a shop: a seller changes only their own products, an admin any. */
export const productsRoutes: Feature = (router) => {
  const sellerOrAdmin = requireAuth('seller', 'admin');

  router.post('/_api/products/create', sellerOrAdmin, async (ctx) => {
    const input = parseBody(ctx, ProductCreateSchema);
    const { db, clock } = ctx.deps;
    const productId = await createProduct(db, currentUser(ctx), input, clock.now(), imageOptions(ctx));
    ctx.status = 201;
    ctx.body = {
      success: true,
      productId,
      product: await presented(ctx, productId),
    } satisfies ProductMutationResponse;
  });

  router.post('/_api/products/update', sellerOrAdmin, async (ctx) => {
    const input = parseBody(ctx, ProductUpdateSchema);
    const { db, clock } = ctx.deps;
    const productId = await updateProduct(db, currentUser(ctx), input, clock.now(), imageOptions(ctx));
    ctx.body = {
      success: true,
      productId,
      product: await presented(ctx, productId),
    } satisfies ProductMutationResponse;
  });

  router.post('/_api/products/delete', sellerOrAdmin, async (ctx) => {
    const { id } = parseBody(ctx, ProductDeleteSchema);
    const { db, clock } = ctx.deps;
    await deleteProduct(db, currentUser(ctx), id, clock.now());
    ctx.body = { success: true } satisfies ProductDeleteResponse;
  });
};
