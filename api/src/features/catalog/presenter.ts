import type { Product, ProductImage, SellerCard, StoreProfile, TryOnImage } from '../../../contract/catalog';
import type { ProductCategory, ProductMaterial } from '../../../contract/constants';
import { fromPaise, toPaise } from '../../../contract/money';
import { gstInInclusive, type MakingType, type Metal, type MetalPurity } from '../../../contract/pricing';
import { presentSellerProfile, type SellerProfileRow } from '../sellers/presenter';
import { shopCallState, type ShopStateRow } from '../schedule/hours';

/**
 * A product row as PRODUCT_COLUMNS selects it (money already cast to text), joined with its shop.
 * Other areas that present products select the same columns (see loadProductsByIds in service.ts).
 */
export interface ProductRow {
  id: number;
  seller_id: number;
  name: string;
  description: string;
  price: string;
  category: string;
  material: string;
  stock_quantity: number | null;
  sku: string | null;
  width_mm: string | number | null;
  height_mm: string | number | null;
  size: string | null;
  purity: string | null;
  weight_g: string | number | null;
  diamonds_total_count: number | null;
  diamonds_type: string | null;
  diamonds_total_weight: string | number | null;
  gemstone_total_count: number | null;
  gemstone_type: string | null;
  making_charges: string | null;
  stone_charges: string | null;
  discount_amount: string | null;
  gst_amount: string | null;
  size_available: unknown;
  is_custom_made: boolean;
  rating_avg: string | number;
  rating_count: number;
  units_sold: number;
  created_at: Date | string;
  /** Rate-linked pricing and hallmark (issue #25); absent in rows selected before it. */
  pricing_mode?: 'fixed' | 'rate';
  metal?: string | null;
  metal_purity?: string | null;
  net_weight_g?: string | null;
  making_type?: string | null;
  making_value?: string | null;
  metal_rate?: string | null;
  huid?: string | null;
  certificate_lab?: string | null;
  certificate_number?: string | null;
  certificate_url?: string | null;
  /** The try-on image (issue #36); absent in rows selected before it. */
  tryon_image_url?: string | null;
  tryon_width?: number | null;
  tryon_height?: number | null;
  tryon_anchor_x?: number | string | null;
  tryon_anchor_y?: number | string | null;
  shop_name: string;
  url_slug: string | null;
  video_call_enabled: boolean;
}

/** A product_images row. */
export interface ProductImageRow {
  product_id: number;
  position: number;
  card_url: string;
  detail_url: string;
  width: number | null;
  height: number | null;
  placeholder?: string | null;
}

const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

// Money is cast to text in SQL; a number here would only come from a caller that skipped the cast.
const money = (v: string | number | null): string | null =>
  v === null ? null : typeof v === 'number' ? v.toFixed(2) : v;

const list = (v: unknown): string[] => {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(parsed) ? parsed.map(String) : [];
};

/** The rate-linked pricing and hallmark fields of a product (docs/product-rules.md §10). */
export function presentPricing(
  row: Pick<
    ProductRow,
    | 'pricing_mode'
    | 'metal'
    | 'metal_purity'
    | 'net_weight_g'
    | 'making_type'
    | 'making_value'
    | 'metal_rate'
    | 'huid'
    | 'certificate_lab'
    | 'certificate_number'
    | 'certificate_url'
  >,
): Pick<Product, 'rateLinked' | 'huid' | 'certificate'> {
  const rateLinked =
    row.pricing_mode === 'rate' &&
    row.metal &&
    row.metal_purity &&
    row.net_weight_g &&
    row.making_type &&
    row.making_value != null &&
    row.metal_rate
      ? {
          metal: row.metal as Metal,
          purity: row.metal_purity as MetalPurity,
          netWeight: row.net_weight_g,
          makingType: row.making_type as MakingType,
          makingValue: row.making_value,
          ratePerGram: row.metal_rate,
        }
      : null;
  return {
    rateLinked,
    huid: row.huid ?? null,
    certificate:
      row.certificate_lab && row.certificate_number
        ? { lab: row.certificate_lab, number: row.certificate_number, fileUrl: row.certificate_url ?? null }
        : null,
  };
}

/** The try-on image of a product row (docs/product-rules.md §16), or null. */
export function presentTryOnImage(row: {
  tryon_image_url?: string | null;
  tryon_width?: number | null;
  tryon_height?: number | null;
  tryon_anchor_x?: number | string | null;
  tryon_anchor_y?: number | string | null;
}): TryOnImage | null {
  if (!row.tryon_image_url || !row.tryon_width || !row.tryon_height) return null;
  return {
    url: row.tryon_image_url,
    width: row.tryon_width,
    height: row.tryon_height,
    // Stored as real: rounded to what a pixel of the picture can tell.
    anchorX: Math.round(Number(row.tryon_anchor_x) * 10_000) / 10_000,
    anchorY: Math.round(Number(row.tryon_anchor_y) * 10_000) / 10_000,
  };
}

/** Maps an image row to the API's image. */
export function presentImage(row: ProductImageRow): ProductImage {
  return {
    url: row.detail_url,
    cardUrl: row.card_url,
    width: row.width,
    height: row.height,
    placeholder: row.placeholder ?? null,
  };
}

/** Maps a product row and its images (any order) to the API's Product. */
export function presentProduct(row: ProductRow, imageRows: ProductImageRow[] = []): Product {
  const images = [...imageRows].sort((a, b) => a.position - b.position).map(presentImage);
  return {
    id: row.id,
    productId: row.id,
    sellerId: row.seller_id,
    name: row.name,
    description: row.description,
    price: money(row.price) ?? '0.00',
    category: row.category as ProductCategory,
    material: row.material as ProductMaterial,
    stockQuantity: row.stock_quantity,
    sku: row.sku,
    width: num(row.width_mm),
    height: num(row.height_mm),
    size: row.size,
    purity: row.purity,
    weight: num(row.weight_g),
    diamondsTotalCount: row.diamonds_total_count,
    diamondsType: row.diamonds_type,
    diamondsTotalWeight: num(row.diamonds_total_weight),
    gemstoneTotalCount: row.gemstone_total_count,
    gemstoneType: row.gemstone_type,
    makingCharges: money(row.making_charges),
    stoneCharges: money(row.stone_charges),
    discountAmount: money(row.discount_amount),
    // The GST inside the price, as the tax invoice computes it (not a figure typed beside the price).
    gstAmount: fromPaise(gstInInclusive(toPaise(money(row.price) ?? '0'))),
    images,
    imageUrl: images[0]?.cardUrl ?? null,
    sizeAvailable: list(row.size_available),
    isCustomMade: row.is_custom_made,
    averageRating: Number(row.rating_avg),
    ratingCount: row.rating_count,
    unitsSold: row.units_sold,
    shopName: row.shop_name,
    urlSlug: row.url_slug,
    videoCallEnabled: row.video_call_enabled,
    createdAt: new Date(row.created_at).toISOString(),
    ...presentPricing(row),
    tryOnImage: presentTryOnImage(row),
  };
}

/** A seller_profiles row joined with the seller's name, presence and public product count. */
export interface SellerCardRow extends SellerProfileRow, Omit<ShopStateRow, 'video_call_enabled'> {
  seller_name: string;
  last_polled_at: Date | string | null;
  product_count: number | string;
}

const YEAR_MS = 365.25 * 86_400_000;

/** Whole 365.25-day years from the established date to now, never negative; null without a date. */
export function yearsInBusiness(established: string | Date | null, now: Date): number | null {
  if (established === null) return null;
  const iso =
    typeof established === 'string'
      ? established.slice(0, 10)
      : `${established.getFullYear()}-${String(established.getMonth() + 1).padStart(2, '0')}-${String(established.getDate()).padStart(2, '0')}`;
  const since = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(since)) return null;
  return Math.max(0, Math.floor((now.getTime() - since) / YEAR_MS));
}

/** First two initials of a name, uppercased; a one-word name gives its first two letters. */
export function avatarInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  if (words.length === 1) return [...words[0]].slice(0, 2).join('').toUpperCase();
  return words
    .slice(0, 2)
    .map((w) => [...w][0])
    .join('')
    .toUpperCase();
}

/** Online when the seller's app polled for incoming calls within the window. */
export function isOnline(lastPolledAt: Date | string | null, now: Date, windowMs: number): boolean {
  if (lastPolledAt === null) return false;
  return now.getTime() - new Date(lastPolledAt).getTime() <= windowMs;
}

/** Maps a seller row to the directory card. */
export function presentSellerCard(row: SellerCardRow, now: Date, onlineWindowMs: number): SellerCard {
  const sellerName = row.seller_name || row.shop_name;
  return {
    sellerId: row.user_id,
    shopName: row.shop_name,
    sellerName,
    city: row.city,
    state: row.state,
    productCount: Number(row.product_count),
    averageRating: Number(row.rating_avg),
    ratingCount: row.rating_count,
    yearsInBusiness: yearsInBusiness(row.established_date, now),
    videoCallEnabled: row.video_call_enabled,
    urlSlug: row.url_slug,
    isOnline: isOnline(row.last_polled_at, now, onlineWindowMs),
    callState: shopCallState(row, now, onlineWindowMs),
    avatarInitials: avatarInitials(sellerName),
  };
}

/** Maps a seller row to the public store profile: every profile field plus the card's computed ones. */
export function presentStoreProfile(row: SellerCardRow, now: Date, onlineWindowMs: number): StoreProfile {
  const card = presentSellerCard(row, now, onlineWindowMs);
  return {
    ...presentSellerProfile(row),
    sellerName: card.sellerName,
    yearsInBusiness: card.yearsInBusiness,
    isOnline: card.isOnline,
    callState: card.callState,
    productCount: card.productCount,
    avatarInitials: card.avatarInitials,
  };
}
