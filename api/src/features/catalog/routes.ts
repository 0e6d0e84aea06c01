import type { Feature } from '../../app';
import {
  productGetQuerySchema,
  productListQuerySchema,
  sellerListQuerySchema,
  storeByIdQuerySchema,
  storeQuerySchema,
  suggestionsQuerySchema,
  topSellersQuerySchema,
} from '../../../contract/catalog';
import { LIMITS } from '../../../contract/constants';
import { parseQuery } from '../../http/validate';
import {
  catalogStats,
  getProduct,
  getStore,
  listProducts,
  listSellers,
  suggest,
  topSellers,
} from './service';

/** Routes of the catalog area: the public catalogue, suggestions, the jeweller directory and storefronts. */
export const catalogFeature: Feature = (router) => {
  router.get('/_api/products/list', async (ctx) => {
    const q = parseQuery(ctx, productListQuerySchema);
    ctx.body = await listProducts(ctx.deps.db, q, ctx.state.user);
  });

  router.get('/_api/products/get', async (ctx) => {
    const { id } = parseQuery(ctx, productGetQuerySchema);
    ctx.body = { product: await getProduct(ctx.deps.db, id!, ctx.state.user) };
  });

  router.get('/_api/search/suggestions', async (ctx) => {
    const { query } = parseQuery(ctx, suggestionsQuerySchema);
    ctx.body = await suggest(ctx.deps.db, query!);
  });

  router.get('/_api/sellers/list', async (ctx) => {
    const q = parseQuery(ctx, sellerListQuerySchema);
    ctx.body = await listSellers(ctx.deps.db, q, ctx.deps.clock.now());
  });

  router.get('/_api/sellers/top', async (ctx) => {
    const { limit } = parseQuery(ctx, topSellersQuerySchema);
    ctx.body = { sellers: await topSellers(ctx.deps.db, limit, ctx.deps.clock.now()) };
  });

  router.get('/_api/seller/store', async (ctx) => {
    const q = parseQuery(ctx, storeQuerySchema);
    ctx.body = await getStore(
      ctx.deps.db,
      { slug: q.slug! },
      { page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize },
      ctx.deps.clock.now(),
    );
  });

  router.get('/_api/seller/store/by-id', async (ctx) => {
    const q = parseQuery(ctx, storeByIdQuerySchema);
    ctx.body = await getStore(
      ctx.deps.db,
      { sellerId: q.sellerId! },
      { page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize },
      ctx.deps.clock.now(),
    );
  });

  router.get('/_api/catalog/stats', async (ctx) => {
    ctx.body = await catalogStats(ctx.deps.db);
  });
};
