import {
  CATALOG_MESSAGES,
  type Product,
  productGetQuerySchema,
  productListQuerySchema,
  sellerListQuerySchema,
  storeByIdQuerySchema,
  storeQuerySchema,
  suggestionsQuerySchema,
  topSellersQuerySchema,
} from '../../../contract/catalog';
import { LIMITS } from '../../../contract/constants';
import { API_ROUTES as R } from '../../../contract/routes';
import type { AppDeps, Feature } from '../../http/context';
import { CachedAnswer, endpoint } from '../../http/endpoint';
import type { AppContext } from '../../http/context';
import { tooManyRequests } from '../../http/errors';
import { MemoryRateLimiter } from '../../http/rate-limit';
import { withCallStates } from '../schedule/service';

const MINUTE = 60_000;
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
  const b = body as {
    products?: { id: number }[];
    productsData?: { products?: { id: number }[] };
    didYouMean?: { products: { id: number }[] };
  };
  return [...(b.products ?? b.productsData?.products ?? []), ...(b.didYouMean?.products ?? [])].map(
    (p) => p.id,
  );
};

/** A product with its shop's call state (issue #22), as the product page shows it. */
const productWithState = async (deps: AppDeps, product: Product) =>
  (await withCallStates(deps.db, { products: [product] }, deps.clock.now())).products[0]!;

/** A visitor's answer for one product (`GET /_api/products/get`), shared with the product page's head tags. */
export const publicProductAnswer = (deps: AppDeps, id: number) =>
  new CachedAnswer(
    cacheKey(R.productsGet.path, id),
    async () => ({ product: await productWithState(deps, await getProduct(deps.db, id, undefined)) }),
    () => [id],
  );

/** A storefront page of products (`GET /_api/seller/store[/by-id]`), shared with the store's head tags. */
export const storeAnswer = (
  deps: AppDeps,
  key: { slug: string } | { sellerId: number },
  paging: { page: number; limit: number },
) =>
  'slug' in key
    ? new CachedAnswer(
        cacheKey(R.store.path, [key.slug, paging]),
        () => getStore(deps.db, key, paging, deps.clock.now()),
        listedProducts,
      )
    : new CachedAnswer(
        cacheKey(R.storeById.path, [key.sellerId, paging]),
        () => getStore(deps.db, key, paging, deps.clock.now()),
        listedProducts,
      );

/** Routes of the catalog area: the public catalogue, suggestions, the jeweller directory and storefronts. */
export const catalogFeature: Feature = (router, { deps }) => {
  // Searches (full text, trigram) are the costly reads: a loose bound per client address (SEARCH_LIMIT_PER_IP_PER_MINUTE).
  const searches = new MemoryRateLimiter(deps.config.limits.searchPerIpPerMinute, MINUTE);
  const isSearch = (ctx: AppContext) =>
    ctx.path === R.suggestions.path ||
    (ctx.path === R.productsList.path && !!ctx.query.query) ||
    (ctx.path === R.sellersList.path && !!ctx.query.searchQuery);
  router.use([R.suggestions.path, R.productsList.path, R.sellersList.path], async (ctx, next) => {
    if (isSearch(ctx)) {
      const limit = searches.hit(ctx.ip, ctx.deps.clock.now().getTime());
      if (!limit.allowed) throw tooManyRequests(CATALOG_MESSAGES.tooManySearches, limit.retryAfterMs / 1000);
    }
    return next();
  });

  endpoint(router, R.productsList, {
    input: productListQuerySchema,
    handle: (deps, user, q) =>
      // A seller's (or an admin's) view of a shop awaiting approval is theirs alone: never cached.
      // Each product carries its shop's call state (issue #22): one more query for the shops of a page.
      seesUnapproved(user, q.sellerId)
        ? listProducts(deps.db, q, user, deps.clock.now()).then((a) =>
            withCallStates(deps.db, a, deps.clock.now()),
          )
        : new CachedAnswer(
            cacheKey(R.productsList.path, q),
            async () =>
              withCallStates(
                deps.db,
                await listProducts(deps.db, q, undefined, deps.clock.now()),
                deps.clock.now(),
              ),
            listedProducts,
          ),
  });

  endpoint(router, R.productsGet, {
    input: productGetQuerySchema,
    handle: async (deps, user, { id }) => {
      // Sellers and admins may see products of shops awaiting approval: their answers are their own.
      if (user?.role === 'seller' || user?.role === 'admin') {
        return { product: await productWithState(deps, await getProduct(deps.db, id!, user)) };
      }
      return publicProductAnswer(deps, id!);
    },
  });

  endpoint(router, R.suggestions, {
    input: suggestionsQuerySchema,
    handle: (deps, _user, { query }) => {
      const text = query!.trim().replace(/\s+/g, ' ').toLowerCase();
      return new CachedAnswer(
        cacheKey(R.suggestions.path, text),
        () => suggest(deps.db, text),
        listedProducts,
      );
    },
  });

  endpoint(router, R.sellersList, {
    input: sellerListQuerySchema,
    handle: (deps, _user, q) =>
      new CachedAnswer(cacheKey(R.sellersList.path, q), () => listSellers(deps.db, q, deps.clock.now())),
  });

  endpoint(router, R.sellersTop, {
    input: topSellersQuerySchema,
    handle: (deps, _user, { limit }) =>
      new CachedAnswer(cacheKey(R.sellersTop.path, limit), async () => ({
        sellers: await topSellers(deps.db, limit, deps.clock.now()),
      })),
  });

  endpoint(router, R.store, {
    input: storeQuerySchema,
    handle: (deps, _user, q) => {
      const paging = { page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize };
      return storeAnswer(deps, { slug: q.slug!.toLowerCase() }, paging);
    },
  });

  endpoint(router, R.storeById, {
    input: storeByIdQuerySchema,
    handle: (deps, _user, q) => {
      const paging = { page: q.page ?? 1, limit: q.limit ?? LIMITS.defaultPageSize };
      return storeAnswer(deps, { sellerId: q.sellerId! }, paging);
    },
  });

  endpoint(router, R.catalogStats, {
    handle: (deps) => new CachedAnswer(R.catalogStats.path, () => catalogStats(deps.db)),
  });
};
