import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { insufficientStockMessage } from '../../../contract/cart';
import { CHECKOUT_MESSAGES, type CheckoutData, type CheckoutResponse } from '../../../contract/checkout';
import { hotQuery } from '../../../../db/connection';
import type { AppDeps } from '../../http/context';
import { AppError, badRequest, conflict, tooManyRequests } from '../../http/errors';
import { queryWithSession, type SessionRow } from '../../http/session';
import { GST_PERCENT, HSN_IMITATION, HSN_JEWELLERY, IMITATION_MATERIALS } from '../../../contract/pricing';
import { buyerStateCode } from '../invoices/service';
import { loadOrders } from '../orders/service';
import { isOnlinePayment } from '../../../contract/constants';
import { LARGE_ORDER_PAISE, maskPan, PAYMENT_MESSAGES } from '../../../contract/payments';
import { encryptPan } from '../payments/pan';

const SCOPE = 'checkout';
/**
 * A key left 'in_progress' (by the earlier two-step checkout, which claimed keys before placing the orders)
 * and older than this belongs to a request that died; a retry may take it over.
 */
const STALE_CLAIM_SECONDS = 60;

export interface CheckoutUser {
  id: number;
  role: string;
}

export interface CheckoutResult {
  status: number;
  body: CheckoutResponse;
}

/** Order-independent hash of the validated body: the same checkout sent twice hashes the same. */
export function checkoutRequestHash(input: CheckoutData): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .sort()
      .map((k) => [k, input[k as keyof CheckoutData]]),
  );
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

/** Database refusals that mean "the data changed under us", shown as a clear 409 rather than a 500. */
function isConflictError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('23') || code === '22003' || code === '40001' || code === '40P01')
  );
}

/** 409 with the product rules' stock text; the product is named in issues so the UI can point at the line. */
const insufficientStockError = (productId: number, name: string, available: number) =>
  new AppError(409, 'insufficient_stock', insufficientStockMessage(available), [
    { path: `product.${productId}`, message: name },
  ]);

/**
 * The whole checkout is one statement, so one round trip and one commit, with the session lookup (`me`, see
 * queryWithSession) in it too. A statement is atomic: it writes everything or nothing. Nothing is written
 * unless the session is a customer's, the key is new, and every cart line can be bought:
 *
 * - `existing`: the key's row, when this customer used the key before (then nothing else runs).
 * - `unpaid`: the customer's open unpaid orders (awaiting their shop, not paid); at UNPAID_ORDERS_MAX_PER_CUSTOMER
 *   nothing is placed, so unpaid orders cannot freeze a shop's stock (they are also released after a while).
 * - `unpaid_units`, `unpaid_shop_units`, `shop_units`, `over_shop`: the units (of counted stock) in those orders,
 *   per product and per shop; a line or a shop past UNPAID_UNITS_MAX_PER_PRODUCT / _PER_SHOP places nothing.
 * - `cart`, `locked`: the cart lines are locked, then their products in product id order (so two checkouts
 *   sharing products cannot deadlock). Locking the cart lines serialises two tabs checking out the same cart:
 *   the second waits, then finds the lines gone (deleted by the first) and sees an empty cart. Locked rows are
 *   read in their latest committed version, so `ok` checks what the update will change.
 * - `held`, `lines`: the customer's own active, unexpired holds of those products (units set aside for them
 *   after a call, already out of the stock), locked after every product (the products' array is built first)
 *   and in hold id order. Every path that touches a hold locks in this order too: cart line, then product,
 *   then hold (api/src/features/selling/holds.ts), so none of them can deadlock with a checkout. A line uses
 *   up to its quantity of them (`use`), and needs only `quantity − use` more units from the stock.
 * - `claim`: the key, stored completed with the checkout reference; a replay loads the orders of that
 *   reference. If another request with the same key is running, the insert waits for it and then does
 *   nothing, and so does everything that depends on the claim.
 * - `decremented`: stock, less the units the holds already took, with the guard repeated in the update, so it
 *   can never go below zero. The guard and the new value read the locked rows (`locked`), never the statement's
 *   snapshot of `products`: stock can also rise while the statement waits for its locks (a hold released or
 *   expired, an order cancelled), and a guard on the snapshot's older, lower value would skip a line that `ok`
 *   admitted. units_sold is queued (sales.ts), which keeps the update off every index: a HOT update.
 * - `o`, `items`: one order per shop, priced from the locked product rows, never from the client; orders in
 *   seller id order and items in (seller, product) order, so ids grow as they would one by one.
 * - `consumed`: the holds used, marked consumed with their order: their unit now belongs to the order (a
 *   cancelled or released order puts back its whole quantity, as before).
 * - `assert_true` refuses to commit if the decrement and the claim disagree, or the holds consumed and the
 *   lines' use (they cannot while the rows are locked; the check keeps that true if the statement is ever
 *   changed).
 */
const CHECKOUT_CTES = `customer as (
       select id from me where role = 'customer'
     ), unpaid as (
       select count(*)::int as n from orders o join customer c on c.id = o.customer_id
        where o.status in ('pending', 'confirmed') and o.payment_status in ('pending', 'failed', 'cash_due')
          and (o.status = 'pending' or o.payment_status <> 'cash_due')
     ), unpaid_units as (
       select oi.product_id, sum(oi.quantity)::int as units
         from orders o join customer c on c.id = o.customer_id join order_items oi on oi.order_id = o.id
        where o.status in ('pending', 'confirmed') and o.payment_status in ('pending', 'failed', 'cash_due')
          and (o.status = 'pending' or o.payment_status <> 'cash_due')
        group by oi.product_id
     ), unpaid_shop_units as (
       -- Per shop, all its products together: only pieces with counted stock (made-to-order ones freeze nothing).
       select o.seller_id, sum(oi.quantity)::int as units
         from orders o join customer c on c.id = o.customer_id join order_items oi on oi.order_id = o.id
         join products p on p.id = oi.product_id
        where o.status in ('pending', 'confirmed') and o.payment_status in ('pending', 'failed', 'cash_due')
          and (o.status = 'pending' or o.payment_status <> 'cash_due') and p.stock_quantity is not null
        group by o.seller_id
     ), lapses as (
       select count(*)::int as n, max(o.lapsed_at) as last from orders o join customer c on c.id = o.customer_id
        where o.lapsed_at > ?::timestamptz - interval '24 hours'
     ), existing as (
       select k.id, k.request_hash, k.state, k.response_status, k.response_body,
              k.created_at < now() - make_interval(secs => ?) as stale
         from idempotency_keys k join customer c on c.id = k.user_id
        where k.scope = '${SCOPE}' and k.key = ?
     ), cart as materialized (
       select ci.id, ci.product_id, ci.quantity from cart_items ci join customer c on c.id = ci.user_id
        where not exists (select 1 from existing)
        order by ci.product_id
          for update of ci
     ), locked as materialized (
       select p.id, p.name, p.stock_quantity, p.deleted_at is null and coalesce(sp.is_approved, false) as buyable,
              p.price, p.seller_id, coalesce(sp.cash_on_delivery, false) as cod, sp.shop_name
         from products p left join seller_profiles sp on sp.user_id = p.seller_id
        where p.id in (select product_id from cart)
        order by p.id
          for update of p
     ), held as materialized (
       select h.id, h.product_id from product_holds h join customer c on c.id = h.customer_id
        where h.product_id = any(array(select id from locked)) and h.status = 'active' and h.expires_at > ?
        order by h.id
          for update of h
     ), lines as materialized (
       select c.id, c.product_id, c.quantity,
              least(c.quantity, (select count(*) from held h where h.product_id = c.product_id))::int as use
         from cart c
     ), shop_totals as (
       select l.seller_id, min(l.shop_name) as shop_name, bool_and(l.cod) as cod,
              (sum(l.price * c.quantity) * 100)::bigint as total_paise
         from lines c join locked l on l.id = c.product_id group by l.seller_id
     ), shop_units as (
       -- The units a shop would have in this customer's unpaid orders after this checkout.
       select l.seller_id, min(l.shop_name) as shop_name,
              coalesce(sum(c.quantity - c.use) filter (where l.stock_quantity is not null), 0)::int
                + coalesce(min(u.units), 0) as units
         from lines c join locked l on l.id = c.product_id
         left join unpaid_shop_units u on u.seller_id = l.seller_id
        group by l.seller_id
     ), over_shop as (
       select s.seller_id, coalesce(s.shop_name, 'this shop') as shop_name, s.units from shop_units s where s.units > ? order by s.seller_id limit 1
     ), rules as (
       select coalesce(bool_and(?::text <> 'cash_on_delivery' or st.cod), true) as cod_offered,
              coalesce(bool_and(?::text <> 'cash_on_delivery' or st.total_paise < ?), true) as cash_ok,
              coalesce(bool_and(st.total_paise < ? or ?::boolean), true) as pan_ok,
              (select s2.shop_name from shop_totals s2 where not s2.cod order by s2.seller_id limit 1) as no_cod_shop
         from shop_totals st
     ), ok as (
       select count(*) > 0 and count(*) = (select count(*) from cart)
              and bool_and(l.buyable and (l.stock_quantity is null or l.stock_quantity >= c.quantity - c.use))
              and bool_and(l.stock_quantity is null or c.quantity - c.use + coalesce(u.units, 0) <= ?)
              and (select cod_offered and cash_ok and pan_ok from rules)
              and not exists (select 1 from over_shop)
              and (select n from unpaid) < ?
              and (select lp.n <= ? or lp.last + make_interval(secs => least(86400, ? * power(2, lp.n - ? - 1))) <= ?
                     from lapses lp) as ok
         from lines c join locked l on l.id = c.product_id left join unpaid_units u on u.product_id = c.product_id
     ), claim as (
       insert into idempotency_keys (user_id, scope, key, request_hash, state, response_status, response_body)
       select c.id, '${SCOPE}', ?, ?, 'completed', 201, jsonb_build_object('checkoutRef', ?::text)
         from customer c, ok where ok.ok
       on conflict (user_id, scope, key) do nothing
       returning id
     ), decremented as (
       update products p
          set stock_quantity = case when l.stock_quantity is null then null
                                    else l.stock_quantity - (c.quantity - c.use) end,
              updated_at = now()
         from lines c, locked l, claim
        where p.id = c.product_id and l.id = c.product_id and l.buyable
          and (l.stock_quantity is null or l.stock_quantity >= c.quantity - c.use)
       returning p.id, p.name, p.price, p.gst_amount, p.seller_id, p.material, p.metal_purity, p.purity,
                 p.net_weight_g, p.weight_g, p.huid
     ), sold as (
       -- The GST inside the price, as the tax invoice reads it back (pricing.ts gstInInclusive).
       select d.id, d.name, d.price, d.price - round(d.price * 100 / ${100 + GST_PERCENT}, 2) as gst_amount,
              d.seller_id, c.id as line_id,
              c.quantity, d.material, coalesce(d.metal_purity, d.purity) as purity, d.net_weight_g, d.weight_g,
              d.huid
         from decremented d join cart c on c.product_id = d.id
     ), shops as (
       select seller_id, sum(price * quantity) as subtotal, sum(gst_amount * quantity) as gst_total
         from sold group by seller_id
     ), o as (
       insert into orders (customer_id, seller_id, checkout_ref, status, subtotal, gst_total, shipping_charges,
                           total_amount, customer_name, customer_phone, shipping_address, city, state, pin_code,
                           payment_method, payment_status, pay_before, buyer_pan_enc, buyer_pan_masked,
                           buyer_gstin, buyer_state_code)
       select c.id, s.seller_id, ?, 'pending', s.subtotal, s.gst_total, 0, s.subtotal, ?, ?, ?, ?, ?, ?, ?,
              case when ?::text = 'cash_on_delivery' then 'cash_due' else 'pending' end,
              case when ?::text = 'cash_on_delivery' then null else ?::timestamptz end,
              case when s.subtotal * 100 >= ? then ?::text end, case when s.subtotal * 100 >= ? then ?::text end,
              ?::text, ?::text
         from shops s, customer c
        order by s.seller_id
       returning id, seller_id
     ), items as (
       insert into order_items (order_id, product_id, product_name, image_url, price, gst_amount, quantity,
                                hsn, purity, net_weight_g, gross_weight_g, huid)
       select o.id, s.id, s.name,
              (select pi.card_url from product_images pi where pi.product_id = s.id
                order by pi.position limit 1),
              s.price, s.gst_amount, s.quantity,
              case when s.material = any(?::text[]) then ? else ? end, s.purity, s.net_weight_g, s.weight_g,
              s.huid
         from sold s join o on o.seller_id = s.seller_id
        order by s.seller_id, s.id
       returning 1
     ), sales as (
       insert into product_sales_pending (product_id, quantity) select id, quantity from sold
     ), emptied as (
       delete from cart_items where id in (select line_id from sold)
     ), consumed as (
       update product_holds h set status = 'consumed', ended_at = ?, order_id = o.id
         from (select hh.id, hh.product_id, row_number() over (partition by hh.product_id order by hh.id) as n
                 from held hh) x
         join lines c on c.product_id = x.product_id and x.n <= c.use
         join sold s on s.id = x.product_id
         join o on o.seller_id = s.seller_id
        where h.id = x.id and h.status = 'active'
       returning h.id
     )`;

/** One row per existing key (kind 'key') or cart line (kind 'line'), with what the statement did. */
const CHECKOUT_SELECT = `select x.*,
            (select array_agg(o.id order by o.seller_id) from o) as order_ids,
            (select n from unpaid) as unpaid_open,
            (select shop_name from over_shop) as over_shop_name,
            (select n from lapses) as lapses, (select last from lapses) as last_lapse,
            (select cod_offered from rules) as cod_offered, (select cash_ok from rules) as cash_ok,
            (select pan_ok from rules) as pan_ok, (select no_cod_shop from rules) as no_cod_shop,
            (select count(*) from items)::int as item_count,
            assert_true((select count(*) from decremented) =
                          case when exists (select 1 from claim) then (select count(*) from cart) else 0 end,
                        'checkout: the stock update and the claim disagree') as consistent,
            assert_true((select count(*) from consumed) =
                          case when exists (select 1 from claim) then (select coalesce(sum(use), 0) from lines)
                               else 0 end,
                        'checkout: the holds consumed and the lines disagree') as holds_consistent
       from (
         select 'key' as kind, e.id as key_id, e.request_hash, e.state, e.response_status, e.response_body,
                e.stale, null::int as product_id, null::int as quantity, null::text as name,
                null::int as stock_quantity, null::boolean as buyable, null::int as held,
                null::int as unpaid_units
           from existing e
         union all
         select 'line', null, null, null, null, null, null, c.product_id, c.quantity, l.name, l.stock_quantity,
                l.buyable, ln.use, coalesce(u.units, 0)
           from cart c left join locked l on l.id = c.product_id left join lines ln on ln.id = c.id
                left join unpaid_units u on u.product_id = c.product_id
       ) x`;

interface CheckoutRow {
  kind: 'key' | 'line';
  key_id: number | null;
  request_hash: string | null;
  state: 'in_progress' | 'completed' | null;
  response_status: number | null;
  response_body: unknown;
  stale: boolean | null;
  product_id: number | null;
  quantity: number | null;
  name: string | null;
  stock_quantity: number | null;
  buyable: boolean | null;
  /** Units of the line the customer's own holds cover. */
  held: number | null;
  order_ids: number[] | null;
  item_count: number | null;
  unpaid_open: number | null;
  /** The customer's orders that lapsed unpaid in the last 24 hours, and the latest lapse. */
  lapses: number | null;
  last_lapse: Date | string | null;
  /** Units of the line's product in the customer's open unpaid orders. */
  unpaid_units: number | null;
  /** The first shop (by seller id) whose units in unpaid orders this checkout would take past the cap. */
  over_shop_name: string | null;
  cod_offered: boolean | null;
  cash_ok: boolean | null;
  pan_ok: boolean | null;
  no_cod_shop: string | null;
}

interface KeyRow {
  id: number;
  request_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: unknown;
  stale: boolean;
}

/** What a completed key stores: the checkout reference (an answer stored before kept the whole body). */
type StoredAnswer = { checkoutRef: string } | CheckoutResponse;

/** The answer of a checkout that placed orders: the orders as they are now. */
async function ordersOf(db: Knex, user: CheckoutUser, checkoutRef: string): Promise<CheckoutResponse> {
  const ids = (
    await hotQuery<{ id: number }>(
      db,
      'checkout_orders_by_ref',
      `select id from orders where checkout_ref = ? and customer_id = ? order by seller_id`,
      [checkoutRef, user.id],
    )
  ).map((r) => r.id);
  return { orders: await loadOrders(db, ids, user), checkoutRef };
}

/**
 * What a key used before answers: the same orders for the same body, a refusal for a different one, 409
 * while a request of the earlier two-step checkout still holds it; 'retry' when such a request died long
 * ago and its claim was taken back.
 */
async function answerForKey(
  db: Knex,
  user: CheckoutUser,
  hash: string,
  key: KeyRow,
): Promise<CheckoutResult | 'retry'> {
  if (key.request_hash !== hash) {
    throw new AppError(422, 'idempotency_key_reused', CHECKOUT_MESSAGES.idempotencyKeyReused);
  }
  if (key.state === 'completed') {
    const stored = (
      typeof key.response_body === 'string' ? JSON.parse(key.response_body) : key.response_body
    ) as StoredAnswer;
    const status = key.response_status ?? 201;
    if ('orders' in stored) return { status, body: stored };
    return { status, body: await ordersOf(db, user, stored.checkoutRef) };
  }
  if (key.stale) {
    const released = await db('idempotency_keys')
      .where({ id: key.id, state: 'in_progress' })
      .where('created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [STALE_CLAIM_SECONDS]))
      .delete();
    if (released) return 'retry';
  }
  throw conflict(CHECKOUT_MESSAGES.alreadyProcessing, 'checkout_in_progress');
}

/** The key's row as committed now (after this statement found the cart empty or the key taken). */
async function currentKey(db: Knex, userId: number, key: string): Promise<KeyRow | undefined> {
  return (
    (await db.raw(
      `select id, request_hash, state, response_status, response_body,
              created_at < now() - make_interval(secs => ?) as stale
         from idempotency_keys where user_id = ? and scope = ? and key = ?`,
      [STALE_CLAIM_SECONDS, userId, SCOPE, key],
    )) as { rows: KeyRow[] }
  ).rows[0];
}

export interface CheckoutAttempt {
  session: SessionRow | undefined;
  /** The answer, for the caller to give once it has checked the session's role. */
  result: (user: CheckoutUser) => Promise<CheckoutResult>;
}

/**
 * Places the signed-in customer's cart as one order per shop, once per Idempotency-Key: the same key and body
 * replay the same orders, a different body is refused. Runs with the session lookup (SESSION_IN_ROUTE).
 */
export async function checkoutWithSession(
  deps: AppDeps,
  sessionId: string,
  idempotencyKey: string,
  input: CheckoutData,
): Promise<CheckoutAttempt> {
  const { db } = deps;
  const hash = checkoutRequestHash(input);
  const maxUnpaid = deps.config.unpaidOrders.maxPerCustomer;
  const { maxUnitsPerProduct, maxUnitsPerShop, freeLapses, lapseWaitMs } = deps.config.unpaidOrders;
  // Online payment needs a gateway (production without keys has none: cash on delivery only).
  if (isOnlinePayment(input.paymentMethod) && !deps.payments) {
    throw badRequest(PAYMENT_MESSAGES.onlineUnavailable, 'online_payment_unavailable', [
      { path: 'paymentMethod', message: PAYMENT_MESSAGES.onlineUnavailable },
    ]);
  }
  // The PAN is kept only encrypted (and masked for display): docs/product-rules.md "Payments".
  const pan = input.buyerPan
    ? { enc: encryptPan(deps.config.payments.panKey, input.buyerPan), masked: maskPan(input.buyerPan) }
    : undefined;
  const attempt = async () => {
    const checkoutRef = crypto.randomUUID();
    const now = deps.clock.now();
    try {
      const read = await queryWithSession<CheckoutRow>(
        deps,
        sessionId,
        'checkout_place',
        { ctes: CHECKOUT_CTES, select: CHECKOUT_SELECT, orderBy: 'r.kind, r.product_id' },
        [
          now,
          STALE_CLAIM_SECONDS,
          idempotencyKey,
          now,
          maxUnitsPerShop,
          input.paymentMethod,
          input.paymentMethod,
          LARGE_ORDER_PAISE,
          LARGE_ORDER_PAISE,
          !!input.buyerPan,
          maxUnitsPerProduct,
          maxUnpaid,
          freeLapses,
          lapseWaitMs / 1000,
          freeLapses,
          now,
          idempotencyKey,
          hash,
          checkoutRef,
          checkoutRef,
          input.customerName,
          input.customerPhone,
          input.shippingAddress,
          input.city,
          input.state,
          input.pinCode,
          // Online orders start 'pending' (paid through the gateway), cash on delivery 'cash_due'.
          input.paymentMethod,
          input.paymentMethod,
          input.paymentMethod,
          new Date(now.getTime() + deps.config.payments.windowMs),
          LARGE_ORDER_PAISE,
          pan?.enc ?? null,
          LARGE_ORDER_PAISE,
          pan?.masked ?? null,
          // The tax invoice is issued when it is due (on payment, or cash on delivery when shipped), from these.
          input.buyerGstin ?? null,
          buyerStateCode(input),
          [...IMITATION_MATERIALS],
          HSN_IMITATION,
          HSN_JEWELLERY,
          now,
        ],
      );
      return { ...read, checkoutRef };
    } catch (err) {
      if (isConflictError(err)) throw conflict(CHECKOUT_MESSAGES.checkoutConflict, 'checkout_conflict');
      throw err;
    }
  };

  let first = await attempt();
  return {
    session: first.session,
    result: async (user) => {
      for (let round = 0; round < 3; round++) {
        const rows = round === 0 ? first.rows : (first = await attempt()).rows;
        const keyRow = rows.find((r) => r.kind === 'key');
        if (keyRow) {
          const answer = await answerForKey(db, user, hash, {
            id: keyRow.key_id!,
            request_hash: keyRow.request_hash!,
            state: keyRow.state!,
            response_status: keyRow.response_status,
            response_body: keyRow.response_body,
            stale: !!keyRow.stale,
          });
          if (answer === 'retry') continue;
          return answer;
        }
        const lines = rows.filter((r) => r.kind === 'line');
        const orderIds = rows[0]?.order_ids ?? [];
        if (orderIds.length) {
          if (rows[0].item_count !== lines.length) throw new Error('checkout: not every item was inserted');
          return {
            status: 201,
            body: { orders: await loadOrders(db, orderIds, user), checkoutRef: first.checkoutRef },
          };
        }
        // Nothing was written. Too many unpaid orders already hold stock (UNPAID_ORDERS_MAX_PER_CUSTOMER)?
        if (lines.length > 0 && (rows[0].unpaid_open ?? 0) >= maxUnpaid) {
          throw conflict(
            CHECKOUT_MESSAGES.tooManyUnpaid.replace('{n}', String(maxUnpaid)),
            'too_many_unpaid_orders',
          );
        }
        // Orders that keep lapsing unpaid: the next checkout waits, longer after each lapse (docs/security.md).
        const lapses = rows[0]?.lapses ?? 0;
        if (lines.length > 0 && lapses > freeLapses && rows[0].last_lapse) {
          const waitMs = Math.min(86_400_000, lapseWaitMs * 2 ** (lapses - freeLapses - 1));
          const until = new Date(rows[0].last_lapse).getTime() + waitMs;
          const leftMs = until - deps.clock.now().getTime();
          if (leftMs > 0) {
            throw tooManyRequests(
              CHECKOUT_MESSAGES.lapsedUnpaid.replace('{minutes}', String(Math.ceil(leftMs / 60_000))),
              Math.ceil(leftMs / 1000),
              'unpaid_orders_lapsed',
            );
          }
        }
        // No more than UNPAID_UNITS_MAX_PER_PRODUCT units of one product in unpaid orders.
        for (const line of lines) {
          if (line.stock_quantity === null || line.quantity === null) continue;
          const units = line.quantity - (line.held ?? 0) + (line.unpaid_units ?? 0);
          if (units > maxUnitsPerProduct) {
            const text = CHECKOUT_MESSAGES.tooManyUnits
              .replace('{n}', String(maxUnitsPerProduct))
              .replace('{name}', line.name ?? `#${line.product_id}`);
            throw new AppError(409, 'too_many_unpaid_units', text, [
              { path: `product.${line.product_id}`, message: text },
            ]);
          }
        }
        // No more than UNPAID_UNITS_MAX_PER_SHOP units of one shop in unpaid orders, all its products together.
        if (lines.length > 0 && rows[0].over_shop_name !== null) {
          const text = CHECKOUT_MESSAGES.tooManyShopUnits
            .replace('{n}', String(maxUnitsPerShop))
            .replace('{shop}', rows[0].over_shop_name);
          throw new AppError(409, 'too_many_unpaid_shop_units', text);
        }
        // Payment rules (docs/product-rules.md "Payments"): cash on delivery offered, under the cash limit; PAN.
        const first0 = rows[0];
        if (lines.length > 0 && first0?.cod_offered === false) {
          const text = PAYMENT_MESSAGES.cashNotOffered.replace('{shop}', first0.no_cod_shop ?? 'This shop');
          throw badRequest(text, 'cash_not_offered', [{ path: 'paymentMethod', message: text }]);
        }
        if (lines.length > 0 && first0?.cash_ok === false) {
          throw badRequest(PAYMENT_MESSAGES.cashLimit, 'cash_limit', [
            { path: 'paymentMethod', message: PAYMENT_MESSAGES.cashLimit },
          ]);
        }
        if (lines.length > 0 && first0?.pan_ok === false) {
          throw badRequest(PAYMENT_MESSAGES.panRequired, 'pan_required', [
            { path: 'buyerPan', message: PAYMENT_MESSAGES.panRequired },
          ]);
        }
        // Lines that cannot be bought say why, first in product id order.
        for (const line of lines) {
          const name = line.name ?? `#${line.product_id}`;
          if (!line.buyable) {
            throw conflict(
              CHECKOUT_MESSAGES.productUnavailable.replace('{name}', name),
              'product_unavailable',
            );
          }
          const available = line.stock_quantity === null ? null : line.stock_quantity + (line.held ?? 0);
          if (available !== null && available < line.quantity!) {
            throw insufficientStockError(line.product_id!, name, available);
          }
        }
        // An empty cart, or a cart that could be bought but whose key another request with the same key took
        // first (its cart lines are then gone too): that request's answer, if it placed orders.
        const now = await currentKey(db, user.id, idempotencyKey);
        if (now) {
          const answer = await answerForKey(db, user, hash, now);
          if (answer === 'retry') continue;
          return answer;
        }
        if (lines.length === 0) throw badRequest(CHECKOUT_MESSAGES.cartEmpty, 'cart_empty');
        throw conflict(CHECKOUT_MESSAGES.checkoutConflict, 'checkout_conflict');
      }
      throw conflict(CHECKOUT_MESSAGES.alreadyProcessing, 'checkout_in_progress');
    },
  };
}
