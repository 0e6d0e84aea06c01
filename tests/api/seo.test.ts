import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdFromRef, productPath } from '../../api/contract/catalog';
import { sitemapXml } from '../../api/src/features/catalog/seo';
import { buildProduct, buildSeller, type BuiltProduct, type BuiltSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';

/**
 * A shared link's preview (api/src/features/catalog/seo.ts): product and store pages name themselves in <head>
 * (title, description, canonical, Open Graph, Twitter card, schema.org JSON-LD), and sitemap.xml and
 * robots.txt list what may be crawled.
 */

const INDEX = path.resolve(import.meta.dirname, '../../dist/index.html');

let api: TestApi;
let shop: BuiltSeller;
let hidden: BuiltSeller;
let jhumka: BuiltProduct;
let soldOut: BuiltProduct;
let gone: BuiltProduct;
beforeAll(async () => {
  expect(fs.existsSync(INDEX), 'the PWA build is missing: run npm run build').toBe(true);
  api = await startTestApi({ serveStatic: true, config: { ssrDir: undefined } });
  shop = await buildSeller(api.db.knex, {
    shopName: 'Kanchi <Gold> & Co',
    urlSlug: 'kanchi-gold',
    description: 'Temple jewellery from Kanchipuram since 1962.',
  });
  hidden = await buildSeller(api.db.knex, { shopName: 'Not Yet Approved', isApproved: false });
  jhumka = await buildProduct(api.db.knex, shop.id, {
    name: 'Gold Jhumka Earrings',
    description: 'Bell-shaped "jhumkas" in 22K gold.</script><script>alert(1)</script>',
    price: '920786.50',
    stockQuantity: 3,
  });
  soldOut = await buildProduct(api.db.knex, shop.id, { name: 'Silver Anklet', stockQuantity: 0 });
  gone = await buildProduct(api.db.knex, shop.id, { name: 'Old Ring', deletedAt: new Date() });
  await buildProduct(api.db.knex, hidden.id, { name: 'Hidden Bangle' });
});
afterAll(async () => api?.close());

const page = async (p: string) => {
  const res = await fetch(`${api.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};
const meta = (html: string, attr: string, key: string) =>
  new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(html)?.[1];
const jsonLd = (html: string) => {
  const m = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  return m ? (JSON.parse(m[1]) as Record<string, unknown>) : undefined;
};

describe('product addresses', () => {
  it('are a readable slug and the id; only the id is read back', () => {
    expect(productPath({ id: 123, name: 'Gold Jhumka Earrings' })).toBe('/product/gold-jhumka-earrings-123');
    expect(productPath({ id: 7, name: '22K Kasu Mala — Bridal Set!' })).toBe(
      '/product/22k-kasu-mala-bridal-set-7',
    );
    expect(productPath({ id: 9, name: 'தங்க ஜிமிக்கி' })).toBe('/product/9');
    expect(productIdFromRef('gold-jhumka-earrings-123')).toBe(123);
    expect(productIdFromRef('123')).toBe(123);
    expect(productIdFromRef('renamed-since-123')).toBe(123);
    for (const bad of ['', 'gold', 'gold-0', '-1x', 'gold-99999999999999999999'])
      expect(productIdFromRef(bad), bad).toBeNull();
  });
});

describe('link previews', () => {
  it('gives a product page its title, description, canonical address, Open Graph, Twitter card and Product JSON-LD', async () => {
    const origin = api.url;
    const canonical = `${origin}/product/gold-jhumka-earrings-${jhumka.id}`;
    // Any slug finds the product; the canonical address is its current one.
    const { status, text } = await page(`/product/old-name-${jhumka.id}`);
    expect(status).toBe(200);
    expect(text).toContain('<title>Gold Jhumka Earrings — Kanchi &lt;Gold&gt; &amp; Co | Nagai</title>');
    expect(text).toContain(`<link rel="canonical" href="${canonical}" />`);
    // The shell's own title and description are replaced, not repeated.
    expect(text.match(/<title>/g)).toHaveLength(1);
    expect(text.match(/<meta name="description"/g)).toHaveLength(1);
    expect(meta(text, 'name', 'description')).toMatch(/^₹9,20,786.50 · Bell-shaped &quot;jhumkas&quot;/);
    expect(meta(text, 'property', 'og:type')).toBe('product');
    expect(meta(text, 'property', 'og:url')).toBe(canonical);
    expect(meta(text, 'property', 'og:title')).toBe(
      'Gold Jhumka Earrings — Kanchi &lt;Gold&gt; &amp; Co | Nagai',
    );
    expect(meta(text, 'property', 'og:image')).toBe(`${origin}/media/test-${jhumka.id}-detail.webp`);
    expect(meta(text, 'property', 'og:image:width')).toBe('480');
    expect(meta(text, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(meta(text, 'name', 'twitter:image')).toBe(`${origin}/media/test-${jhumka.id}-detail.webp`);
    // The description's markup cannot close the JSON-LD script.
    expect(text).not.toContain('<script>alert(1)</script>');
    expect(jsonLd(text)).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Gold Jhumka Earrings',
      url: canonical,
      image: [`${origin}/media/test-${jhumka.id}-detail.webp`],
      offers: {
        '@type': 'Offer',
        price: '920786.50',
        priceCurrency: 'INR',
        availability: 'https://schema.org/InStock',
        seller: { '@type': 'Organization', name: 'Kanchi <Gold> & Co', url: `${origin}/kanchi-gold` },
      },
    });
    expect(jsonLd((await page(`/product/${soldOut.id}`)).text)).toMatchObject({
      offers: { availability: 'https://schema.org/OutOfStock' },
    });
  });

  it("gives a shop's store its tags and JSON-LD, by slug and by id", async () => {
    const origin = api.url;
    for (const p of ['/kanchi-gold', `/sellers/${shop.id}`]) {
      const { text } = await page(p);
      expect(text, p).toContain(
        '<title>Kanchi &lt;Gold&gt; &amp; Co, Coimbatore, Tamil Nadu | Nagai</title>',
      );
      expect(text, p).toContain(`<link rel="canonical" href="${origin}/kanchi-gold" />`);
      expect(meta(text, 'property', 'og:description'), p).toBe(
        'Temple jewellery from Kanchipuram since 1962.',
      );
      expect(meta(text, 'property', 'og:image'), p).toMatch(
        new RegExp(`^${origin}/media/test-\\d+-detail\\.webp$`),
      );
      expect(jsonLd(text), p).toMatchObject({
        '@type': 'JewelryStore',
        name: 'Kanchi <Gold> & Co',
        url: `${origin}/kanchi-gold`,
        address: { addressLocality: 'Coimbatore', postalCode: '641001', addressCountry: 'IN' },
      });
    }
  });

  it('leaves the shell as it is for other pages, unknown products, removed ones and unapproved shops', async () => {
    const shell = fs.readFileSync(INDEX, 'utf8');
    const shellTitle = /<title>[^<]*<\/title>/.exec(shell)![0];
    for (const p of [
      '/marketplace',
      `/product/x-${gone.id}`,
      '/product/nothing-99999999',
      '/no-such-shop',
      `/${hidden.urlSlug}`,
    ]) {
      const { status, text } = await page(p);
      expect(status, p).toBe(200);
      expect(text, p).toContain(shellTitle);
      expect(text, p).not.toContain('application/ld+json');
      expect(text, p).not.toContain('og:title');
    }
  });
});

describe('sitemap.xml and robots.txt', () => {
  it('lists the public pages, approved shops and products on sale, and nothing else', async () => {
    const { status, type, text } = await page('/sitemap.xml');
    expect(status).toBe(200);
    expect(type).toContain('application/xml');
    expect(text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const locs = [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(
      expect.arrayContaining([
        `${api.url}/`,
        `${api.url}/marketplace`,
        `${api.url}/sellers`,
        `${api.url}/kanchi-gold`,
        `${api.url}/product/gold-jhumka-earrings-${jhumka.id}`,
        `${api.url}/product/silver-anklet-${soldOut.id}`,
      ]),
    );
    expect(
      locs.some((l) => l.includes('old-ring') || l.includes('hidden-bangle') || l.includes(hidden.urlSlug!)),
    ).toBe(false);
  });

  it('splits a large sitemap into an index of files', async () => {
    const index = (await sitemapXml(api.db.knex, 'https://nagai.example', undefined, 2))!;
    expect(index).toContain('<sitemapindex');
    const files = [...index.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(files[0]).toBe('https://nagai.example/sitemap-1.xml');
    const all = (await sitemapXml(api.db.knex, 'https://nagai.example'))!;
    const total = [...all.matchAll(/<loc>/g)].length;
    expect(files).toHaveLength(Math.ceil(total / 2));
    const first = (await sitemapXml(api.db.knex, 'https://nagai.example', 1, 2))!;
    expect([...first.matchAll(/<loc>/g)]).toHaveLength(2);
    expect(await sitemapXml(api.db.knex, 'https://nagai.example', files.length + 1, 2)).toBeUndefined();
    // Over HTTP, a part that does not exist is a 404.
    expect((await page('/sitemap-999.xml')).status).toBe(404);
  });

  it('robots.txt allows the catalogue, keeps crawlers out of personal pages and names the sitemap', async () => {
    const { status, text } = await page('/robots.txt');
    expect(status).toBe(200);
    expect(text).toContain('User-agent: *');
    for (const p of ['/_api/', '/checkout', '/orders', '/seller/', '/admin/'])
      expect(text).toContain(`Disallow: ${p}`);
    expect(text).not.toMatch(/Disallow: \/\n/);
    expect(text).toContain(`Sitemap: ${api.url}/sitemap.xml`);
  });
});

describe('the head lookup', () => {
  it("is answered from the catalogue response cache, under the API's own key", async () => {
    const cached = await startTestApi({
      serveStatic: true,
      config: { ssrDir: undefined, catalogCache: { ttlMs: 60_000, maxBytes: 8 * 1024 * 1024 } },
    });
    try {
      const seller = await buildSeller(cached.db.knex, { shopName: 'Cached Gold', urlSlug: 'cached-gold' });
      const product = await buildProduct(cached.db.knex, seller.id, { name: 'Cached Chain' });
      const cache = cached.handle.deps.catalogCache;
      const before = cache.stats();
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${cached.url}${productPath(product)}`);
        expect(await res.text()).toContain('<title>Cached Chain — Cached Gold | Nagai</title>');
      }
      // The API's answer for the product (what the server rendering and the app ask for) is the same entry.
      const api = await fetch(`${cached.url}/_api/products/get?id=${product.id}`);
      expect(((await api.json()) as { product: { name: string } }).product.name).toBe('Cached Chain');
      // The store's first page, as the storefront asks for it.
      for (let i = 0; i < 2; i++) await (await fetch(`${cached.url}/Cached-Gold`)).text();
      await (await fetch(`${cached.url}/_api/seller/store?slug=cached-gold&page=1&limit=12`)).text();
      const after = cache.stats();
      expect(after.misses - before.misses).toBe(2);
      // One query each for the product and the store: every other read is a hit (3 + 1 − 1 and 2 + 1 − 1).
      expect(after.hits - before.hits).toBe(5);
    } finally {
      await cached.close();
    }
  });
});
