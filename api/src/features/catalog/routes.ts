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
import { sendCached } from '../../http/response-cache';
import {
  catalogStats,
  getProduct,
  getStore,
  listProducts,
  listSellers,
  seesUnapproved,
  suggest,
  topSellers,
} from './service';

/** The cache key of a public answer: the path and the parsed query (so `?a=1&b=2` and `?b=2&a=1` share it). */
const cacheKey = (path: string, parsed: unknown) => `${path}?${JSON.stringify(parsed)}`;

/** The products a list, a storefront or suggestions show, for ResponseCache.invalidateProducts. */
const listedProducts = (body: unknown): number[] => {
  const b = body as { products?: { id: number }[]; productsData?: { products?: { id: number }[] } };
  return (b.products ?? b.productsData?.products ?? []).map((p) => p.id);
};

/** Routes of the catalog area: the public catalogue, suggestions, the jeweller directory and storefronts. */
export const catalogFeature: Feature = (router) => {
  router.get('/_api/products/list', async (ctx) => {
    const q = parseQuery(ctx, productListQuerySchema);
    // A seller's (or an admin's) view of a shop awaiting approval is theirs alone: never cached.
    if (seesUnapproved(ctx.state.user, q.sellerId)) {
      ctx.body = await listProducts(ctx.deps.db, q, ctx.state.user);
      return;
    }
    await sendCached(
      ctx,
      ctx.deps.catalogCache,
      cacheKey(ctx.path, q),
      () => listProducts(ctx.deps.db, q, undefined),
      listedProducts,
    );
  });

  router.get('/_api/products/get', async (ctx) => {
    const { id } = parseQuery(ctx, productGetQuerySchema);
    // Sellers and admins may see products of shops awaiting approval: their answers are their own.
    const role = ctx.state.user?.role;
    if (role === 'seller' || role === 'admin') {
      ctx.body = { product: await getProduct(ctx.deps.db, id!, ctx.state.user) };
      return;
    }
    await sendCached(
      ctx,
      ctx.deps.catalogCache,
      cacheKey(ctx.path, id),
      async () => ({ product: await getProduct(ctx.deps.db, id!, undefined) }),
      () => [id!],
    );
  });

  router.get('/_api/search/suggestions', async (ctx) => {
    const { query } = parseQuery(ctx, suggestionsQuerySchema);
    const text = query!.trim().replace(/\s+/g, ' ').toLowerCase();
    await sendCached(
      ctx,
      ctx.deps.catalogCache,
      cacheKey(ctx.path, text),
      () => suggest(ctx.deps.db, text),
      listedProducts,
    );
  });

  router.get('/_api/sellers/list', async (ctx) => {
    const q = parseQuery(ctx, sellerListQuerySchema);
    await sendCached(ctx, ctx.deps.catalogCache, cacheKey(ctx.path, q), () =>
      listSellers(ctx.deps.db, q, ctx.deps.clock.now()),
    );
  });

  router.get('/_api/sellers/top', async (ctx) => {
    const { limit } = parseQuery(ctx, topSellersQuerySchema);
    await sendCached(ctx, ctx.deps.catalogCache, cacheKey(ctx.path, limit), async () => ({
      sellers: await topSellers(ctx.deps.db, limit, ctx.deps.clock.now()),
    }));
  });

  router.get('/_api/seller/store', async (ctx) => {
    const q = parseQuery(ctx, storeQuerySchema);
    const paging = { page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize };
    const slug = q.slug!.toLowerCase();
    await sendCached(
      ctx,
      ctx.deps.catalogCache,
      cacheKey(ctx.path, [slug, paging]),
      () => getStore(ctx.deps.db, { slug }, paging, ctx.deps.clock.now()),
      listedProducts,
    );
  });

  router.get('/_api/seller/store/by-id', async (ctx) => {
    const q = parseQuery(ctx, storeByIdQuerySchema);
    const paging = { page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize };
    await sendCached(
      ctx,
      ctx.deps.catalogCache,
      cacheKey(ctx.path, [q.sellerId, paging]),
      () => getStore(ctx.deps.db, { sellerId: q.sellerId! }, paging, ctx.deps.clock.now()),
      listedProducts,
    );
  });

  router.get('/_api/catalog/stats', async (ctx) => {
    await sendCached(ctx, ctx.deps.catalogCache, ctx.path, () => catalogStats(ctx.deps.db));
  });
};
