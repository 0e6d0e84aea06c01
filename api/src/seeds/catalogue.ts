import type { ProductCategory, ProductMaterial } from '../../contract/constants';
import { KIND_SIZE_RANGE_MM, kindSizeMm, type SizedCategory } from '../../contract/piece-look';
import {
  HUID_REQUIRED_FROM_MG,
  METAL_PURITIES,
  priceBreakdown,
  taxableFromInclusive,
  type Metal,
  type MetalPurity,
} from '../../contract/pricing';

/** Deterministic PRNG (mulberry32): the demo data is the same on every run. */
export function createRng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof createRng>;

/** Materials that make sense for each category; every material appears in at least one list. */
export const CATEGORY_MATERIALS: Record<ProductCategory, readonly ProductMaterial[]> = {
  anklets: ['silver', 'gold', 'artificial', 'brass', 'meenakari', 'pearl', 'copper'],
  armlets: ['gold', 'temple_jewelry', 'kundan', 'polki', 'artificial', 'silver', 'ruby'],
  bangles: [
    'gold',
    'silver',
    'diamond',
    'artificial',
    'kundan',
    'meenakari',
    'polki',
    'copper',
    'ruby',
    'emerald',
  ],
  bracelets: ['gold', 'diamond', 'platinum', 'silver', 'pearl', 'sapphire', 'emerald', 'ruby', 'artificial'],
  bridal_sets: ['gold', 'temple_jewelry', 'kundan', 'polki', 'diamond', 'ruby', 'emerald', 'artificial'],
  chains: ['gold', 'silver', 'platinum', 'gold', 'artificial', 'brass', 'copper'],
  earrings: [
    'gold',
    'diamond',
    'pearl',
    'silver',
    'kundan',
    'polki',
    'meenakari',
    'temple_jewelry',
    'ruby',
    'emerald',
    'sapphire',
    'artificial',
    'platinum',
    'brass',
  ],
  hair_accessories: ['gold', 'silver', 'temple_jewelry', 'pearl', 'kundan', 'artificial', 'brass'],
  necklaces: [
    'gold',
    'pearl',
    'diamond',
    'temple_jewelry',
    'kundan',
    'polki',
    'ruby',
    'emerald',
    'sapphire',
    'silver',
    'artificial',
    'meenakari',
    'copper',
  ],
  nose_pins: ['gold', 'diamond', 'silver', 'ruby', 'emerald', 'sapphire', 'pearl', 'platinum', 'artificial'],
  pendants: [
    'gold',
    'diamond',
    'silver',
    'platinum',
    'ruby',
    'emerald',
    'sapphire',
    'temple_jewelry',
    'pearl',
  ],
  rings: ['gold', 'diamond', 'platinum', 'ruby', 'emerald', 'sapphire', 'silver', 'polki', 'artificial'],
  toe_rings: ['silver', 'copper', 'artificial', 'brass', 'gold'],
  waist_chains: ['gold', 'silver', 'temple_jewelry', 'kundan', 'artificial', 'brass'],
};

const STYLES: Record<ProductCategory, readonly string[]> = {
  anklets: ['Payal with Ghungroo', 'Kolusu', 'Chain Anklet', 'Bead Anklet', 'Jhanjhar'],
  armlets: ['Vanki', 'Bajuband', 'Aravanki', 'Peacock Vanki'],
  bangles: ['Kada', 'Bangles (Set of 2)', 'Antique Bangles', 'Broad Kada', 'Kangan', 'Patli Bangles'],
  bracelets: ['Tennis Bracelet', 'Link Bracelet', 'Charm Bracelet', 'Cuff Bracelet', 'Kada Bracelet'],
  bridal_sets: ['Bridal Necklace Set', 'Kasu Mala Bridal Set', 'Wedding Choker Set', 'Haram and Jhumka Set'],
  chains: [
    'Rope Chain',
    'Box Chain',
    'Kerala Mullamottu Chain',
    'Figaro Chain',
    'Singapore Chain',
    'Cuban Link Chain',
    'Kodi Chain',
  ],
  earrings: [
    'Jhumka',
    'Chandbali',
    'Stud Earrings',
    'Drop Earrings',
    'Temple Jhumka',
    'Hoop Earrings',
    'Jhumki',
  ],
  hair_accessories: [
    'Jadai Billai',
    'Maang Tikka',
    'Nethi Chutti',
    'Hair Clip',
    'Jada Nagam',
    'Papidi Billa',
  ],
  necklaces: [
    'Lakshmi Haram',
    'Mango Mala',
    'Choker Necklace',
    'Kasu Mala',
    'Guttapusalu Necklace',
    'Addigai',
    'Layered Necklace',
    'Nakshi Necklace',
  ],
  nose_pins: ['Mookuthi', 'Nath', 'Nose Stud', 'Flower Nose Pin', 'Besari'],
  pendants: [
    'Lakshmi Pendant',
    'Om Pendant',
    'Heart Pendant',
    'Solitaire Pendant',
    'Teardrop Pendant',
    'Peacock Pendant',
  ],
  rings: ['Solitaire Ring', 'Band Ring', 'Cocktail Ring', 'Navaratna Ring', 'Floral Ring', 'Engagement Ring'],
  toe_rings: ['Metti (Pair)', 'Bichiya (Pair)', 'Adjustable Toe Rings (Pair)'],
  waist_chains: ['Oddiyanam', 'Kamarbandh', 'Vaddanam', 'Hip Chain'],
};

const MATERIAL_LABEL: Record<ProductMaterial, readonly string[]> = {
  gold: ['22K Gold', '22K Gold', '18K Gold'],
  silver: ['Sterling Silver', '925 Silver', 'Oxidised Silver'],
  platinum: ['Platinum'],
  copper: ['Copper'],
  brass: ['Brass', 'Antique Brass'],
  artificial: ['Gold-Plated', 'Imitation', 'Oxidised'],
  diamond: ['Diamond'],
  emerald: ['Emerald'],
  ruby: ['Ruby'],
  sapphire: ['Sapphire', 'Blue Sapphire'],
  pearl: ['Pearl', 'South Sea Pearl', 'Basra Pearl'],
  kundan: ['Kundan'],
  polki: ['Polki', 'Uncut Polki'],
  meenakari: ['Meenakari'],
  temple_jewelry: ['Temple', 'Nagas Temple'],
};

/** Typical weight in grams (min, max) by category. */
const WEIGHT_G: Record<ProductCategory, [number, number]> = {
  anklets: [18, 60],
  armlets: [18, 45],
  bangles: [12, 36],
  bracelets: [6, 22],
  bridal_sets: [45, 110],
  chains: [5, 28],
  earrings: [3, 14],
  hair_accessories: [10, 40],
  necklaces: [16, 60],
  nose_pins: [0.3, 1.5],
  pendants: [2, 9],
  rings: [2, 8],
  toe_rings: [4, 12],
  waist_chains: [40, 120],
};

interface MaterialEconomics {
  purity: readonly string[];
  /** The metal the piece is made of, priced from the shop's rate for it (demo shops); none for costume pieces. */
  metal?: Metal;
  /** Metal value per gram in paise. */
  ratePaise: number;
  makingPct: [number, number];
  gem?: { type: readonly string[]; perCaratPaise: [number, number]; diamond?: boolean };
  /** Fixed price band in paise for costume pieces that are not priced by metal weight. */
  flat?: [number, number];
}

const ECONOMICS: Record<ProductMaterial, MaterialEconomics> = {
  gold: { purity: ['22K', '22K', '18K'], metal: 'gold', ratePaise: 920_000, makingPct: [8, 16] },
  silver: { purity: ['925'], metal: 'silver', ratePaise: 11_000, makingPct: [15, 35] },
  platinum: { purity: ['PT950'], metal: 'platinum', ratePaise: 340_000, makingPct: [10, 18] },
  copper: { purity: ['Pure copper'], ratePaise: 0, makingPct: [0, 0], flat: [40_000, 250_000] },
  brass: { purity: ['Brass'], ratePaise: 0, makingPct: [0, 0], flat: [35_000, 220_000] },
  artificial: { purity: ['Gold-plated alloy'], ratePaise: 0, makingPct: [0, 0], flat: [30_000, 200_000] },
  diamond: {
    purity: ['18K'],
    metal: 'gold',
    ratePaise: 760_000,
    makingPct: [10, 16],
    gem: { type: ['VVS-EF', 'VS-GH', 'SI-IJ'], perCaratPaise: [4_500_000, 8_000_000], diamond: true },
  },
  emerald: {
    purity: ['22K', '18K'],
    metal: 'gold',
    ratePaise: 880_000,
    makingPct: [10, 15],
    gem: { type: ['Zambian Emerald', 'Colombian Emerald'], perCaratPaise: [600_000, 2_500_000] },
  },
  ruby: {
    purity: ['22K', '18K'],
    metal: 'gold',
    ratePaise: 880_000,
    makingPct: [10, 15],
    gem: { type: ['Burmese Ruby', 'Mozambique Ruby'], perCaratPaise: [500_000, 2_200_000] },
  },
  sapphire: {
    purity: ['18K'],
    metal: 'gold',
    ratePaise: 760_000,
    makingPct: [10, 15],
    gem: { type: ['Ceylon Blue Sapphire', 'Kashmir Sapphire'], perCaratPaise: [700_000, 3_000_000] },
  },
  pearl: {
    purity: ['22K'],
    metal: 'gold',
    ratePaise: 920_000,
    makingPct: [8, 12],
    gem: { type: ['South Sea Pearl', 'Basra Pearl', 'Freshwater Pearl'], perCaratPaise: [20_000, 90_000] },
  },
  kundan: {
    purity: ['22K'],
    metal: 'gold',
    ratePaise: 920_000,
    makingPct: [14, 22],
    gem: { type: ['Kundan glass', 'Kundan with Ruby drops'], perCaratPaise: [50_000, 200_000] },
  },
  polki: {
    purity: ['22K', '18K'],
    metal: 'gold',
    ratePaise: 880_000,
    makingPct: [14, 22],
    gem: { type: ['Uncut Diamond (Polki)'], perCaratPaise: [1_500_000, 4_000_000], diamond: true },
  },
  meenakari: { purity: ['22K'], metal: 'gold', ratePaise: 920_000, makingPct: [16, 24] },
  temple_jewelry: {
    purity: ['22K'],
    metal: 'gold',
    ratePaise: 920_000,
    makingPct: [12, 20],
    gem: { type: ['Ruby and Emerald (Kemp)', 'Kemp stones'], perCaratPaise: [30_000, 120_000] },
  },
};

const SIZES: Partial<Record<ProductCategory, readonly string[]>> = {
  rings: ['6', '8', '10', '12', '14', '16', '18'],
  bangles: ['2.4', '2.6', '2.8', '2.10'],
  chains: ['16 in', '18 in', '20 in', '22 in', '24 in'],
  anklets: ['9.5 in', '10 in', '10.5 in', '11 in'],
  bracelets: ['6.5 in', '7 in', '7.5 in'],
  toe_rings: ['Adjustable'],
  waist_chains: ['28 in', '32 in', '36 in', '40 in'],
  necklaces: ['16 in', '18 in', '20 in'],
};

const FINISHES = [
  'with a high-polish finish',
  'finished in a soft matte texture',
  'with fine hand engraving',
  'with antique nakshi work',
  'with a comfortable, secure clasp',
  'light enough for everyday wear',
  'made for weddings and festivals',
];
const STORIES = [
  'Handcrafted by our karigars in the traditional South Indian style.',
  'BIS hallmarked and certified for purity.',
  'A classic design our customers have asked for across three generations.',
  'Each piece is checked by hand before it leaves the workshop.',
  'Comes in a gift box with a certificate of authenticity.',
  'Pairs beautifully with silk sarees and festive wear.',
  'Free resizing and lifetime polishing at our showroom.',
];

/** A product row's fields (without seller_id, created_at, ids). Money as decimal strings. */
export interface ProductDraft {
  name: string;
  description: string;
  price: string;
  category: ProductCategory;
  material: ProductMaterial;
  stock_quantity: number;
  sku: string;
  width_mm: string | null;
  height_mm: string | null;
  size: string | null;
  purity: string;
  weight_g: string;
  diamonds_total_count: number | null;
  diamonds_type: string | null;
  diamonds_total_weight: string | null;
  gemstone_total_count: number | null;
  gemstone_type: string | null;
  making_charges: string;
  stone_charges: string | null;
  discount_amount: string | null;
  gst_amount: string;
  size_available: string;
  is_custom_made: boolean;
  rating_avg: string;
  rating_count: number;
  units_sold: number;
  pricing_mode?: 'rate';
  metal?: Metal;
  metal_purity?: MetalPurity;
  net_weight_g?: string;
  making_type?: 'percent';
  making_value?: string;
  metal_rate?: string;
  huid: string | null;
  certificate_lab: string | null;
  certificate_number: string | null;
}

/** Paise (integer) to a decimal rupee string. */
export const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

/** A believable product of a category and material: specification fields, INR price, 3% GST, ratings. */
export function makeProduct(
  rng: Rng,
  category: ProductCategory,
  material: ProductMaterial,
  sku: string,
  opts: { rates?: ShopRates } = {},
): ProductDraft {
  const econ = ECONOMICS[material];
  const [wMin, wMax] = WEIGHT_G[category];
  const weightMg = rng.int(Math.round(wMin * 1000), Math.round(wMax * 1000));
  const weightG = weightMg / 1000;
  let metalPaise: number;
  let makingPaise: number;
  let makingPct = 0;
  if (econ.flat) {
    // Costume pieces: priced by design, with a small making share shown separately.
    const scale = Math.min(1, 0.35 + weightG / (wMax * 1.3));
    const total = Math.round((rng.int(econ.flat[0], econ.flat[1]) * scale) / 100) * 100;
    makingPaise = Math.round((total * rng.int(20, 35)) / 100 / 100) * 100;
    metalPaise = total - makingPaise;
  } else {
    metalPaise = Math.round((econ.ratePaise * weightMg) / 1000);
    makingPct = rng.int(econ.makingPct[0], econ.makingPct[1]);
    makingPaise = Math.round((metalPaise * makingPct) / 100 / 100) * 100;
  }
  let stonePaise = 0;
  let diamondsCount: number | null = null;
  let diamondsType: string | null = null;
  let diamondsWeight: string | null = null;
  let gemCount: number | null = null;
  let gemType: string | null = null;
  if (econ.gem) {
    const small = ['nose_pins', 'rings', 'earrings', 'pendants', 'toe_rings'].includes(category);
    const count = small ? rng.int(1, 24) : rng.int(8, 120);
    const caratHundredths = small ? rng.int(5, 150) : rng.int(40, 600);
    stonePaise =
      Math.round(
        (rng.int(econ.gem.perCaratPaise[0], econ.gem.perCaratPaise[1]) * caratHundredths) / 100 / 100,
      ) * 100;
    if (econ.gem.diamond) {
      diamondsCount = count;
      diamondsType = rng.pick(econ.gem.type);
      diamondsWeight = (caratHundredths / 100).toFixed(3);
    } else {
      gemCount = count;
      gemType = rng.pick(econ.gem.type);
    }
  }
  const beforeDiscount = metalPaise + makingPaise + stonePaise;
  let discountPaise = rng.chance(0.3) ? Math.round((beforeDiscount * rng.int(2, 10)) / 100 / 100) * 100 : 0;
  let pricePaise = Math.max(100, beforeDiscount - discountPaise);
  // The price includes GST: the GST in it is what the tax invoice reads back (api/contract/pricing.ts).
  let gstPaise = pricePaise - taxableFromInclusive(pricePaise);
  const purity = rng.pick(econ.purity);
  let rateLinked: RateLinkedFields | null = null;
  const metalPurity = econ.metal ? metalPurityOf(econ.metal, purity) : null;
  const ratePaise =
    econ.metal && metalPurity ? opts.rates?.[`${econ.metal}:${metalPurity}` as RateKey] : undefined;
  if (econ.metal && metalPurity && ratePaise) {
    // Priced as a jeweller prices it: the day's rate × net weight (stones weigh 0.2 g a carat), making charges
    // as a percentage of the metal, the stones' value, GST 3 % on the whole (priceBreakdown).
    const stoneMg = diamondsWeight ? Math.round(Number(diamondsWeight) * 200) : 0;
    const netMg = Math.max(Math.round(weightMg * 0.6), weightMg - stoneMg);
    const pct = makingPct;
    const b = priceBreakdown({
      ratePaisePerGram: ratePaise,
      netWeightMg: netMg,
      makingType: 'percent',
      makingHundredths: pct * 100,
      stonePaise,
    });
    discountPaise = 0;
    pricePaise = b.total;
    gstPaise = b.gst;
    makingPaise = b.making;
    rateLinked = {
      pricing_mode: 'rate',
      metal: econ.metal,
      metal_purity: metalPurity,
      net_weight_g: (netMg / 1000).toFixed(3),
      making_type: 'percent',
      making_value: pct.toFixed(2),
      metal_rate: rupees(ratePaise),
    };
  }

  const sizes = SIZES[category] ?? [];
  const available = sizes.length ? sizes.filter(() => rng.chance(0.7)) : [];
  if (sizes.length && available.length === 0) available.push(sizes[Math.floor(sizes.length / 2)]);

  const style = rng.pick(STYLES[category]);
  const picked = rng.pick(MATERIAL_LABEL[material]);
  // A gold piece's name states the purity it is made of; a gem set in gold says so in its description.
  const label = material === 'gold' ? `${purity} Gold` : picked;
  const name = `${label} ${style}`;
  const setIn = econ.metal === 'gold' && material !== 'gold' ? ` set in ${purity} gold` : '';
  const description = `${style} in ${label.toLowerCase()}${setIn}, ${rng.pick(FINISHES)}. ${rng.pick(STORIES)}`;
  const marks = hallmarkFields(sku, econ.metal === 'gold', weightMg, diamondsCount !== null);

  // Stock: mostly 1–25, a few sold out and a few running low.
  const stockRoll = rng.next();
  const stock = stockRoll < 0.04 ? 0 : stockRoll < 0.14 ? rng.int(1, 5) : rng.int(3, 25);
  const ratingCount = rng.chance(0.12) ? 0 : rng.int(1, 180);
  const ratingAvg = ratingCount === 0 ? 0 : rng.int(360, 500) / 100;
  // A size from the kind's real range (api/contract/piece-look.ts): two draws for the pieces that always had
  // one (the same draws at the same turn as before, so the rest of the demo is unchanged), a necklace's from its weight.
  const sized = category in KIND_SIZE_RANGE_MM ? (category as SizedCategory) : null;
  const dims =
    sized === null
      ? null
      : sized === 'necklaces'
        ? kindSizeMm(sized, (weightG - wMin) / (wMax - wMin), (weightG - wMin) / (wMax - wMin))
        : kindSizeMm(sized, (rng.int(60, 450) - 60) / 390, (rng.int(60, 700) - 60) / 640);

  return {
    name,
    description,
    price: rupees(pricePaise),
    category,
    material,
    stock_quantity: stock,
    sku,
    width_mm: dims ? dims.width.toFixed(2) : null,
    height_mm: dims ? dims.height.toFixed(2) : null,
    size: available[0] ?? null,
    purity,
    weight_g: weightG.toFixed(3),
    diamonds_total_count: diamondsCount,
    diamonds_type: diamondsType,
    diamonds_total_weight: diamondsWeight,
    gemstone_total_count: gemCount,
    gemstone_type: gemType,
    making_charges: rupees(makingPaise),
    stone_charges: stonePaise ? rupees(stonePaise) : null,
    discount_amount: discountPaise ? rupees(discountPaise) : null,
    gst_amount: rupees(gstPaise),
    size_available: JSON.stringify(available),
    is_custom_made: rng.chance(0.08),
    rating_avg: ratingAvg.toFixed(2),
    rating_count: ratingCount,
    units_sold: ratingCount === 0 ? rng.int(0, 6) : ratingCount + rng.int(0, 120),
    ...rateLinked,
    ...marks,
  };
}

/** A shop's rates in paise per gram, by "metal:purity" (api/contract/pricing.ts METAL_PURITIES). */
type RateKey = {
  [M in Metal]: `${M}:${(typeof METAL_PURITIES)[M][number]}`;
}[Metal];
export type ShopRates = Partial<Record<RateKey, number>>;

interface RateLinkedFields {
  pricing_mode: 'rate';
  metal: Metal;
  metal_purity: MetalPurity;
  net_weight_g: string;
  making_type: 'percent';
  making_value: string;
  metal_rate: string;
}

/** The purity a shop keeps a rate for, from the purity a piece is labelled with ("PT950" → "950"). */
function metalPurityOf(metal: Metal, purity: string): MetalPurity | null {
  const p = purity.replace(/^PT/, '');
  return (METAL_PURITIES[metal] as readonly string[]).includes(p) ? (p as MetalPurity) : null;
}

/**
 * A day's rates (paise per gram) for a shop, around one market: 24K gold, 22K at 91.6 % and 18K at 75 % of it,
 * fine and sterling silver, platinum 950. `spread` moves the shop's gold by that many rupees a gram.
 */
export function dayRates(spread: number): Required<ShopRates> {
  const gold24 = (10_040 + spread) * 100;
  return {
    'gold:24K': gold24,
    'gold:22K': Math.round((gold24 * 916) / 1000 / 100) * 100,
    'gold:18K': Math.round((gold24 * 750) / 1000 / 100) * 100,
    'silver:999': 12_000 + spread * 10,
    'silver:925': 11_100 + spread * 10,
    'platinum:950': (3_400 + Math.round(spread / 2)) * 100,
  };
}

const HUID_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const CERT_LABS = ['IGI', 'GIA', 'SGL'] as const;

/**
 * The hallmark details a jeweller gives: a HUID for a gold piece of 2 g or more (BIS), a grading certificate
 * for a piece with diamonds. Drawn from the SKU with their own generator, so the rest of a seeded piece does
 * not change with them.
 */
function hallmarkFields(
  sku: string,
  gold: boolean,
  weightMg: number,
  diamonds: boolean,
): { huid: string | null; certificate_lab: string | null; certificate_number: string | null } {
  let h = 2166136261;
  for (const ch of sku) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const r = createRng(h);
  const huid =
    gold && weightMg >= HUID_REQUIRED_FROM_MG
      ? Array.from({ length: 6 }, () => r.pick([...HUID_CHARS])).join('')
      : null;
  const lab = diamonds ? r.pick(CERT_LABS) : null;
  return {
    huid,
    certificate_lab: lab,
    certificate_number: lab ? `${lab === 'GIA' ? '' : 'LG'}${r.int(100_000_000, 999_999_999)}` : null,
  };
}

/** Southern Indian cities with their state, GST state code and a pincode. */
export const CITIES = [
  { city: 'Chennai', state: 'Tamil Nadu', gst: '33', pincode: '600017' },
  { city: 'Madurai', state: 'Tamil Nadu', gst: '33', pincode: '625001' },
  { city: 'Coimbatore', state: 'Tamil Nadu', gst: '33', pincode: '641001' },
  { city: 'Tiruchirappalli', state: 'Tamil Nadu', gst: '33', pincode: '620002' },
  { city: 'Salem', state: 'Tamil Nadu', gst: '33', pincode: '636001' },
  { city: 'Thanjavur', state: 'Tamil Nadu', gst: '33', pincode: '613001' },
  { city: 'Bengaluru', state: 'Karnataka', gst: '29', pincode: '560053' },
  { city: 'Mysuru', state: 'Karnataka', gst: '29', pincode: '570001' },
  { city: 'Mangaluru', state: 'Karnataka', gst: '29', pincode: '575001' },
  { city: 'Hyderabad', state: 'Telangana', gst: '36', pincode: '500002' },
  { city: 'Warangal', state: 'Telangana', gst: '36', pincode: '506002' },
  { city: 'Visakhapatnam', state: 'Andhra Pradesh', gst: '37', pincode: '530001' },
  { city: 'Vijayawada', state: 'Andhra Pradesh', gst: '37', pincode: '520001' },
  { city: 'Kochi', state: 'Kerala', gst: '32', pincode: '682011' },
  { city: 'Thrissur', state: 'Kerala', gst: '32', pincode: '680001' },
  { city: 'Thiruvananthapuram', state: 'Kerala', gst: '32', pincode: '695001' },
  { city: 'Puducherry', state: 'Puducherry', gst: '34', pincode: '605001' },
] as const;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A GSTIN in the 15-character pattern: state code, PAN (firm), entity number, Z, check character. */
export function makeGstin(rng: Rng, stateCode: string, initial: string): string {
  const l = () => LETTERS[rng.int(0, 25)];
  const pan = `${l()}${l()}${l()}F${/[A-Z]/.test(initial) ? initial : 'N'}${rng.int(1000, 9999)}${l()}`;
  return `${stateCode}${pan}${ALNUM[rng.int(1, 35)]}Z${ALNUM[rng.int(0, 35)]}`;
}

/** A 10-digit Indian mobile number. */
export const makePhone = (rng: Rng) => `${rng.pick(['9', '8', '7'])}${rng.int(100000000, 999999999)}`;

/** Kebab-case slug from a shop name. */
export const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
