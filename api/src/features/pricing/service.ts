import type { Knex } from 'knex';
import {
  PRICING_MESSAGES,
  type HuidMissingResponse,
  type MetalRate,
  type SetRatesInput,
  type TaxSettings,
} from '../../../contract/invoices';
import {
  defaultInvoicePrefix,
  gstInInclusive,
  HUID_REQUIRED_FROM_MG,
  METAL_PURITIES,
  type Metal,
  type MetalPurity,
} from '../../../contract/pricing';
import { formatInr, fromPaise, toPaise } from '../../../contract/money';
import { AppError, badRequest } from '../../http/errors';

/**
 * Rate-linked prices (docs/product-rules.md §10, the arithmetic of api/contract/pricing.ts in SQL). Every
 * amount is numeric, so the products and quotients here are exact, and `round(x, 2)` rounds half away from
 * zero, which for these non-negative amounts is the contract's "half up to the paisa":
 *
 *   metal = round(rate × net weight, 2); making = round(metal × percent / 100, 2) or round(per gram × net, 2);
 *   subtotal = metal + making + stones; gst = round(subtotal × 3 / 100, 2); price = subtotal + gst.
 *
 * One UPDATE reprices every product in scope; `price` stays the column listings, search and sorting read, so
 * they follow the rate with no change. making_charges and gst_amount get the computed amounts (what the
 * product's fields show), metal_rate the rate used (the breakdown is computed from it, pricing.ts).
 */
const REPRICE = (scope: string) => `
  with x as (
    select p.id, r.rate_per_gram as rate, mv.metal,
           case when p.making_type = 'percent' then round(mv.metal * p.making_value / 100, 2)
                else round(p.making_value * p.net_weight_g, 2) end as making,
           coalesce(p.stone_charges, 0) as stones
      from products p
      join metal_rates r on r.seller_id = p.seller_id and r.metal = p.metal and r.purity = p.metal_purity
      cross join lateral (select round(r.rate_per_gram * p.net_weight_g, 2) as metal) mv
     where p.pricing_mode = 'rate' and p.deleted_at is null and ${scope}
  ), y as (
    select x.*, x.metal + x.making + x.stones as subtotal from x
  )
  update products p
     set metal_rate = y.rate, making_charges = y.making, gst_amount = round(y.subtotal * 3 / 100, 2),
         price = y.subtotal + round(y.subtotal * 3 / 100, 2), updated_at = ?
    from y
   where p.id = y.id`;

/** Reprices one product from its shop's current rate (after a create or an update); false if no rate. */
export async function repriceProduct(db: Knex, productId: number, now: Date): Promise<boolean> {
  const r = (await db.raw(REPRICE('p.id = ?'), [productId, now])) as { rowCount: number | null };
  return (r.rowCount ?? 0) > 0;
}

interface PricingRow {
  pricing_mode: 'fixed' | 'rate';
  material: string;
  metal: Metal | null;
  metal_purity: MetalPurity | null;
  weight_g: string | null;
  net_weight_g: string | null;
  huid: string | null;
}

const mg = (grams: string | null) => (grams === null ? null : Math.round(Number(grams) * 1000));

/**
 * After a product is written (inside its transaction): a rate-linked product gets its price from the shop's
 * rate (none set: 400, and the write rolls back); a gold piece of 2 g or more needs its HUID when the write
 * touched what the rule reads (material, weights, metal, HUID), so older products are still editable and
 * appear in the admin's list instead.
 */
export async function applyPricingRules(
  trx: Knex,
  productId: number,
  now: Date,
  checkHuid: boolean,
): Promise<void> {
  const row = (await trx('products')
    .where({ id: productId })
    .first(
      'pricing_mode',
      'material',
      'metal',
      'metal_purity',
      trx.raw('weight_g::text as weight_g'),
      trx.raw('net_weight_g::text as net_weight_g'),
      'huid',
    )) as PricingRow | undefined;
  if (!row) return;
  if (row.pricing_mode === 'rate') {
    if (
      row.metal &&
      row.metal_purity &&
      !(METAL_PURITIES[row.metal] as readonly string[]).includes(row.metal_purity)
    ) {
      throw badRequest(PRICING_MESSAGES.purityInvalid, 'validation_failed', [
        { path: 'metalPurity', message: PRICING_MESSAGES.purityInvalid },
      ]);
    }
    if (!(await repriceProduct(trx, productId, now))) {
      const message = PRICING_MESSAGES.rateMissing
        .replace('{metal}', row.metal ?? '')
        .replace('{purity}', row.metal_purity ?? '');
      throw badRequest(message, 'rate_missing', [{ path: 'pricingMode', message }]);
    }
  }
  const netMg = mg(row.net_weight_g);
  const grossMg = mg(row.weight_g);
  if (netMg !== null && grossMg !== null && netMg > grossMg) {
    throw badRequest(PRICING_MESSAGES.netWeightAboveGross, 'validation_failed', [
      { path: 'netWeight', message: PRICING_MESSAGES.netWeightAboveGross },
    ]);
  }
  const articleMg = grossMg ?? netMg;
  const gold = row.material === 'gold' || row.metal === 'gold';
  if (checkHuid && gold && articleMg !== null && articleMg >= HUID_REQUIRED_FROM_MG && !row.huid) {
    throw badRequest(PRICING_MESSAGES.huidRequired, 'huid_required', [
      { path: 'huid', message: PRICING_MESSAGES.huidRequired },
    ]);
  }
}

/**
 * The GST stored beside a product's price is the GST inside that price, as the invoice reads it
 * (docs/product-rules.md §20.1): a figure the seller gave that disagrees is refused (422 gst_mismatch, on the
 * gstAmount field, naming the right figure), and the stored figure is set from the price. Runs after the price
 * is set (applyPricingRules), in the write's transaction, so a refusal writes nothing.
 */
export async function settleGst(
  trx: Knex,
  productId: number,
  given: string | null | undefined,
): Promise<void> {
  const row = (await trx('products').where({ id: productId }).first(trx.raw('price::text as price'))) as
    { price: string } | undefined;
  if (!row) return;
  const pricePaise = toPaise(row.price);
  const expected = gstInInclusive(pricePaise);
  if (given !== null && given !== undefined && toPaise(given) !== expected) {
    const message = PRICING_MESSAGES.gstMismatch
      .replace('{price}', formatInr(pricePaise / 100))
      .replace('{gst}', formatInr(expected / 100))
      .replace('{expected}', fromPaise(expected));
    throw new AppError(422, 'gst_mismatch', message, [{ path: 'gstAmount', message }]);
  }
  await trx('products')
    .where({ id: productId })
    .update({ gst_amount: fromPaise(expected) });
}

interface RateRow {
  metal: Metal;
  purity: MetalPurity;
  rate_per_gram: string;
  set_at: Date | string;
}

const presentRate = (r: RateRow): MetalRate => ({
  metal: r.metal,
  purity: r.purity,
  ratePerGram: r.rate_per_gram,
  setAt: new Date(r.set_at).toISOString(),
});

export async function listRates(db: Knex, sellerId: number): Promise<MetalRate[]> {
  const rows = (await db('metal_rates')
    .where({ seller_id: sellerId })
    .orderBy(['metal', 'purity'])
    .select('metal', 'purity', db.raw('rate_per_gram::text as rate_per_gram'), 'set_at')) as RateRow[];
  const order = Object.values(METAL_PURITIES).flat() as string[];
  return rows.map(presentRate).sort((a, b) => order.indexOf(a.purity) - order.indexOf(b.purity));
}

/**
 * Sets some of the shop's rates and reprices its products of those metals and purities, in one transaction:
 * one upsert, then one UPDATE (the rates of this change are the ones whose set_at is this moment).
 */
export async function setRates(
  db: Knex,
  sellerId: number,
  input: { rates: { metal: Metal; purity: MetalPurity; ratePerGram: string }[] },
  now: Date,
): Promise<{ rates: MetalRate[]; repriced: number }> {
  // The last value given for a metal and purity wins.
  const byKey = new Map(input.rates.map((r) => [`${r.metal}:${r.purity}`, r]));
  const repriced = await db.transaction(async (trx) => {
    await trx('metal_rates')
      .insert(
        [...byKey.values()].map((r) => ({
          seller_id: sellerId,
          metal: r.metal,
          purity: r.purity,
          rate_per_gram: r.ratePerGram,
          set_at: now,
        })),
      )
      .onConflict(['seller_id', 'metal', 'purity'])
      .merge(['rate_per_gram', 'set_at']);
    const r = (await trx.raw(REPRICE('p.seller_id = ? and r.set_at = ?'), [sellerId, now, now])) as {
      rowCount: number | null;
    };
    return r.rowCount ?? 0;
  });
  return { rates: await listRates(db, sellerId), repriced };
}
export type { SetRatesInput };

/** Shops whose gold pieces of 2 g or more (gross weight, else net) have no HUID, most first. */
export async function huidMissing(db: Knex): Promise<HuidMissingResponse> {
  const { rows } = (await db.raw(
    `select p.seller_id, sp.shop_name, count(*)::int as missing,
            (array_agg(p.id order by p.id))[1:20] as product_ids
       from products p join seller_profiles sp on sp.user_id = p.seller_id
      where p.deleted_at is null and p.huid is null and (p.material = 'gold' or p.metal = 'gold')
        and coalesce(p.weight_g, p.net_weight_g) >= ?
      group by p.seller_id, sp.shop_name
      order by missing desc, p.seller_id`,
    [HUID_REQUIRED_FROM_MG / 1000],
  )) as { rows: { seller_id: number; shop_name: string; missing: number; product_ids: number[] }[] };
  return {
    shops: rows.map((r) => ({
      sellerId: r.seller_id,
      shopName: r.shop_name,
      missing: r.missing,
      productIds: r.product_ids,
    })),
  };
}

interface TaxRow {
  shop_name: string;
  legal_name: string | null;
  gst_number: string | null;
  gst_state_code: string | null;
  invoice_prefix: string | null;
}

const presentTax = (r: TaxRow): TaxSettings => ({
  legalName: r.legal_name,
  gstin: r.gst_number,
  stateCode: r.gst_state_code ?? (r.gst_number ? r.gst_number.slice(0, 2) : null),
  invoicePrefix: r.invoice_prefix ?? defaultInvoicePrefix(r.shop_name),
});

export async function getTaxSettings(db: Knex, sellerId: number): Promise<TaxSettings | null> {
  const row = (await db('seller_profiles')
    .where({ user_id: sellerId })
    .first('shop_name', 'legal_name', 'gst_number', 'gst_state_code', 'invoice_prefix')) as
    TaxRow | undefined;
  return row ? presentTax(row) : null;
}

export async function setTaxSettings(
  db: Knex,
  sellerId: number,
  input: { legalName: string; gstin: string; stateCode: string; invoicePrefix: string },
  now: Date,
): Promise<TaxSettings | null> {
  await db('seller_profiles').where({ user_id: sellerId }).update({
    legal_name: input.legalName,
    gst_number: input.gstin,
    gst_state_code: input.stateCode,
    invoice_prefix: input.invoicePrefix,
    updated_at: now,
  });
  return getTaxSettings(db, sellerId);
}
