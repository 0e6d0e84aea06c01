import type { Knex } from 'knex';
import { productIdFromRef, productPath, type Product, type StoreProfile } from '../../../contract/catalog';
import { formatInr } from '../../../contract/money';
import { LIMITS } from '../../../contract/constants';
import type { AppDeps } from '../../http/context';
import type { CachedAnswer } from '../../http/endpoint';
import { publicProductAnswer, storeAnswer } from './routes';

/**
 * What a shared link shows before anyone opens it (WhatsApp, search engines): a page's title, description,
 * canonical address, Open Graph and Twitter card tags and schema.org JSON-LD, for a product's own page
 * (/product/{slug}-{id}) and a shop's store (/{urlSlug}, /sellers/{id}); `sitemap.xml` and `robots.txt` list them.
 */

const SITE_NAME = 'Nagai';
/** Sitemap files hold at most this many addresses (the protocol allows 50,000); more are split into an index. */
export const SITEMAP_PAGE_SIZE = 10_000;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** JSON inside a <script>: `<` escaped so no text can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const absolute = (origin: string, url: string) => (/^https?:\/\//.test(url) ? url : `${origin}${url}`);
const clip = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

export interface PageHead {
  title: string;
  description: string;
  canonical: string;
  image?: { url: string; width: number | null; height: number | null; alt: string };
  type: 'product' | 'website' | 'profile';
  jsonLd: Record<string, unknown>;
}

/** The head tags of a page, ready to go into `<head>` in place of the shell's title and description. */
export function headHtml(head: PageHead): string {
  const meta = (attr: 'name' | 'property', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', head.description),
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', head.type),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.canonical),
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
  ];
  if (head.image) {
    tags.push(meta('property', 'og:image', head.image.url), meta('property', 'og:image:alt', head.image.alt));
    if (head.image.width) tags.push(meta('property', 'og:image:width', String(head.image.width)));
    if (head.image.height) tags.push(meta('property', 'og:image:height', String(head.image.height)));
    tags.push(meta('name', 'twitter:image', head.image.url));
  }
  tags.push(`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`);
  return tags.join('\n    ');
}

function storeAddress(origin: string, shop: { urlSlug: string | null; sellerId: number }): string {
  return shop.urlSlug
    ? `${origin}/${encodeURIComponent(shop.urlSlug)}`
    : `${origin}/sellers/${shop.sellerId}`;
}

export function productHead(product: Product, origin: string): PageHead {
  const canonical = `${origin}${productPath(product)}`;
  const cover = product.images[0];
  const imageUrl = cover?.url ?? product.imageUrl;
  const image = imageUrl
    ? {
        url: absolute(origin, imageUrl),
        width: cover?.width ?? null,
        height: cover?.height ?? null,
        alt: product.name,
      }
    : undefined;
  const inStock = product.stockQuantity === null || product.stockQuantity > 0;
  const shop = storeAddress(origin, product);
  return {
    title: `${product.name} — ${product.shopName} | ${SITE_NAME}`,
    description: clip(`${formatInr(Number(product.price))} · ${product.description || product.name}`, 200),
    canonical,
    image,
    type: 'product',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: product.name,
      description: clip(product.description || product.name, 5000),
      sku: product.sku ?? String(product.id),
      url: canonical,
      ...(image ? { image: [image.url] } : {}),
      category: product.category,
      material: product.material,
      ...(product.ratingCount > 0
        ? {
            aggregateRating: {
              '@type': 'AggregateRating',
              ratingValue: product.averageRating,
              reviewCount: product.ratingCount,
            },
          }
        : {}),
      offers: {
        '@type': 'Offer',
        url: canonical,
        price: product.price,
        priceCurrency: 'INR',
        availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
        seller: { '@type': 'Organization', name: product.shopName, url: shop },
      },
    },
  };
}

export function storeHead(shop: StoreProfile, cover: Product | undefined, origin: string): PageHead {
  const canonical = storeAddress(origin, shop);
  const place = [shop.city, shop.state].filter(Boolean).join(', ');
  const imageUrl = cover?.images[0]?.url ?? cover?.imageUrl;
  const image = imageUrl
    ? {
        url: absolute(origin, imageUrl),
        width: cover?.images[0]?.width ?? null,
        height: cover?.images[0]?.height ?? null,
        alt: shop.shopName,
      }
    : undefined;
  return {
    title: `${shop.shopName}${place ? `, ${place}` : ''} | ${SITE_NAME}`,
    description: clip(
      shop.description || `${shop.shopName}: jewellery from ${place || 'India'} on ${SITE_NAME}.`,
      200,
    ),
    canonical,
    image,
    type: 'profile',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'JewelryStore',
      name: shop.shopName,
      url: canonical,
      ...(shop.description ? { description: clip(shop.description, 5000) } : {}),
      ...(image ? { image: image.url } : {}),
      address: {
        '@type': 'PostalAddress',
        streetAddress: shop.shopAddress,
        addressLocality: shop.city,
        addressRegion: shop.state,
        postalCode: shop.pincode,
        addressCountry: 'IN',
      },
      ...(shop.ratingCount > 0
        ? {
            aggregateRating: {
              '@type': 'AggregateRating',
              ratingValue: shop.averageRating,
              reviewCount: shop.ratingCount,
            },
          }
        : {}),
    },
  };
}

/** Paths that are never a shop's slug (the app's own first segments). */
const NOT_A_SHOP = new Set([
  'marketplace',
  'sellers',
  'product',
  'orders',
  'checkout',
  'customer',
  'seller',
  'admin',
  'profile',
  'assets',
  'icons',
  'media',
]);

/**
 * The answer of a public catalogue read from the response cache (http/response-cache.ts), under the very key the
 * API serves it by: the page's head and its server rendering (which asks the API for the same answer) cost one
 * query between them, and a page asked for again within the cache's lifetime costs none.
 */
async function cachedAnswer<R>(deps: AppDeps, answer: CachedAnswer<R>): Promise<R> {
  const { entry } = await deps.catalogCache.get(answer.key, answer.compute, answer.productsOf);
  return JSON.parse(entry.json) as R;
}

/**
 * The head of a product or store page at `pathname`, or undefined for any other page (or an unknown product
 * or shop: the shell's own title stays).
 */
export async function pageHead(
  deps: AppDeps,
  pathname: string,
  origin: string,
): Promise<PageHead | undefined> {
  const segments = pathname.split('/').filter(Boolean);
  // The storefront's first page, as the page itself asks for it.
  const firstPage = { page: 1, limit: LIMITS.storefrontPageSize };
  try {
    if (segments.length === 2 && segments[0] === 'product') {
      const id = productIdFromRef(segments[1]);
      if (id === null) return undefined;
      const { product } = await cachedAnswer(deps, publicProductAnswer(deps, id));
      return productHead(product, origin);
    }
    let store;
    if (segments.length === 2 && segments[0] === 'sellers' && /^\d{1,15}$/.test(segments[1]))
      store = await cachedAnswer(deps, storeAnswer(deps, { sellerId: Number(segments[1]) }, firstPage));
    else if (segments.length === 1 && !NOT_A_SHOP.has(segments[0]) && !segments[0].includes('.'))
      store = await cachedAnswer(
        deps,
        storeAnswer(deps, { slug: decodeURIComponent(segments[0]).toLowerCase() }, firstPage),
      );
    return store ? storeHead(store.sellerProfile, store.productsData.products[0], origin) : undefined;
  } catch (err) {
    // An unknown product or shop, or an address that is not one (a malformed %-escape).
    if ((err as { status?: number }).status === 404 || err instanceof URIError) return undefined;
    throw err;
  }
}

const xmlEscape = escapeHtml;

/** robots.txt: everything public may be crawled, the personal and seller pages not; the sitemap is named. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /_api/',
    'Disallow: /checkout',
    'Disallow: /orders',
    'Disallow: /seller/',
    'Disallow: /admin/',
    'Disallow: /customer/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

async function sitemapEntries(db: Knex, origin: string): Promise<string[]> {
  const shops = (await db('seller_profiles')
    .where({ is_approved: true })
    .orderBy('user_id')
    .select('user_id', 'url_slug')) as { user_id: number; url_slug: string | null }[];
  const products = (await db('products')
    .whereNull('deleted_at')
    .where({ seller_approved: true })
    .orderBy('id')
    .select('id', 'name')) as { id: number; name: string }[];
  return [
    `${origin}/`,
    `${origin}/marketplace`,
    `${origin}/sellers`,
    ...shops.map((s) => storeAddress(origin, { urlSlug: s.url_slug, sellerId: s.user_id })),
    ...products.map((p) => `${origin}${productPath(p)}`),
  ];
}

/**
 * /sitemap.xml: the public pages, every approved shop and every product on sale. Beyond SITEMAP_PAGE_SIZE
 * addresses it is an index of /sitemap-{n}.xml files; `page` asks for one of those (1-based).
 */
export async function sitemapXml(
  db: Knex,
  origin: string,
  page?: number,
  pageSize = SITEMAP_PAGE_SIZE,
): Promise<string | undefined> {
  const urls = await sitemapEntries(db, origin);
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
  const ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
  const pages = Math.ceil(urls.length / pageSize);
  const list = (items: string[]) =>
    `${head}<urlset ${ns}>\n${items.map((u) => `  <url><loc>${xmlEscape(u)}</loc></url>`).join('\n')}\n</urlset>\n`;
  if (page === undefined) {
    if (pages <= 1) return list(urls);
    const files = Array.from({ length: pages }, (_, i) => `${origin}/sitemap-${i + 1}.xml`);
    return `${head}<sitemapindex ${ns}>\n${files.map((f) => `  <sitemap><loc>${xmlEscape(f)}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
  }
  if (page < 1 || page > pages) return undefined;
  return list(urls.slice((page - 1) * pageSize, page * pageSize));
}
