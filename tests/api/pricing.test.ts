import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPaise } from '../../api/contract/money';
import type { Cart } from '../../api/contract/cart';
import { PRICING_MESSAGES, type TaxInvoice } from '../../api/contract/invoices';
import type { ProductMutationResponse } from '../../api/contract/products';
import { financialYear, gramsToMg, priceBreakdown } from '../../api/contract/pricing';
import { buildProduct, buildSeller, buildUser, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { checkoutBody, checkoutPaid, newCustomer, postCheckout, signIn } from './checkout-support';

let api: TestApi;
let shop: BuiltSeller;
let asShop: ApiClient;
const IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

beforeAll(async () => {
  api = await startTestApi({ env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' } });
  shop = await buildSeller(api.db.knex, { shopName: 'Lakshmi Jewellers', state: 'Tamil Nadu' });
  asShop = await signIn(api, shop);
});
afterAll(async () => api?.close());

const ratedChain = (overrides: Record<string, unknown> = {}) => ({
  name: 'Rate-linked chain',
  description: 'A 22K chain priced from the day’s rate.',
  category: 'chains',
  material: 'gold',
  images: [IMAGE],
  pricingMode: 'rate',
  metal: 'gold',
  metalPurity: '22K',
  netWeight: '10.5',
  weight: '11.2',
  makingType: 'percent',
  makingValue: '12',
  stoneCharges: '1500',
  huid: 'ab12cd',
  ...overrides,
});

const setRate = (client: ApiClient, metal: string, purity: string, ratePerGram: string) =>
  client.post<{
    rates: { metal: string; purity: string; ratePerGram: string }[];
    repriced: number;
    error?: string;
  }>('/_api/seller/rates', { rates: [{ metal, purity, ratePerGram }] });

describe('metal rates and rate-linked products', () => {
  it('refuses a rate-linked product before the shop has that rate', async () => {
    const res = await asShop.post<{ error: string }>('/_api/products/create', ratedChain());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/22K rate/);
  });

  it('prices a rate-linked product from the rate, and reprices it when the rate changes', async () => {
    const set = await setRate(asShop, 'gold', '22K', '6750');
    expect(set.status).toBe(200);
    expect(set.body.rates).toEqual([
      expect.objectContaining({ metal: 'gold', purity: '22K', ratePerGram: '6750.00' }),
    ]);
    const res = await asShop.post<ProductMutationResponse>('/_api/products/create', ratedChain());
    expect(res.status).toBe(201);
    const p = res.body.product;
    // ₹70,875 metal + 12% making ₹8,505 + ₹1,500 stones = ₹80,880; GST ₹2,426.40.
    expect(p.price).toBe('83306.40');
    expect(p.gstAmount).toBe('2426.40');
    expect(p.rateLinked).toEqual({
      metal: 'gold',
      purity: '22K',
      netWeight: '10.500',
      makingType: 'percent',
      makingValue: '12.00',
      ratePerGram: '6750.00',
    });
    expect(p.huid).toBe('AB12CD');

    const again = await setRate(asShop, 'gold', '22K', '7000.50');
    expect(again.body.repriced).toBeGreaterThanOrEqual(1);
    const got = await api.client().get<{ product: { price: string } }>(`/_api/products/get?id=${p.id}`);
    const expected = priceBreakdown({
      ratePaisePerGram: 700_050,
      netWeightMg: 10_500,
      makingType: 'percent',
      makingHundredths: 1200,
      stonePaise: 150_000,
    });
    expect(toPaise(got.body.product.price)).toBe(expected.total);
    // Sorting by price reads the same column.
    const list = await api
      .client()
      .get<{ products: { id: number; price: string }[] }>(
        `/_api/products/list?sellerId=${shop.id}&sortBy=price-desc`,
      );
    expect(list.body.products.find((x) => x.id === p.id)?.price).toBe(got.body.product.price);
  });

  it('the SQL repricing and the contract arithmetic agree to the paisa (property, 40 products)', async () => {
    const seller = await buildSeller(api.db.knex);
    const client = await signIn(api, seller);
    const cases = fc.sample(
      fc.record({
        rate: fc.integer({ min: 100, max: 2_000_000 }),
        mg: fc.integer({ min: 1, max: 500_000 }),
        type: fc.constantFrom('percent', 'per_gram'),
        making: fc.integer({ min: 0, max: 9_999 }),
        stones: fc.integer({ min: 0, max: 10_000_000 }),
      }),
      { numRuns: 40, seed: 25 },
    );
    const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
    const grams = (mg: number) => `${Math.floor(mg / 1000)}.${String(mg % 1000).padStart(3, '0')}`;
    for (const c of cases) {
      await setRate(client, 'silver', '925', rupees(c.rate));
      const res = await client.post<ProductMutationResponse & { error?: string }>(
        '/_api/products/create',
        ratedChain({
          material: 'silver',
          metal: 'silver',
          metalPurity: '925',
          netWeight: grams(c.mg),
          weight: null,
          makingType: c.type,
          makingValue: rupees(c.making),
          stoneCharges: c.stones ? rupees(c.stones) : null,
          huid: null,
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const b = priceBreakdown({
        ratePaisePerGram: c.rate,
        netWeightMg: gramsToMg(grams(c.mg)),
        makingType: c.type as 'percent' | 'per_gram',
        makingHundredths: c.making,
        stonePaise: c.stones,
      });
      expect(toPaise(res.body.product.price), JSON.stringify(c)).toBe(b.total);
      expect(toPaise(res.body.product.gstAmount!), JSON.stringify(c)).toBe(b.gst);
      expect(toPaise(res.body.product.makingCharges!), JSON.stringify(c)).toBe(b.making);
    }
  });

  it('keeps fixed-price products as they were', async () => {
    const res = await asShop.post<ProductMutationResponse>('/_api/products/create', {
      name: 'Fixed ring',
      description: 'A ring with a fixed price.',
      price: '2500',
      category: 'rings',
      material: 'silver',
      images: [IMAGE],
    });
    expect(res.status).toBe(201);
    expect(res.body.product.price).toBe('2500.00');
    expect(res.body.product.rateLinked).toBeNull();
    const noPrice = await asShop.post<{ error: string }>('/_api/products/create', {
      name: 'Fixed ring',
      description: 'A ring with a fixed price.',
      category: 'rings',
      material: 'silver',
      images: [IMAGE],
    });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.error).toBe('Price must be a positive amount.');
  });

  it('requires a HUID on gold of 2 g or more, and the admin sees shops lacking one', async () => {
    const noHuid = await asShop.post<{ error: string }>('/_api/products/create', ratedChain({ huid: null }));
    expect(noHuid.status).toBe(400);
    expect(noHuid.body.error).toMatch(/HUID/);
    const bad = await asShop.post<{ error: string }>('/_api/products/create', ratedChain({ huid: 'AB-12' }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/HUID must be 6/);
    const light = await asShop.post(
      '/_api/products/create',
      ratedChain({ huid: null, netWeight: '1.5', weight: '1.9' }),
    );
    expect(light.status).toBe(201);

    await buildProduct(api.db.knex, shop.id, { material: 'gold' }); // 8.5 g, no HUID (an older product)
    const admin = await buildUser(api.db.knex, { role: 'admin' });
    const asAdmin = await signIn(api, admin);
    const report = await asAdmin.get<{ shops: { sellerId: number; missing: number }[] }>(
      '/_api/admin/huid-missing',
    );
    expect(report.status).toBe(200);
    expect(report.body.shops.find((s) => s.sellerId === shop.id)?.missing).toBeGreaterThanOrEqual(1);
    expect((await asShop.get('/_api/admin/huid-missing')).status).toBe(403);
  });

  it('only a seller sets rates, for their own shop; bad rates are refused', async () => {
    const { client } = await newCustomer(api);
    expect((await setRate(client, 'gold', '22K', '1')).status).toBe(403);
    const bad = await setRate(asShop, 'gold', '925', '100');
    expect(bad.status).toBe(400);
    expect((await setRate(asShop, 'gold', '22K', '-5')).status).toBe(400);
  });
});

describe('the cart says when a price moved', () => {
  it('carries the price at add time and the current one', async () => {
    const seller = await buildSeller(api.db.knex);
    const client = await signIn(api, seller);
    await setRate(client, 'platinum', '950', '3000');
    const created = await client.post<ProductMutationResponse>(
      '/_api/products/create',
      ratedChain({ material: 'platinum', metal: 'platinum', metalPurity: '950', huid: null }),
    );
    const { client: buyer } = await newCustomer(api);
    await buyer.post('/_api/cart/add', { productId: created.body.productId, quantity: 1 });
    let cart = (await buyer.get<Cart>('/_api/cart/list')).body;
    expect(cart.items[0]).toMatchObject({ priceChanged: false, priceAtAdd: created.body.product.price });
    await setRate(client, 'platinum', '950', '3100');
    cart = (await buyer.get<Cart>('/_api/cart/list')).body;
    expect(cart.items[0].priceChanged).toBe(true);
    expect(cart.items[0].priceAtAdd).toBe(created.body.product.price);
    expect(toPaise(cart.items[0].price)).toBeGreaterThan(toPaise(created.body.product.price));
    // The order is placed at the current price, and locked there.
    const res = await postCheckout(buyer, checkoutBody());
    expect(res.status).toBe(201);
    expect(res.body.orders[0].items[0].price).toBe(cart.items[0].price);
    await setRate(client, 'platinum', '950', '5000');
    const order = await buyer.get<{ order: { items: { price: string }[] } }>(
      `/_api/order/details?orderId=${res.body.orders[0].id}`,
    );
    expect(order.body.order.items[0].price).toBe(cart.items[0].price);
  });
});

describe('the GST tax invoice', () => {
  let seller: BuiltSeller;
  let asSeller: ApiClient;
  beforeAll(async () => {
    seller = await buildSeller(api.db.knex, { shopName: 'Lakshmi Jewellers', state: 'Tamil Nadu' });
    asSeller = await signIn(api, seller);
  });

  it('validates the shop’s tax settings', async () => {
    const bad = await asSeller.post<{ error: string }>('/_api/seller/tax-settings', {
      legalName: 'Lakshmi Jewellers Pvt Ltd',
      gstin: '29ABCDE1234F1Z5',
      stateCode: '33',
      invoicePrefix: 'LAK',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/state code/);
    expect(
      (
        await asSeller.post('/_api/seller/tax-settings', {
          legalName: 'L',
          gstin: '33ABCDE1234F1Z5',
          stateCode: '33',
          invoicePrefix: 'LAK',
        })
      ).status,
    ).toBe(400);
    const ok = await asSeller.post<{ settings: unknown }>('/_api/seller/tax-settings', {
      legalName: 'Lakshmi Jewellers Pvt Ltd',
      gstin: '33abcde1234f1z5',
      stateCode: '33',
      invoicePrefix: 'lak',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toEqual({
      legalName: 'Lakshmi Jewellers Pvt Ltd',
      gstin: '33ABCDE1234F1Z5',
      stateCode: '33',
      invoicePrefix: 'LAK',
    });
  });

  it('numbers invoices per shop and year, splits CGST/SGST within the state and IGST across', async () => {
    const p = await buildProduct(api.db.knex, seller.id, { price: '10300.01', stockQuantity: null });
    const imitation = await buildProduct(api.db.knex, seller.id, {
      price: '515',
      material: 'artificial',
      stockQuantity: null,
    });
    const fy = financialYear(api.clock.now());

    const { client: local } = await newCustomer(api);
    await local.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    await local.post('/_api/cart/add', { productId: imitation.id, quantity: 2 });
    const first = await checkoutPaid(api, local, checkoutBody());
    expect(first.status).toBe(201);
    const inv1 = (
      await local.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${first.body.orders[0].id}`)
    ).body.invoice;
    expect(inv1.invoice.number).toBe(`LAK/${fy}/000001`);
    expect(inv1.supply).toBe('intra');
    expect(inv1.placeOfSupply).toBe('Tamil Nadu (33)');
    expect(inv1.seller).toMatchObject({
      legalName: 'Lakshmi Jewellers Pvt Ltd',
      gstin: '33ABCDE1234F1Z5',
      stateCode: '33',
    });
    // 10300.01 → taxable 10000.01, GST 300.00; 515 → 500 + 15, twice.
    expect(inv1.lines.map((l) => [l.hsn, l.taxableValue, l.gst, l.total])).toEqual([
      ['7113', '10000.01', '300.00', '10300.01'],
      ['7117', '1000.00', '30.00', '1030.00'],
    ]);
    expect(inv1.lines[0]).toMatchObject({ purity: '22K', grossWeight: '8.500' });
    expect([inv1.taxableValue, inv1.cgst, inv1.sgst, inv1.igst, inv1.totalGst, inv1.total]).toEqual([
      '11000.01',
      '165.00',
      '165.00',
      '0.00',
      '330.00',
      '11330.01',
    ]);
    expect(inv1.amountInWords).toBe('Rupees Eleven Thousand Three Hundred Thirty and One Paise Only');
    expect(inv1.reverseCharge).toBe(false);

    const { client: away } = await newCustomer(api);
    await away.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    // The buyer's GSTIN is optional but checked on the server (and takes no invoice number when refused).
    const badGstin = await postCheckout(away, checkoutBody({ buyerGstin: '29AAACB1234' }));
    expect(badGstin.status).toBe(400);
    expect(badGstin.body.error).toBe(PRICING_MESSAGES.gstinInvalid);
    const second = await checkoutPaid(
      api,
      away,
      checkoutBody({
        state: 'Karnataka',
        city: 'Bengaluru',
        pinCode: '560001',
        buyerGstin: '29AAACB1234C1Z9',
      }),
    );
    expect(second.status).toBe(201);
    const inv2 = (
      await away.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${second.body.orders[0].id}`)
    ).body.invoice;
    expect(inv2.invoice.number).toBe(`LAK/${fy}/000002`);
    expect(inv2.supply).toBe('inter');
    expect(inv2.buyer.gstin).toBe('29AAACB1234C1Z9');
    expect([inv2.cgst, inv2.sgst, inv2.igst]).toEqual(['0.00', '0.00', '300.00']);

    // Only the order's customer and its seller see it.
    expect((await asSeller.get(`/_api/order/invoice?orderId=${second.body.orders[0].id}`)).status).toBe(200);
    expect((await local.get(`/_api/order/invoice?orderId=${second.body.orders[0].id}`)).status).toBe(404);
    expect((await asShop.get(`/_api/order/invoice?orderId=${second.body.orders[0].id}`)).status).toBe(404);
    expect((await api.client().get(`/_api/order/invoice?orderId=${second.body.orders[0].id}`)).status).toBe(
      401,
    );

    // A cancellation issues a credit note of its own series; the invoice stays as it was.
    const cancel = await asSeller.post('/_api/orders/update-status', {
      orderId: second.body.orders[0].id,
      status: 'cancelled',
      cancelReason: 'cannot_deliver',
    });
    expect(cancel.status).toBe(200);
    const after = (
      await away.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${second.body.orders[0].id}`)
    ).body.invoice;
    expect(after.invoice).toEqual(inv2.invoice);
    expect(after.creditNote?.number).toBe(`LAK/CN/${fy}/000001`);
    expect(after.total).toBe(inv2.total);

    // A later settings change does not rewrite issued invoices.
    await asSeller.post('/_api/seller/tax-settings', {
      legalName: 'Renamed Jewellers LLP',
      gstin: '33ABCDE1234F1Z5',
      stateCode: '33',
      invoicePrefix: 'RNJ',
    });
    const again = (
      await local.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${first.body.orders[0].id}`)
    ).body.invoice;
    expect(again.seller.legalName).toBe('Lakshmi Jewellers Pvt Ltd');
    expect(again.invoice.number).toBe(`LAK/${fy}/000001`);
  });

  it('renders the invoice as a PDF with the GSTIN, HSN, tax split and number in its text', async () => {
    const p = await buildProduct(api.db.knex, seller.id, {
      price: '20600',
      stockQuantity: null,
      name: 'தங்க சங்கிலி',
    });
    const { client } = await newCustomer(api);
    await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    const placed = await checkoutPaid(api, client, checkoutBody());
    const orderId = placed.body.orders[0].id;
    const inv = (await client.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${orderId}`)).body
      .invoice;

    const res = await fetch(`${api.url}/_api/order/invoice.pdf?orderId=${orderId}`, {
      headers: { Cookie: client.cookieHeader() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain(inv.invoice.number);
    expect(text).toContain('33ABCDE1234F1Z5');
    expect(text).toContain('7113');
    expect(text).toContain('CGST 1.5%');
    expect(text).toContain('SGST 1.5%');
    expect(text).toContain('₹300');
    expect(text).toContain('Tax payable on reverse charge: No');
    expect(text).toContain('Rupees Twenty Thousand Six Hundred Only');
    expect(text).toContain('தங்க சங்கிலி');
    expect(text).not.toContain('PAN:');
    expect(inv.buyer.panMasked).toBeNull();

    const { client: other } = await newCustomer(api);
    const refused = await fetch(`${api.url}/_api/order/invoice.pdf?orderId=${orderId}`, {
      headers: { Cookie: other.cookieHeader() },
    });
    expect(refused.status).toBe(404);
  });

  it('prints the buyer’s PAN masked, never whole, on the invoice of an order of ₹2,00,000 or more', async () => {
    const p = await buildProduct(api.db.knex, seller.id, { price: '206000', stockQuantity: null });
    const { client } = await newCustomer(api);
    await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
    const placed = await checkoutPaid(
      api,
      client,
      checkoutBody({ paymentMethod: 'upi', buyerPan: 'kvyam4321p' }),
    );
    expect(placed.status).toBe(201);
    const orderId = placed.body.orders[0].id;
    const inv = (await client.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${orderId}`)).body
      .invoice;
    expect(inv.buyer.panMasked).toBe('KVYAM****P');
    // The seller's view of the same invoice carries the same masked PAN.
    const sellers = (await asSeller.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${orderId}`))
      .body.invoice;
    expect(sellers.buyer.panMasked).toBe('KVYAM****P');

    const res = await fetch(`${api.url}/_api/order/invoice.pdf?orderId=${orderId}`, {
      headers: { Cookie: client.cookieHeader() },
    });
    expect(res.status).toBe(200);
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('PAN: KVYAM****P');
    expect(text).not.toContain('KVYAM4321P');
    expect(text).toContain(inv.invoice.number);
  });
});

/** The text of a PDF, page by page (pdfjs-dist, the PDF.js reader). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: bytes, useSystemFonts: false }).promise;
  const out: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    let line = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      line += item.str + (item.hasEOL ? '\n' : '');
    }
    out.push(line);
  }
  await doc.destroy();
  return out.join('\n');
}
