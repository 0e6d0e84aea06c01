import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { PRODUCT_CATEGORIES, type ProductCategory, type ProductMaterial } from '../../contract/constants';
import type { StoredImage } from '../../contract/media';
import { hashPassword } from '../features/accounts/password';
import { ingestImage, storeTryOnImage, type StoredTryOnImage } from '../features/media/service';
import {
  CATEGORY_MATERIALS,
  createRng,
  dayRates,
  makeGstin,
  makePhone,
  makeProduct,
  rupees,
  type Rng,
} from './catalogue';
import { drawProductPng, drawTryOnPng } from './images';
import { ALWAYS_OPEN, DEFAULT_TIME_ZONE, type HoursRange } from '../../contract/shop-hours';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts';

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts';

/** True when no user exists yet: the first start of an embedded database. */
export async function isDatabaseEmpty(knex: Knex): Promise<boolean> {
  const row = (await knex('users').count<{ count: number | string }[]>('* as count'))[0];
  return Number(row?.count ?? 0) === 0;
}

interface ShopSeed {
  email: string;
  owner: string;
  shopName: string;
  slug: string | null;
  city: string;
  state: string;
  gst: string;
  pincode: string;
  address: string;
  description: string;
  established: string;
  video: boolean;
  approved: boolean | null;
  certifications: string[];
  products: number;
  /** Weekly video hours (issue #22); every day 00:00-24:00 unless given, so a demo takes calls at any hour. */
  hours?: HoursRange[];
  /** Away, with its message. */
  away?: string;
}

const shop = (s: Omit<ShopSeed, 'products'> & { products?: number }): ShopSeed => ({ products: 18, ...s });

/** Lakshmi Jewellers first (the demo seller), then the other shops. */
const SHOPS: ShopSeed[] = [
  shop({
    email: 'seller@nagai.test',
    owner: 'Lakshmi Narayanan',
    shopName: 'Lakshmi Jewellers',
    slug: 'lakshmi-jewellers',
    city: 'Chennai',
    state: 'Tamil Nadu',
    gst: '33',
    pincode: '600004',
    address: '14 North Mada Street, Mylapore',
    description: 'Temple jewellery and bridal gold from a family of goldsmiths in Mylapore since 1978.',
    established: '1978-04-14',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark', 'IGI Certified Diamonds'],
    products: 34,
  }),
  shop({
    email: 'meenakshi@nagai.test',
    owner: 'Sundaram Pillai',
    shopName: 'Sri Meenakshi Thanga Maaligai',
    slug: 'sri-meenakshi-thanga-maaligai',
    city: 'Madurai',
    state: 'Tamil Nadu',
    gst: '33',
    pincode: '625001',
    address: '52 South Avani Moola Street, near Meenakshi Amman Temple',
    description: 'Kemp stone temple jewellery and kasu malas made by Madurai karigars for four generations.',
    established: '1964-01-20',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark', 'Madurai Goldsmiths Association'],
  }),
  shop({
    email: 'kovai@nagai.test',
    owner: 'Ramesh Gounder',
    shopName: 'Kovai Nagai Maaligai',
    slug: 'kovai-nagai-maaligai',
    city: 'Coimbatore',
    state: 'Tamil Nadu',
    gst: '33',
    pincode: '641001',
    address: '118 Big Bazaar Street, Town Hall',
    description: 'Everyday gold chains, bangles and light-weight office wear from the heart of Town Hall.',
    established: '1989-08-15',
    video: false,
    approved: true,
    certifications: ['BIS Hallmark'],
  }),
  shop({
    email: 'vasavi@nagai.test',
    owner: 'Srinivasa Shetty',
    shopName: 'Vasavi Chinnada Angadi',
    slug: 'vasavi-chinnada-angadi',
    city: 'Bengaluru',
    state: 'Karnataka',
    gst: '29',
    pincode: '560053',
    address: '27 Avenue Road, Chickpet',
    description: 'Diamond and polki pieces for Kannada weddings, with in-house CAD design and resizing.',
    established: '1996-11-02',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark', 'GIA Graded Diamonds', 'ISO 9001:2015'],
  }),
  shop({
    email: 'mysuru@nagai.test',
    // Shows the away state (issue #22).
    away: 'At a bridal fitting this afternoon. Leave a call-back request and I will call you.',
    owner: 'Manjunath Rao',
    shopName: 'Mysuru Aabharana Mane',
    slug: 'mysuru-aabharana-mane',
    city: 'Mysuru',
    state: 'Karnataka',
    gst: '29',
    pincode: '570001',
    address: '9 Sayyaji Rao Road, Devaraja Mohalla',
    description: 'Mysore-style gold, Gandaberunda pendants and silver pooja articles near the palace.',
    established: '1972-10-05',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark'],
  }),
  shop({
    email: 'venkateswara@nagai.test',
    owner: 'Venkata Ramana Reddy',
    shopName: 'Sri Venkateswara Bangaru Nagalu',
    slug: 'sri-venkateswara-bangaru-nagalu',
    city: 'Hyderabad',
    state: 'Telangana',
    gst: '36',
    pincode: '500002',
    address: '4-1-12 Pathergatti Road, near Charminar',
    description: 'Basra pearls, guttapusalu and Nizami polki sets from the pearl lanes of Pathergatti.',
    established: '1981-03-28',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark', 'SGL Certified Pearls'],
  }),
  shop({
    email: 'swarnam@nagai.test',
    // Shows the closed state most of the week (issue #22): video hours on Sunday mornings only.
    hours: [{ day: 7, from: '10:00', to: '13:00' }],
    owner: 'Thomas Varghese',
    shopName: 'Swarnam Jewellery Kochi',
    slug: 'swarnam-kochi',
    city: 'Kochi',
    state: 'Kerala',
    gst: '32',
    pincode: '682011',
    address: '22 Broadway, Ernakulam',
    description: 'Kerala palakka malas, mullamottu chains and light bridal gold for Malayali weddings.',
    established: '1999-05-10',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark', 'ISO 9001:2015'],
  }),
  shop({
    email: 'alankar@nagai.test',
    owner: 'Suresh Menon',
    shopName: 'Thrissur Alankar Jewellery',
    slug: 'thrissur-alankar',
    city: 'Thrissur',
    state: 'Kerala',
    gst: '32',
    pincode: '680001',
    address: '7 Round South, opposite Vadakkunnathan Temple',
    description: 'Handmade nagapadam, manga mala and temple pieces from the gold capital of Kerala.',
    established: '1985-09-01',
    video: false,
    approved: true,
    certifications: ['BIS Hallmark'],
  }),
  shop({
    email: 'ananthapuri@nagai.test',
    owner: 'Gopika Nair',
    shopName: 'Ananthapuri Swarna Mahal',
    slug: 'ananthapuri-swarna-mahal',
    city: 'Thiruvananthapuram',
    state: 'Kerala',
    gst: '32',
    pincode: '695001',
    address: '31 East Fort, near Padmanabhaswamy Temple',
    description: 'Traditional Travancore designs, diamond studs and kasavu-matching bridal gold.',
    established: '2004-02-16',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark', 'IGI Certified Diamonds'],
  }),
  shop({
    email: 'pondy@nagai.test',
    owner: 'Arul Murugan',
    shopName: 'Pondy Muthu Jewels',
    slug: null,
    city: 'Puducherry',
    state: 'Puducherry',
    gst: '34',
    pincode: '605001',
    address: '45 Mission Street, White Town',
    description: 'Pearl and silver pieces with a French-quarter touch, custom orders welcome.',
    established: '2011-07-14',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark'],
  }),
  shop({
    email: 'rockfort@nagai.test',
    owner: 'Senthil Kumar',
    shopName: 'Rockfort Thanga Maaligai',
    slug: 'rockfort-thanga-maaligai',
    city: 'Tiruchirappalli',
    state: 'Tamil Nadu',
    gst: '33',
    pincode: '620002',
    address: '63 NSB Road, Teppakulam',
    description: 'Gold and silver for every occasion in the shadow of the Rockfort, since 1992.',
    established: '1992-06-22',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark'],
  }),
  shop({
    email: 'lalitha@nagai.test',
    owner: 'Satyanarayana Murthy',
    shopName: 'Sri Lalitha Nagala Dukanam',
    slug: 'sri-lalitha-vizag',
    city: 'Visakhapatnam',
    state: 'Andhra Pradesh',
    gst: '37',
    pincode: '530001',
    address: '10-1-5 Jagadamba Junction',
    description: 'Andhra bridal vaddanams, kasulaperu and light-weight gold for the coast.',
    established: '2001-12-01',
    video: false,
    approved: true,
    certifications: ['BIS Hallmark', 'ISO 9001:2015'],
  }),
  shop({
    email: 'salemvelli@nagai.test',
    owner: 'Kannan Chettiar',
    shopName: 'Salem Velli Maaligai',
    slug: 'salem-velli-maaligai',
    city: 'Salem',
    state: 'Tamil Nadu',
    gst: '33',
    pincode: '636001',
    address: '19 Shevapet Main Road',
    description: "Salem's famous handmade silver kolusu, metti and oxidised pieces straight from the makers.",
    established: '1976-01-15',
    video: true,
    approved: true,
    certifications: ['BIS Hallmark (Silver)'],
  }),
  shop({
    email: 'kanchi@nagai.test',
    owner: 'Revathi Sekar',
    shopName: 'Kanchi Pon Nagai',
    slug: 'kanchi-pon-nagai',
    city: 'Kanchipuram',
    state: 'Tamil Nadu',
    gst: '33',
    pincode: '631501',
    address: '88 Gandhi Road, near Kamakshi Amman Temple',
    description: 'Bridal gold to match Kanchipuram silks. Awaiting approval.',
    established: '2015-03-03',
    video: true,
    approved: null,
    certifications: [],
    products: 3,
  }),
  shop({
    email: 'mangaluru@nagai.test',
    owner: 'Prakash Kamath',
    shopName: 'Karavali Chinnabharana',
    slug: 'karavali-chinnabharana',
    city: 'Mangaluru',
    state: 'Karnataka',
    gst: '29',
    pincode: '575001',
    address: '12 Car Street, Rathabeedhi',
    description: 'Coastal Karnataka gold and coral pieces. Awaiting approval.',
    established: '2018-08-08',
    video: false,
    approved: null,
    certifications: [],
    products: 3,
  }),
];

const CUSTOMERS = [
  {
    email: 'karthik@nagai.test',
    name: 'Karthik Subramanian',
    phone: '9884012345',
    address: '7 Ranganathan Street, T. Nagar, Chennai 600017',
  },
  {
    email: 'ananya@nagai.test',
    name: 'Ananya Reddy',
    phone: '9949012345',
    address: 'Flat 402, Road No. 12, Banjara Hills, Hyderabad 500034',
  },
  {
    email: 'meera@nagai.test',
    name: 'Meera Nair',
    phone: '9447012345',
    address: 'TC 15/1234, Vazhuthacaud, Thiruvananthapuram 695014',
  },
  {
    email: 'arjun@nagai.test',
    name: 'Arjun Gowda',
    phone: '9845012345',
    address: '221 8th Cross, Jayanagar 4th Block, Bengaluru 560011',
  },
];

const DAY_MS = 86_400_000;

/** Draws one picture per (category, material) used and stores it through the media pipeline. */
async function drawImages(
  db: Knex,
  looks: [ProductCategory, ProductMaterial][],
): Promise<Map<string, StoredImage>> {
  const out = new Map<string, StoredImage>();
  const unique = [...new Map(looks.map((l) => [l.join(':'), l])).values()];
  // Two at a time: librsvg and libvips use their own threads, and this machine has two cores.
  for (let i = 0; i < unique.length; i += 2) {
    await Promise.all(
      unique.slice(i, i + 2).map(async ([c, m]) => {
        out.set(`${c}:${m}`, await ingestImage(db, await drawProductPng(c, m), { effort: 1 }));
      }),
    );
  }
  return out;
}

type DemoTryOn = StoredTryOnImage & { anchorX: number; anchorY: number };

/**
 * Draws one try-on picture per (category, material) of the pieces that can be tried on (earrings, nose pins,
 * necklaces, pendants) and stores it through the same checks as a seller's upload (docs/product-rules.md §16).
 */
async function drawTryOnImages(
  db: Knex,
  looks: [ProductCategory, ProductMaterial][],
): Promise<Map<string, DemoTryOn>> {
  const out = new Map<string, DemoTryOn>();
  const unique = [...new Map(looks.map((l) => [l.join(':'), l])).values()];
  for (let i = 0; i < unique.length; i += 2) {
    await Promise.all(
      unique.slice(i, i + 2).map(async ([c, m]) => {
        const drawn = await drawTryOnPng(c, m);
        if (!drawn) return;
        const stored = await storeTryOnImage(db, drawn.png, { effort: 0 });
        out.set(`${c}:${m}`, { ...stored, anchorX: drawn.anchorX, anchorY: drawn.anchorY });
      }),
    );
  }
  return out;
}

/** Chooses (category, material) for each product of a shop: all categories and materials get covered. */
function planProducts(rng: Rng, count: number, offset: number): [ProductCategory, ProductMaterial][] {
  const plan: [ProductCategory, ProductMaterial][] = [];
  for (let i = 0; i < count; i++) {
    const category = PRODUCT_CATEGORIES[(offset + i) % PRODUCT_CATEGORIES.length];
    const mats = CATEGORY_MATERIALS[category];
    // The first rounds walk each category's material list in order, so every material appears.
    const round = Math.floor((offset + i) / PRODUCT_CATEGORIES.length);
    const material = round < mats.length ? mats[round] : rng.pick(mats);
    plan.push([category, material]);
  }
  return plan;
}

/** An account the demo data created, with the password it was given. */
export interface DemoAccount {
  email: string;
  role: string;
  password: string;
}

/** A fresh random password (16 characters, 96 bits), one per account, for demo data loaded in production. */
export function freshDemoPassword(): string {
  return crypto.randomBytes(12).toString('base64url');
}

/** Every demo account with one password (the published DEMO_PASSWORD by default), or each with its own. */
export type DemoPasswords = { shared: string } | 'fresh';

/**
 * Loads the demo data set: accounts, shops, products with drawn images, a few past orders. The answer lists
 * each account it created with its password.
 */
export async function seedDemoData(
  knex: Knex,
  opts: { log?: (m: string) => void; passwords?: DemoPasswords } = {},
): Promise<DemoAccount[]> {
  const started = Date.now();
  const rng = createRng(20260101);
  const passwords = opts.passwords ?? { shared: DEMO_PASSWORD };
  const shared = passwords === 'fresh' ? undefined : passwords.shared;
  const sharedHash = shared === undefined ? undefined : await hashPassword(shared);
  const accounts: DemoAccount[] = [];
  const now = Date.now();

  let offset = 0;
  const plans = SHOPS.map((s) => {
    const plan = planProducts(rng, s.products, offset);
    offset += s.products;
    return plan;
  });
  const images = await drawImages(knex, plans.flat());
  opts.log?.(`drew ${images.size} product images in ${Date.now() - started} ms`);
  const drawnAt = Date.now();
  const tryOns = await drawTryOnImages(knex, plans.flat());
  opts.log?.(`drew ${tryOns.size} try-on images in ${Date.now() - drawnAt} ms`);

  await knex.transaction(async (trx) => {
    const insertUser = async (u: {
      email: string;
      display_name: string;
      role: string;
      full_name?: string;
      phone?: string;
      address?: string;
      created_at?: Date;
    }) => {
      const password = shared ?? freshDemoPassword();
      const passwordHash = sharedHash ?? (await hashPassword(password));
      const [row] = (await trx('users')
        .insert({ password_hash: passwordHash, ...u })
        .returning('id')) as { id: number }[];
      accounts.push({ email: u.email, role: u.role, password });
      return row.id;
    };
    const ids: Record<string, number> = {};
    for (const a of DEMO_ACCOUNTS) {
      if (a.role === 'seller') continue;
      ids[a.role] = await insertUser({
        email: a.email,
        display_name: a.displayName,
        full_name: a.role === 'customer' ? 'Priya Raman' : undefined,
        role: a.role,
        phone: a.role === 'customer' ? '9840098400' : undefined,
        address: a.role === 'customer' ? '21 Luz Church Road, Mylapore, Chennai 600004' : undefined,
      });
    }
    for (const c of CUSTOMERS)
      await insertUser({
        email: c.email,
        display_name: c.name.split(' ')[0],
        full_name: c.name,
        role: 'customer',
        phone: c.phone,
        address: c.address,
      });

    const sellerIds: number[] = [];
    const productRows: Record<string, unknown>[] = [];
    for (const [k, s] of SHOPS.entries()) {
      const userId = await insertUser({
        email: s.email,
        display_name: s.owner,
        full_name: s.owner,
        role: 'seller',
        created_at: new Date(now - (400 - k * 20) * DAY_MS),
      });
      sellerIds.push(userId);
      const phone = k === 0 ? '9840012345' : makePhone(rng);
      const rated = s.approved ? rng.int(18, 640) : 0;
      await trx('seller_profiles').insert({
        user_id: userId,
        shop_name: s.shopName,
        description: s.description,
        shop_address: s.address,
        city: s.city,
        state: s.state,
        pincode: s.pincode,
        phone,
        whatsapp_number: rng.chance(0.75) ? phone : null,
        gst_number: k === 0 ? '33AABCL1234M1Z5' : makeGstin(rng, s.gst, s.shopName[0]),
        gst_state_code: s.gst,
        business_license: `TL/${s.city.slice(0, 3).toUpperCase()}/${rng.int(2010, 2024)}/${rng.int(1000, 9999)}`,
        certifications: JSON.stringify(s.certifications),
        video_call_enabled: s.video,
        video_hours: JSON.stringify(s.hours ?? ALWAYS_OPEN),
        time_zone: DEFAULT_TIME_ZONE,
        away: s.away !== undefined,
        away_message: s.away ?? null,
        url_slug: s.slug,
        established_date: s.established,
        is_approved: s.approved,
        rating_avg: rated ? (rng.int(390, 495) / 100).toFixed(2) : 0,
        rating_count: rated,
        created_at: new Date(now - (400 - k * 20) * DAY_MS),
      });
      // The day's rates (every purity a shop keeps), a few rupees apart from shop to shop; the gold, silver
      // and platinum pieces below are priced from them.
      const rates = dayRates(((k * 7) % 11) * 5 - 25);
      await trx('metal_rates').insert(
        Object.entries(rates).map(([key, paise]) => {
          const [metal, purity] = key.split(':');
          return {
            seller_id: userId,
            metal,
            purity,
            rate_per_gram: rupees(paise),
            set_at: new Date(now - ((k % 5) + 1) * 3_600_000),
          };
        }),
      );
      const skuPrefix = s.shopName
        .split(/\s+/)
        .map((w) => w[0])
        .join('')
        .toUpperCase()
        .slice(0, 4);
      plans[k].forEach(([category, material], i) => {
        const draft = makeProduct(
          rng,
          category,
          material,
          `${skuPrefix}-${category.slice(0, 3).toUpperCase()}-${1001 + i}`,
          { rates },
        );
        const tryOn = tryOns.get(`${category}:${material}`);
        productRows.push({
          ...draft,
          ...(tryOn
            ? {
                tryon_image_url: tryOn.url,
                tryon_width: tryOn.width,
                tryon_height: tryOn.height,
                tryon_anchor_x: tryOn.anchorX,
                tryon_anchor_y: tryOn.anchorY,
              }
            : {}),
          seller_id: userId,
          created_at: new Date(now - rng.int(1, 180) * DAY_MS - rng.int(0, 86_000) * 1000),
        });
      });
    }
    const products = (await trx('products')
      .insert(productRows)
      .returning(['id', 'seller_id', 'name', 'price', 'gst_amount', 'category', 'material'])) as {
      id: number;
      seller_id: number;
      name: string;
      price: string | number;
      gst_amount: string | number;
      category: ProductCategory;
      material: ProductMaterial;
    }[];
    await trx('product_images').insert(
      products.map((p) => {
        const img = images.get(`${p.category}:${p.material}`)!;
        return {
          product_id: p.id,
          position: 0,
          media_key: img.key,
          card_url: img.cardUrl,
          detail_url: img.detailUrl,
          width: img.width,
          height: img.height,
          placeholder: img.placeholder,
        };
      }),
    );

    // Past orders of the demo customer, one per status, with totals computed in paise.
    const toPaise = (v: string | number) => Math.round(Number(v) * 100);
    const statuses = ['delivered', 'delivered', 'shipped', 'confirmed', 'pending', 'cancelled'] as const;
    const methods = ['card', 'upi', 'cash_on_delivery'] as const;
    for (const [n, status] of statuses.entries()) {
      const sellerId = sellerIds[[0, 1, 5, 3, 0, 6][n]];
      const mine = products.filter((p) => p.seller_id === sellerId && Number(p.price) < 300_000);
      const items = [...new Set([rng.pick(mine), rng.pick(mine), rng.pick(mine)].slice(0, rng.int(1, 3)))];
      const lines = items.map((p) => ({ p, qty: rng.int(1, 2) }));
      const subtotal = lines.reduce((sum, l) => sum + toPaise(l.p.price) * l.qty, 0);
      const gstTotal = lines.reduce((sum, l) => sum + toPaise(l.p.gst_amount) * l.qty, 0);
      const method = methods[n % methods.length];
      const createdAt = new Date(now - (60 - n * 9) * DAY_MS);
      // An online order is paid only through the gateway (docs/product-rules.md "Payments"): a paid demo order has
      // its gateway order and applied payment, so cancelling it refunds that payment like any other.
      const paidOnline = method !== 'cash_on_delivery' && status !== 'cancelled';
      const gatewayOrderId = paidOnline ? `order_demo${n + 1}` : null;
      if (gatewayOrderId) {
        await trx('gateway_orders').insert({
          gateway_order_id: gatewayOrderId,
          customer_id: ids.customer,
          checkout_ref: `demo-checkout-${n + 1}`,
          amount_paise: subtotal,
          status: 'paid',
          created_at: createdAt,
        });
        await trx('gateway_payments').insert({
          gateway_payment_id: `pay_demo${n + 1}`,
          gateway_order_id: gatewayOrderId,
          status: 'captured',
          amount_paise: subtotal,
          method,
          applied: true,
          created_at: createdAt,
        });
      }
      const [order] = (await trx('orders')
        .insert({
          customer_id: ids.customer,
          seller_id: sellerId,
          checkout_ref: `demo-checkout-${n + 1}`,
          status,
          subtotal: rupees(subtotal),
          gst_total: rupees(gstTotal),
          shipping_charges: '0.00',
          total_amount: rupees(subtotal),
          customer_name: 'Priya Raman',
          customer_phone: '9840098400',
          shipping_address: '21 Luz Church Road, Mylapore',
          city: 'Chennai',
          state: 'Tamil Nadu',
          pin_code: '600004',
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
          gateway_order_id: gatewayOrderId,
          paid_at:
            status !== 'cancelled' && (status === 'delivered' || method !== 'cash_on_delivery')
              ? new Date(createdAt.getTime() + 2 * DAY_MS)
              : null,
          created_at: createdAt,
          updated_at: new Date(createdAt.getTime() + 2 * DAY_MS),
          delivered_at: status === 'delivered' ? new Date(createdAt.getTime() + 2 * DAY_MS) : null,
        })
        .returning('id')) as { id: number }[];
      if (gatewayOrderId)
        await trx('ledger_entries').insert({
          seller_id: sellerId,
          order_id: order.id,
          kind: 'sale',
          amount_paise: subtotal,
          commission_paise: 0,
          created_at: createdAt,
        });
      await trx('order_items').insert(
        lines.map((l) => {
          const img = images.get(`${l.p.category}:${l.p.material}`)!;
          return {
            order_id: order.id,
            product_id: l.p.id,
            product_name: l.p.name,
            image_url: img.cardUrl,
            price: rupees(toPaise(l.p.price)),
            gst_amount: rupees(toPaise(l.p.gst_amount)),
            quantity: l.qty,
          };
        }),
      );
    }
    opts.log?.(`demo data: ${SHOPS.length} shops, ${products.length} products, ${statuses.length} orders`);
  });
  opts.log?.(`demo data loaded in ${Date.now() - started} ms`);
  return accounts;
}
