import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CATEGORIES, PRODUCT_MATERIALS } from '../../api/contract/constants';
import { verifyPassword } from '../../api/src/features/accounts/password';
import { toNumber } from '../../db/connection';
import { generateBulkData } from '../../api/src/seeds/bulk';
import type { ProductGetResponse } from '../../api/contract/catalog';
import {
  gramsToMg,
  HUID_PATTERN,
  METAL_PURITIES,
  priceBreakdown,
  taxableFromInclusive,
  type Metal,
} from '../../api/contract/pricing';
import { DEMO_PASSWORD, isDatabaseEmpty, seedDemoData } from '../../api/src/seeds/demo';
import { startTestApi, type TestApi } from '../support/api';
import { signIn } from './checkout-support';

const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const toPaise = (v: unknown) => Math.round(toNumber(v) * 100);

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
  expect(await isDatabaseEmpty(api.db.knex)).toBe(true);
  await seedDemoData(api.db.knex);
}, 240_000);
afterAll(async () => api?.close());

describe('demo data', () => {
  it('has the three demo accounts with their roles and the demo password', async () => {
    const users = (await api.db
      .knex('users')
      .whereIn('email', ['admin@nagai.test', 'seller@nagai.test', 'customer@nagai.test'])
      .select('email', 'role', 'password_hash')) as { email: string; role: string; password_hash: string }[];
    const byEmail = Object.fromEntries(users.map((u) => [u.email, u]));
    expect(byEmail['admin@nagai.test'].role).toBe('admin');
    expect(byEmail['seller@nagai.test'].role).toBe('seller');
    expect(byEmail['customer@nagai.test'].role).toBe('customer');
    for (const u of users) expect(await verifyPassword(u.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(await isDatabaseEmpty(api.db.knex)).toBe(false);
  });

  it('has Lakshmi Jewellers approved with its slug and video calls, and a believable set of other shops', async () => {
    const shops = (await api.db.knex('seller_profiles').select('*')) as Record<string, unknown>[];
    const lakshmi = shops.find((s) => s.shop_name === 'Lakshmi Jewellers')!;
    expect(lakshmi).toMatchObject({
      url_slug: 'lakshmi-jewellers',
      is_approved: true,
      video_call_enabled: true,
    });
    const approved = shops.filter((s) => s.is_approved === true);
    expect(approved.length).toBeGreaterThanOrEqual(13);
    expect(shops.filter((s) => s.is_approved === null)).toHaveLength(2);
    expect(approved.filter((s) => s.url_slug === null)).toHaveLength(1);
    expect(approved.filter((s) => s.video_call_enabled === false).length).toBeGreaterThanOrEqual(2);
    expect(new Set(approved.map((s) => s.city)).size).toBeGreaterThanOrEqual(12);
    for (const s of shops) {
      expect(s.gst_number).toMatch(GSTIN);
      expect(s.pincode).toMatch(/^\d{6}$/);
      expect(s.phone).toMatch(/^\d{10}$/);
      expect(s.established_date).toBeTruthy();
    }
    const customers = await api.db.knex('users').where({ role: 'customer' }).count('* as n');
    expect(toNumber(customers[0].n)).toBeGreaterThanOrEqual(3);
  });

  it('has ~250 products covering all categories and materials with full fields and 3% GST', async () => {
    const products = (await api.db.knex('products').select('*')) as Record<string, unknown>[];
    expect(products.length).toBeGreaterThanOrEqual(230);
    expect(products.length).toBeLessThanOrEqual(300);
    expect(new Set(products.map((p) => p.category))).toEqual(new Set(PRODUCT_CATEGORIES));
    expect(new Set(products.map((p) => p.material))).toEqual(new Set(PRODUCT_MATERIALS));
    for (const p of products) {
      expect(p.purity).toBeTruthy();
      expect(toNumber(p.weight_g)).toBeGreaterThan(0);
      expect(p.sku).toBeTruthy();
      const price = toPaise(p.price);
      expect(price).toBeGreaterThan(0);
      // The price includes GST; the GST in it is what the tax invoice reads back (issue #40 item 4).
      expect(toPaise(p.gst_amount), String(p.name)).toBe(price - taxableFromInclusive(price));
    }
    const stocks = products.map((p) => Number(p.stock_quantity));
    expect(stocks.filter((s) => s === 0).length).toBeGreaterThanOrEqual(1);
    expect(stocks.filter((s) => s > 0 && s <= 5).length).toBeGreaterThanOrEqual(3);
    const goldChains = products.filter((p) => p.category === 'chains' && p.material === 'gold');
    for (const c of goldChains) expect(toNumber(c.price)).toBeGreaterThanOrEqual(40_000);
  });

  it('gives every shop its day’s rates and prices its gold, silver and platinum pieces from them (#40)', async () => {
    const shops = (await api.db.knex('seller_profiles').select('user_id', 'shop_name')) as {
      user_id: number;
      shop_name: string;
    }[];
    const rates = (await api.db
      .knex('metal_rates')
      .select('seller_id', 'metal', 'purity', api.db.knex.raw('rate_per_gram::text as rate'))) as {
      seller_id: number;
      metal: Metal;
      purity: string;
      rate: string;
    }[];
    const wanted = Object.entries(METAL_PURITIES).flatMap(([m, ps]) => ps.map((p) => `${m}:${p}`));
    for (const s of shops) {
      const mine = rates.filter((r) => r.seller_id === s.user_id).map((r) => `${r.metal}:${r.purity}`);
      expect(mine.sort(), s.shop_name).toEqual([...wanted].sort());
    }
    const rateOf = new Map(rates.map((r) => [`${r.seller_id}:${r.metal}:${r.purity}`, toPaise(r.rate)]));
    const products = (await api.db.knex('products').select('*')) as Record<string, unknown>[];
    const metalPieces = products.filter((p) => ['gold', 'silver', 'platinum'].includes(String(p.material)));
    expect(metalPieces.length).toBeGreaterThanOrEqual(40);
    for (const p of products.filter((x) => x.pricing_mode === 'rate')) {
      const rate = rateOf.get(`${String(p.seller_id)}:${String(p.metal)}:${String(p.metal_purity)}`)!;
      expect(toPaise(p.metal_rate as string)).toBe(rate);
      const b = priceBreakdown({
        ratePaisePerGram: rate,
        netWeightMg: gramsToMg(String(p.net_weight_g)),
        makingType: p.making_type as 'percent',
        makingHundredths: toPaise(p.making_value as string),
        stonePaise: toPaise((p.stone_charges as string | null) ?? 0),
      });
      expect(toPaise(p.price), String(p.name)).toBe(b.total);
      expect(toPaise(p.gst_amount)).toBe(b.gst);
      expect(gramsToMg(String(p.net_weight_g))).toBeLessThanOrEqual(
        gramsToMg(toNumber(p.weight_g).toFixed(3)),
      );
    }
    for (const p of metalPieces) expect(p.pricing_mode, String(p.name)).toBe('rate');
    // The product page gets the breakdown's inputs: the rate it was priced from.
    const gold = metalPieces.find((p) => p.material === 'gold')!;
    const res = await fetch(`${api.url}/_api/products/get?id=${String(gold.id)}`);
    const { product } = (await res.json()) as ProductGetResponse;
    expect(product.rateLinked).toMatchObject({ metal: 'gold', purity: gold.metal_purity });
    expect(toPaise(product.rateLinked!.ratePerGram)).toBe(
      rateOf.get(`${String(gold.seller_id)}:gold:${String(gold.metal_purity)}`),
    );
  });

  it('gives every gold piece of 2 g or more a HUID and every diamond piece a certificate (#40)', async () => {
    const products = (await api.db.knex('products').select('*')) as Record<string, unknown>[];
    const gold = products.filter((p) => p.material === 'gold' || p.metal === 'gold');
    const needing = gold.filter((p) => toNumber(p.weight_g) >= 2);
    expect(needing.length).toBeGreaterThanOrEqual(100);
    for (const p of needing) expect(p.huid, String(p.name)).toMatch(HUID_PATTERN);
    const huids = products.map((p) => p.huid).filter(Boolean);
    expect(new Set(huids).size).toBe(huids.length);
    const diamonds = products.filter((p) => p.material === 'diamond' || p.diamonds_total_count !== null);
    expect(diamonds.length).toBeGreaterThanOrEqual(10);
    for (const p of diamonds) {
      expect(p.certificate_lab, String(p.name)).toMatch(/^(IGI|GIA|SGL)$/);
      expect(p.certificate_number).toMatch(/^[A-Z0-9]{6,}$/);
    }
    const admin = await api.db.knex('users').where({ email: 'admin@nagai.test' }).first('id');
    expect(admin).toBeTruthy();
    const missing = (await api.db.knex.raw(
      `select count(*)::int as n from products where deleted_at is null and huid is null
          and (material = 'gold' or metal = 'gold') and coalesce(weight_g, net_weight_g) >= 2`,
    )) as { rows: { n: number }[] };
    expect(missing.rows[0].n).toBe(0);
  });

  it('names, describes and lists each gold piece with the same purity (#40)', async () => {
    const products = (await api.db
      .knex('products')
      .select('name', 'description', 'purity', 'metal_purity')) as {
      name: string;
      description: string;
      purity: string;
      metal_purity: string | null;
    }[];
    let named = 0;
    for (const p of products) {
      for (const text of [p.name, p.description]) {
        const karats = [...text.matchAll(/(\d{2})K\b/gi)].map((m) => `${m[1]}K`);
        for (const k of karats) expect(k, `${p.name}: ${text}`).toBe(p.purity);
        named += karats.length;
      }
      if (p.metal_purity) expect(p.purity.replace(/^PT/, '')).toBe(p.metal_purity);
    }
    expect(named).toBeGreaterThanOrEqual(40);
  });

  it('gives every product an image that is served at its /media URL', async () => {
    const missing = await api.db
      .knex('products as p')
      .leftJoin('product_images as i', 'i.product_id', 'p.id')
      .whereNull('i.id')
      .count('* as n');
    expect(toNumber(missing[0].n)).toBe(0);
    const urls = (await api.db.knex('product_images').distinct('card_url', 'detail_url')) as {
      card_url: string;
      detail_url: string;
    }[];
    expect(urls.length).toBeGreaterThanOrEqual(40);
    for (const u of urls.slice(0, 12)) {
      for (const url of [u.card_url, u.detail_url]) {
        const res = await fetch(api.url + url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
      }
    }
  });

  it('gives every earring, nose pin, necklace and pendant a try-on image of its colours, transparent around the piece (#36)', async () => {
    const rows = (await api.db
      .knex('products')
      .select('category', 'material', 'tryon_image_url', 'tryon_anchor_x', 'tryon_anchor_y')) as {
      category: string;
      material: string;
      tryon_image_url: string | null;
      tryon_anchor_x: number | null;
      tryon_anchor_y: number | null;
    }[];
    const tried = rows.filter((r) => ['earrings', 'nose_pins', 'necklaces', 'pendants'].includes(r.category));
    expect(tried.length).toBeGreaterThan(40);
    for (const r of tried) {
      expect(r.tryon_image_url, `${r.category} ${r.material}`).toMatch(/^\/media\/[0-9a-f]{32}-tryon\.webp$/);
      expect(r.tryon_anchor_x).toBeCloseTo(0.5, 5);
    }
    expect(rows.filter((r) => !tried.includes(r)).every((r) => r.tryon_image_url === null)).toBe(true);
    // One picture per category and material: gold and silver jhumkas differ.
    const url = (category: string, material: string) =>
      tried.find((r) => r.category === category && r.material === material)?.tryon_image_url;
    expect(url('earrings', 'gold')).toBeTruthy();
    expect(url('earrings', 'silver')).toBeTruthy();
    expect(url('earrings', 'gold')).not.toBe(url('earrings', 'silver'));
    // Served as WebP with an alpha channel: the corners are see-through, the anchor's column holds the piece.
    const product = await api
      .client()
      .get<ProductGetResponse>(
        `/_api/products/get?id=${(await api.db.knex('products').where({ category: 'earrings' }).first('id')).id}`,
      );
    const tryOn = product.body.product.tryOnImage!;
    const res = await fetch(api.url + tryOn.url);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const { data, info } = await sharp(Buffer.from(await res.arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    expect([info.width, info.height]).toEqual([tryOn.width, tryOn.height]);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]!;
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(info.width - 1, info.height - 1)).toBe(0);
    // The stud: opaque just below the anchor.
    const ax = Math.round(tryOn.anchorX * info.width);
    const ay = Math.round(tryOn.anchorY * info.height);
    expect(alpha(ax, ay + 6)).toBeGreaterThan(200);
  });

  it('has past orders of the demo customer in every status, with totals that add up', async () => {
    const customer = await api.db.knex('users').where({ email: 'customer@nagai.test' }).first('id');
    const orders = (await api.db.knex('orders').where({ customer_id: customer.id })) as Record<
      string,
      unknown
    >[];
    expect(new Set(orders.map((o) => o.status))).toEqual(
      new Set(['pending', 'confirmed', 'shipped', 'delivered', 'cancelled']),
    );
    for (const o of orders) {
      const items = (await api.db.knex('order_items').where({ order_id: o.id })) as Record<string, unknown>[];
      expect(items.length).toBeGreaterThan(0);
      const subtotal = items.reduce((s, i) => s + toPaise(i.price) * Number(i.quantity), 0);
      const gst = items.reduce((s, i) => s + toPaise(i.gst_amount) * Number(i.quantity), 0);
      expect(toPaise(o.subtotal)).toBe(subtotal);
      expect(toPaise(o.gst_total)).toBe(gst);
      expect(toPaise(o.total_amount)).toBe(subtotal + toPaise(o.shipping_charges));
    }
  });
});

describe('bulk generator', () => {
  it('adds sellers, products with images, customers and orders whose totals add up', async () => {
    const before = toNumber((await api.db.knex('products').count('* as n'))[0].n);
    const summary = await generateBulkData(api.db.knex, {
      products: 300,
      sellers: 12,
      orders: 40,
      batchSize: 120,
    });
    expect(summary).toMatchObject({ products: 300, sellers: 12, orders: 40 });
    expect(toNumber((await api.db.knex('products').count('* as n'))[0].n)).toBe(before + 300);
    const bulkSellers = await api.db
      .knex('seller_profiles as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('u.email', 'like', 'bulk-seller-%')
      .select('s.is_approved', 's.gst_number');
    expect(bulkSellers).toHaveLength(12);
    for (const s of bulkSellers) {
      expect(s.is_approved).toBe(true);
      expect(s.gst_number).toMatch(GSTIN);
    }
    const noImage = await api.db
      .knex('products as p')
      .leftJoin('product_images as i', 'i.product_id', 'p.id')
      .whereNull('i.id')
      .count('* as n');
    expect(toNumber(noImage[0].n)).toBe(0);
    const bad = await api.db.knex.raw(`
      select o.id from orders o join order_items i on i.order_id = o.id
      where o.checkout_ref like 'bulk-%'
      group by o.id, o.subtotal, o.gst_total, o.total_amount
      having o.subtotal <> sum(i.price * i.quantity) or o.gst_total <> sum(i.gst_amount * i.quantity)
        or o.total_amount <> o.subtotal`);
    expect((bad as { rows: unknown[] }).rows).toHaveLength(0);
    // A second run on the same database does not collide with the first.
    await generateBulkData(api.db.knex, { products: 5, sellers: 1 });
  }, 240_000);
});

describe('demo orders follow the payment model (#34)', () => {
  it('gives every paid online order an applied gateway payment, so its shop can cancel and refund it', async () => {
    const paid = (await api.db
      .knex('orders')
      .whereNot({ payment_method: 'cash_on_delivery' })
      .where({ payment_status: 'paid' })
      .where('checkout_ref', 'like', 'demo-checkout-%')
      .select('id', 'seller_id', 'status', 'gateway_order_id')) as {
      id: number;
      seller_id: number;
      status: string;
      gateway_order_id: string | null;
    }[];
    expect(paid.length).toBeGreaterThan(0);
    for (const order of paid) {
      const payment = await api.db
        .knex('gateway_payments')
        .where({ gateway_order_id: order.gateway_order_id ?? '', applied: true })
        .first();
      expect(payment, `order ${order.id}`).toBeTruthy();
    }
    const open = paid.find((o) => o.status === 'pending' || o.status === 'confirmed')!;
    const seller = await signIn(api, { id: open.seller_id });
    const res = await seller.post<{ order: { status: string; paymentStatus: string } }>(
      '/_api/orders/update-status',
      { orderId: open.id, status: 'cancelled', cancelReason: 'customer_asked' },
    );
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded' });
  });

  it('answers a clear 409 (never a 500) for an order marked paid without a gateway payment, changing nothing', async () => {
    // Made the way the old demo data was: marked paid, no payment behind it.
    const [made] = (await api.db
      .knex('orders')
      .insert({
        customer_id: (await api.db.knex('users').where({ role: 'customer' }).first('id')).id,
        seller_id: (await api.db.knex('seller_profiles').first('user_id')).user_id,
        checkout_ref: 'no-payment',
        status: 'confirmed',
        subtotal: '500.00',
        total_amount: '500.00',
        customer_name: 'Priya Raman',
        customer_phone: '9840098400',
        shipping_address: '21 Luz Church Road',
        city: 'Chennai',
        state: 'Tamil Nadu',
        pin_code: '600004',
        payment_method: 'upi',
        payment_status: 'paid',
      })
      .returning(['id', 'seller_id'])) as { id: number; seller_id: number }[];
    const seller = await signIn(api, { id: made.seller_id });
    const res = await seller.post<{ code?: string; error?: string }>('/_api/orders/update-status', {
      orderId: made.id,
      status: 'cancelled',
      cancelReason: 'customer_asked',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'no_payment_to_refund' });
    expect(await api.db.knex('orders').where({ id: made.id }).first('status', 'payment_status')).toEqual({
      status: 'confirmed',
      payment_status: 'paid',
    });
  });
});
