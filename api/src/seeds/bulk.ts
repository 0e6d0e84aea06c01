import type { Knex } from 'knex';
import { PRODUCT_CATEGORIES, type ProductCategory, type ProductMaterial } from '../../contract/constants';
import type { StoredImage } from '../../contract/media';
import { hashPassword } from '../features/accounts/password';
import { ingestImage } from '../features/media/service';
import {
  CATEGORY_MATERIALS,
  CITIES,
  createRng,
  makeGstin,
  makePhone,
  makeProduct,
  rupees,
  slugify,
  type ProductDraft,
} from './catalogue';
import { DEMO_PASSWORD } from './demo';
import { drawProductPng } from './images';

export interface BulkOptions {
  products: number;
  sellers: number;
  orders?: number;
  customers?: number;
  /** Rows per INSERT statement. */
  batchSize?: number;
  seed?: number;
  log?: (m: string) => void;
}

export interface BulkSummary {
  sellers: number;
  customers: number;
  products: number;
  orders: number;
  orderItems: number;
  images: number;
  ms: number;
}

const NAME_FIRST = ['Sri', 'Shree', 'New', 'Royal', 'Sree', 'Om', 'Raja', 'Annai'];
const NAME_MID = [
  'Lakshmi',
  'Saravana',
  'Murugan',
  'Padmavathi',
  'Annapoorna',
  'Kaveri',
  'Meenakshi',
  'Balaji',
  'Vinayaka',
  'Bhagyalakshmi',
  'Kamakshi',
  'Ayyappa',
  'Guruvayur',
  'Chamundi',
  'Tirumala',
  'Velan',
];
const NAME_LAST = [
  'Jewellers',
  'Thanga Maaligai',
  'Nagai Kadai',
  'Gold Palace',
  'Bangaru Nagalu',
  'Chinnada Angadi',
  'Jewellery Mart',
  'Swarna Mahal',
  'Aabharanam',
];
const OWNERS = [
  'Ganesh',
  'Karthikeyan',
  'Lakshmi',
  'Venkatesh',
  'Anitha',
  'Rajesh',
  'Divya',
  'Suresh',
  'Kavitha',
  'Mohan',
  'Deepa',
  'Prakash',
];
const SURNAMES = ['Iyer', 'Reddy', 'Nair', 'Gowda', 'Pillai', 'Naidu', 'Menon', 'Rao', 'Chettiar', 'Shetty'];

/** Inserts rows through one jsonb_to_recordset statement: set-based, identical on pg and PGlite. */
async function insertJson(
  knex: Knex,
  table: string,
  columns: [name: string, type: string][],
  rows: Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([n]) => n).join(', ');
  const defs = columns.map(([n, t]) => `${n} ${t}`).join(', ');
  await knex.raw(
    `insert into ${table} (${names}) select ${names} from jsonb_to_recordset(?::jsonb) as r(${defs})`,
    [JSON.stringify(rows)],
  );
}

/** Reserves n ids from a table's serial sequence, so rows and their children can be linked before insert. */
async function reserveIds(knex: Knex, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const res = (await knex.raw(
    `select nextval(pg_get_serial_sequence(?, 'id'))::int as id from generate_series(1, ?::int)`,
    [table, n],
  )) as { rows: { id: number }[] };
  return res.rows.map((r) => Number(r.id));
}

const PRODUCT_COLUMNS: [string, string][] = [
  ['id', 'int'],
  ['seller_id', 'int'],
  ['name', 'text'],
  ['description', 'text'],
  ['price', 'numeric'],
  ['category', 'text'],
  ['material', 'text'],
  ['stock_quantity', 'int'],
  ['sku', 'text'],
  ['width_mm', 'numeric'],
  ['height_mm', 'numeric'],
  ['size', 'text'],
  ['purity', 'text'],
  ['weight_g', 'numeric'],
  ['diamonds_total_count', 'int'],
  ['diamonds_type', 'text'],
  ['diamonds_total_weight', 'numeric'],
  ['gemstone_total_count', 'int'],
  ['gemstone_type', 'text'],
  ['making_charges', 'numeric'],
  ['stone_charges', 'numeric'],
  ['discount_amount', 'numeric'],
  ['gst_amount', 'numeric'],
  ['size_available', 'jsonb'],
  ['is_custom_made', 'boolean'],
  ['rating_avg', 'numeric'],
  ['rating_count', 'int'],
  ['units_sold', 'int'],
  ['created_at', 'timestamptz'],
];

interface ProductRef {
  id: number;
  name: string;
  pricePaise: number;
  gstPaise: number;
  image: string;
}

const toPaise = (v: string) => Math.round(Number(v) * 100);
const DAY_MS = 86_400_000;

/** Adds a large synthetic data set (sellers, products with images, customers, orders) for benchmarks. */
export async function generateBulkData(knex: Knex, opts: BulkOptions): Promise<BulkSummary> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  const rng = createRng(opts.seed ?? 424242);
  const batch = opts.batchSize ?? 5000;
  const orders = opts.orders ?? 0;
  const customers = opts.customers ?? (orders > 0 ? Math.max(10, Math.ceil(orders / 5)) : 0);
  // Unique per run, so the generator can be run again on the same database.
  const tag = Date.now().toString(36).slice(-6);
  const now = Date.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const looks: [ProductCategory, ProductMaterial][] = PRODUCT_CATEGORIES.flatMap((c) =>
    [...new Set(CATEGORY_MATERIALS[c])].map((m): [ProductCategory, ProductMaterial] => [c, m]),
  );
  const images = new Map<string, StoredImage>();
  for (let i = 0; i < looks.length; i += 2) {
    await Promise.all(
      looks.slice(i, i + 2).map(async ([c, m]) => {
        images.set(`${c}:${m}`, await ingestImage(knex, await drawProductPng(c, m), { effort: 1 }));
      }),
    );
  }
  log(`images: ${images.size} drawn looks ready (${Date.now() - started} ms)`);

  // Sellers: users + approved shop profiles, most with video calls on.
  const sellerIds = await reserveIds(knex, 'users', opts.sellers);
  for (let i = 0; i < sellerIds.length; i += batch) {
    const users: Record<string, unknown>[] = [];
    const profiles: Record<string, unknown>[] = [];
    for (let k = i; k < Math.min(i + batch, sellerIds.length); k++) {
      const owner = `${rng.pick(OWNERS)} ${rng.pick(SURNAMES)}`;
      const place = rng.pick(CITIES);
      const shopName = `${rng.pick(NAME_FIRST)} ${rng.pick(NAME_MID)} ${rng.pick(NAME_LAST)}`;
      const created = new Date(now - rng.int(30, 2000) * DAY_MS).toISOString();
      users.push({
        id: sellerIds[k],
        email: `bulk-seller-${tag}-${k + 1}@nagai.test`,
        password_hash: passwordHash,
        display_name: owner,
        full_name: owner,
        role: 'seller',
        created_at: created,
      });
      const phone = makePhone(rng);
      profiles.push({
        user_id: sellerIds[k],
        shop_name: shopName,
        description: `${shopName} in ${place.city}: gold, silver and bridal jewellery, hallmarked and made to order.`,
        shop_address: `${rng.int(1, 240)} ${rng.pick(['Bazaar Street', 'Main Road', 'Car Street', 'Temple Road', 'Market Road'])}`,
        city: place.city,
        state: place.state,
        pincode: place.pincode,
        phone,
        whatsapp_number: rng.chance(0.7) ? phone : null,
        gst_number: makeGstin(rng, place.gst, shopName[0]),
        certifications: JSON.stringify(rng.chance(0.8) ? ['BIS Hallmark'] : []),
        video_call_enabled: rng.chance(0.8),
        url_slug: rng.chance(0.97) ? `${slugify(shopName).slice(0, 30)}-${tag}-${k + 1}` : null,
        established_date: `${rng.int(1960, 2022)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
        is_approved: true,
        rating_avg: (rng.int(350, 500) / 100).toFixed(2),
        rating_count: rng.int(0, 900),
        created_at: created,
      });
    }
    await insertJson(
      knex,
      'users',
      [
        ['id', 'int'],
        ['email', 'text'],
        ['password_hash', 'text'],
        ['display_name', 'text'],
        ['full_name', 'text'],
        ['role', 'text'],
        ['created_at', 'timestamptz'],
      ],
      users,
    );
    await insertJson(
      knex,
      'seller_profiles',
      [
        ['user_id', 'int'],
        ['shop_name', 'text'],
        ['description', 'text'],
        ['shop_address', 'text'],
        ['city', 'text'],
        ['state', 'text'],
        ['pincode', 'text'],
        ['phone', 'text'],
        ['whatsapp_number', 'text'],
        ['gst_number', 'text'],
        ['certifications', 'jsonb'],
        ['video_call_enabled', 'boolean'],
        ['url_slug', 'text'],
        ['established_date', 'date'],
        ['is_approved', 'boolean'],
        ['rating_avg', 'numeric'],
        ['rating_count', 'int'],
        ['created_at', 'timestamptz'],
      ],
      profiles,
    );
  }
  log(`sellers: ${sellerIds.length} (${Date.now() - started} ms)`);

  // Products with one image each, spread over the new sellers.
  const bySeller = new Map<number, ProductRef[]>();
  let made = 0;
  while (made < opts.products && sellerIds.length > 0) {
    const n = Math.min(batch, opts.products - made);
    const ids = await reserveIds(knex, 'products', n);
    const rows: (ProductDraft & Record<string, unknown>)[] = [];
    const imageRows: Record<string, unknown>[] = [];
    for (const id of ids) {
      const category = rng.pick(PRODUCT_CATEGORIES);
      const material = rng.pick(CATEGORY_MATERIALS[category]);
      const sellerId = sellerIds[rng.int(0, sellerIds.length - 1)];
      const draft = makeProduct(rng, category, material, `BLK-${category.slice(0, 3).toUpperCase()}-${id}`);
      rows.push({
        ...draft,
        id,
        seller_id: sellerId,
        size_available: JSON.parse(draft.size_available) as unknown as string,
        created_at: new Date(now - rng.int(0, 365 * DAY_MS)).toISOString(),
      });
      const img = images.get(`${category}:${material}`)!;
      imageRows.push({
        product_id: id,
        position: 0,
        media_key: img.key,
        card_url: img.cardUrl,
        detail_url: img.detailUrl,
        width: img.width,
        height: img.height,
        placeholder: img.placeholder,
      });
      if (orders > 0) {
        const list = bySeller.get(sellerId) ?? [];
        list.push({
          id,
          name: draft.name,
          pricePaise: toPaise(draft.price),
          gstPaise: toPaise(draft.gst_amount),
          image: img.cardUrl,
        });
        bySeller.set(sellerId, list);
      }
    }
    await insertJson(knex, 'products', PRODUCT_COLUMNS, rows);
    await insertJson(
      knex,
      'product_images',
      [
        ['product_id', 'int'],
        ['position', 'int'],
        ['media_key', 'text'],
        ['card_url', 'text'],
        ['detail_url', 'text'],
        ['width', 'int'],
        ['height', 'int'],
        ['placeholder', 'text'],
      ],
      imageRows,
    );
    made += n;
    log(`products: ${made}/${opts.products} (${Date.now() - started} ms)`);
  }

  // Customers and their past orders.
  const customerIds = await reserveIds(knex, 'users', customers);
  for (let i = 0; i < customerIds.length; i += batch) {
    const rows = customerIds.slice(i, i + batch).map((id, k) => {
      const name = `${rng.pick(OWNERS)} ${rng.pick(SURNAMES)}`;
      return {
        id,
        email: `bulk-customer-${tag}-${i + k + 1}@nagai.test`,
        password_hash: passwordHash,
        display_name: name.split(' ')[0],
        full_name: name,
        role: 'customer',
        phone: makePhone(rng),
      };
    });
    await insertJson(
      knex,
      'users',
      [
        ['id', 'int'],
        ['email', 'text'],
        ['password_hash', 'text'],
        ['display_name', 'text'],
        ['full_name', 'text'],
        ['role', 'text'],
        ['phone', 'text'],
      ],
      rows,
    );
  }
  if (customers) log(`customers: ${customers}`);

  let orderCount = 0;
  let itemCount = 0;
  const sellersWithProducts = [...bySeller.keys()];
  const statuses = [
    'delivered',
    'delivered',
    'delivered',
    'shipped',
    'confirmed',
    'pending',
    'cancelled',
  ] as const;
  const methods = ['card', 'upi', 'cash_on_delivery'] as const;
  while (orderCount < orders && customerIds.length > 0 && sellersWithProducts.length > 0) {
    const n = Math.min(batch, orders - orderCount);
    const ids = await reserveIds(knex, 'orders', n);
    const orderRows: Record<string, unknown>[] = [];
    const itemRows: Record<string, unknown>[] = [];
    for (const id of ids) {
      const sellerId = rng.pick(sellersWithProducts);
      const mine = bySeller.get(sellerId)!;
      const picked = [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(mine)))];
      const lines = picked.map((p) => ({ p, qty: rng.int(1, 2) }));
      const subtotal = lines.reduce((s, l) => s + l.p.pricePaise * l.qty, 0);
      const gst = lines.reduce((s, l) => s + l.p.gstPaise * l.qty, 0);
      const status = rng.pick(statuses);
      const method = rng.pick(methods);
      const place = rng.pick(CITIES);
      orderRows.push({
        id,
        customer_id: rng.pick(customerIds),
        seller_id: sellerId,
        checkout_ref: `bulk-${tag}-${id}`,
        status,
        subtotal: rupees(subtotal),
        gst_total: rupees(gst),
        shipping_charges: '0.00',
        total_amount: rupees(subtotal),
        customer_name: `${rng.pick(OWNERS)} ${rng.pick(SURNAMES)}`,
        customer_phone: makePhone(rng),
        shipping_address: `${rng.int(1, 300)} ${rng.pick(['Gandhi Road', 'Nehru Street', 'Anna Salai', 'MG Road'])}`,
        city: place.city,
        state: place.state,
        pin_code: place.pincode,
        payment_method: method,
        payment_status:
          method === 'cash_on_delivery'
            ? status === 'delivered'
              ? 'cash_collected'
              : 'cash_due'
            : status === 'cancelled'
              ? 'refunded'
              : 'paid',
        stock_restored: status === 'cancelled',
        created_at: new Date(now - rng.int(0, 365 * DAY_MS)).toISOString(),
      });
      for (const l of lines)
        itemRows.push({
          order_id: id,
          product_id: l.p.id,
          product_name: l.p.name,
          image_url: l.p.image,
          price: rupees(l.p.pricePaise),
          gst_amount: rupees(l.p.gstPaise),
          quantity: l.qty,
        });
    }
    await insertJson(
      knex,
      'orders',
      [
        ['id', 'int'],
        ['customer_id', 'int'],
        ['seller_id', 'int'],
        ['checkout_ref', 'text'],
        ['status', 'text'],
        ['subtotal', 'numeric'],
        ['gst_total', 'numeric'],
        ['shipping_charges', 'numeric'],
        ['total_amount', 'numeric'],
        ['customer_name', 'text'],
        ['customer_phone', 'text'],
        ['shipping_address', 'text'],
        ['city', 'text'],
        ['state', 'text'],
        ['pin_code', 'text'],
        ['payment_method', 'text'],
        ['payment_status', 'text'],
        ['stock_restored', 'boolean'],
        ['created_at', 'timestamptz'],
      ],
      orderRows,
    );
    await insertJson(
      knex,
      'order_items',
      [
        ['order_id', 'int'],
        ['product_id', 'int'],
        ['product_name', 'text'],
        ['image_url', 'text'],
        ['price', 'numeric'],
        ['gst_amount', 'numeric'],
        ['quantity', 'int'],
      ],
      itemRows,
    );
    orderCount += n;
    itemCount += itemRows.length;
    log(`orders: ${orderCount}/${orders} (${Date.now() - started} ms)`);
  }

  // Fresh statistics so the planner sees the new data at once.
  await knex.raw('analyze users, seller_profiles, products, product_images, orders, order_items');
  return {
    sellers: sellerIds.length,
    customers,
    products: made,
    orders: orderCount,
    orderItems: itemCount,
    images: images.size,
    ms: Date.now() - started,
  };
}
