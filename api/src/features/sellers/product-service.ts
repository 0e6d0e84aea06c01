import type { Knex } from 'knex';
import {
  PRODUCT_MESSAGES,
  TRY_ON_CATEGORIES,
  TRY_ON_MESSAGES,
  isStoredImagePath,
  type ProductCreateInput,
  type ProductUpdateInput,
  type TryOnImageInput,
} from '../../../contract/products';
import { PRICING_MESSAGES } from '../../../contract/invoices';
import { MEDIA_PATH_PREFIX } from '../../../contract/media';
import type { SessionUser } from '../../http/context';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors';
import { ingestImage, storeCertificate, storeTryOnImage } from '../media/service';
import { applyPricingRules, settleGst } from '../pricing/service';
import { findProfileByUser } from './service';

/** Options of the media pipeline that product mutations pass on. */
export interface ProductImageOptions {
  /** Let image URLs reach loopback/private hosts (config.mediaAllowPrivateUrls: development and tests). */
  allowPrivateUrls: boolean;
  /** Called before each new image is fetched or decoded (the upload limit counts it; it may throw 429). */
  beforeIngest?: () => Promise<void>;
}

/** A product_images row without its id and product, in list order. */
interface ImageRow {
  media_key: string | null;
  source_url: string | null;
  card_url: string;
  detail_url: string;
  width: number | null;
  height: number | null;
  placeholder: string | null;
}

type ProductFields = Omit<ProductCreateInput, 'images' | 'certificateFile' | 'tryOnImage'>;

/** The products column of each API field. */
export const PRODUCT_COLUMNS: Record<keyof ProductFields, string> = {
  name: 'name',
  description: 'description',
  price: 'price',
  category: 'category',
  material: 'material',
  stockQuantity: 'stock_quantity',
  sku: 'sku',
  width: 'width_mm',
  height: 'height_mm',
  size: 'size',
  purity: 'purity',
  weight: 'weight_g',
  diamondsTotalCount: 'diamonds_total_count',
  diamondsType: 'diamonds_type',
  diamondsTotalWeight: 'diamonds_total_weight',
  gemstoneTotalCount: 'gemstone_total_count',
  gemstoneType: 'gemstone_type',
  makingCharges: 'making_charges',
  stoneCharges: 'stone_charges',
  discountAmount: 'discount_amount',
  gstAmount: 'gst_amount',
  sizeAvailable: 'size_available',
  isCustomMade: 'is_custom_made',
  pricingMode: 'pricing_mode',
  metal: 'metal',
  metalPurity: 'metal_purity',
  netWeight: 'net_weight_g',
  makingType: 'making_type',
  makingValue: 'making_value',
  huid: 'huid',
  certificateLab: 'certificate_lab',
  certificateNumber: 'certificate_number',
};

/** Fields an update may change that the HUID rule reads (docs/product-rules.md §10). */
const HUID_FIELDS = ['material', 'weight', 'netWeight', 'metal', 'huid', 'pricingMode'] as const;

/** Column values for the fields present in input (undefined = not given; null = empty). */
function toColumns(input: Partial<ProductFields>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(PRODUCT_COLUMNS)) {
    const value = input[field as keyof ProductFields];
    if (value === undefined) continue;
    if (field === 'sizeAvailable') out[column] = JSON.stringify(value ?? []);
    else if (field === 'isCustomMade') out[column] = value ?? false;
    else out[column] = value;
  }
  return out;
}

const productNotFound = () => notFound(PRODUCT_MESSAGES.productNotFound, 'product_not_found');

/**
 * Turns the submitted image list into stored images, in order. Images the product already has (its /media/
 * paths, or the URL it was first fetched from) are kept as they are instead of being fetched again.
 * Runs outside any transaction: downloads must not hold a database connection.
 */
async function resolveImages(
  db: Knex,
  sources: string[],
  existing: ImageRow[],
  opts: ProductImageOptions,
  ingested: string[],
): Promise<ImageRow[]> {
  const rows: ImageRow[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const path = storedPathOf(source);
    const kept =
      existing.find((e) => path !== null && (e.card_url === path || e.detail_url === path)) ??
      existing.find((e) => e.source_url !== null && e.source_url === source);
    let row: ImageRow;
    if (kept) row = kept;
    else if (isStoredImagePath(source))
      // A /media/ path the product does not have: it cannot be re-fetched, and may be another shop's.
      throw badRequest(PRODUCT_MESSAGES.imageInvalid, 'invalid_image');
    else {
      await opts.beforeIngest?.();
      const stored = await ingestImage(db, source, { allowPrivateUrls: opts.allowPrivateUrls });
      ingested.push(stored.key);
      row = {
        media_key: stored.key,
        source_url: /^https?:/i.test(source) ? source : null,
        card_url: stored.cardUrl,
        detail_url: stored.detailUrl,
        width: stored.width,
        height: stored.height,
        placeholder: stored.placeholder,
      };
    }
    // The same picture sent twice (say, once uploaded and once by URL) is one image.
    const identity = row.media_key ?? row.detail_url;
    if (seen.has(identity)) continue;
    seen.add(identity);
    rows.push(row);
  }
  return rows;
}

/** The /media/ path a source names, whether given as a path or as an absolute URL on this site. */
function storedPathOf(source: string): string | null {
  if (isStoredImagePath(source)) return source;
  try {
    const url = new URL(source);
    return url.pathname.startsWith(MEDIA_PATH_PREFIX) ? url.pathname : null;
  } catch {
    return null;
  }
}

async function writeImages(trx: Knex.Transaction, productId: number, images: ImageRow[]): Promise<void> {
  await trx('product_images').where({ product_id: productId }).delete();
  await trx('product_images').insert(
    images.map((img, position) => ({
      product_id: productId,
      position,
      media_key: img.media_key,
      source_url: img.source_url,
      card_url: img.card_url,
      detail_url: img.detail_url,
      width: img.width,
      height: img.height,
      placeholder: img.placeholder,
    })),
  );
}

/**
 * Removes the renditions of images stored during a request that then failed (a later image was refused, or
 * the product could not be saved), unless some product uses them: nothing is left behind by a refused upload.
 */
async function discardUnusedMedia(db: Knex, keys: string[]): Promise<void> {
  if (!keys.length) return;
  const used = new Set(
    (await db('product_images').whereIn('media_key', keys).pluck('media_key')) as string[],
  );
  const unused = keys.filter((k) => !used.has(k));
  if (!unused.length) return;
  // Every stored form of the image: renditions, preview and any width derived since (keys are hex hashes).
  await db('media')
    .where((q) => {
      for (const k of unused) q.orWhere('key', 'like', `${k}-%`);
    })
    .delete();
}

/**
 * The certificate file to store: undefined leaves it, null removes it, the product's own stored path keeps it,
 * a data URI is stored (counted against the upload limit like an image).
 */
async function resolveCertificate(
  db: Knex,
  value: string | null | undefined,
  current: string | null,
  opts: ProductImageOptions,
): Promise<string | null | undefined> {
  if (value === undefined || value === null) return value;
  if (!value.startsWith('data:')) {
    // A /media/ path the product does not have: it may be another shop's.
    if (value !== current) throw badRequest(PRICING_MESSAGES.certificateFileInvalid, 'invalid_certificate');
    return undefined;
  }
  await opts.beforeIngest?.();
  return storeCertificate(db, value);
}

/** The try-on columns of a product (migration 0023): all set, or all null. */
interface TryOnColumns {
  tryon_image_url: string | null;
  tryon_width: number | null;
  tryon_height: number | null;
  tryon_anchor_x: number | null;
  tryon_anchor_y: number | null;
}

const NO_TRY_ON: TryOnColumns = {
  tryon_image_url: null,
  tryon_width: null,
  tryon_height: null,
  tryon_anchor_x: null,
  tryon_anchor_y: null,
};

const tryOnRefused = (message: string, code: string) =>
  badRequest(message, code, [{ path: 'tryOnImage', message }]);

/**
 * The try-on columns to write (docs/product-rules.md §16): undefined leaves them, null removes the image, a
 * data URI is checked and stored (counted against the upload limit like an image), the product's own stored
 * path keeps its image with the anchor given. `stored` collects the media keys made here, for cleanup.
 */
async function resolveTryOn(
  db: Knex,
  value: TryOnImageInput | null | undefined,
  current: TryOnColumns,
  opts: ProductImageOptions,
  stored: string[],
): Promise<TryOnColumns | undefined> {
  if (value === undefined) return undefined;
  if (value === null) return NO_TRY_ON;
  let image: { url: string; width: number; height: number };
  if (!value.image.startsWith('data:')) {
    // A /media/ path the product does not have: it may be another shop's.
    if (value.image !== current.tryon_image_url || !current.tryon_width || !current.tryon_height)
      throw tryOnRefused(TRY_ON_MESSAGES.imageInvalid, 'invalid_tryon_image');
    image = { url: current.tryon_image_url, width: current.tryon_width, height: current.tryon_height };
  } else {
    await opts.beforeIngest?.();
    try {
      const made = await storeTryOnImage(db, value.image);
      if (made.url !== current.tryon_image_url) stored.push(made.url);
      image = made;
    } catch (err) {
      if (err instanceof AppError && err.status === 400) throw tryOnRefused(err.message, err.code);
      throw err;
    }
  }
  return {
    tryon_image_url: image.url,
    tryon_width: image.width,
    tryon_height: image.height,
    tryon_anchor_x: value.anchorX,
    tryon_anchor_y: value.anchorY,
  };
}

const canTryOn = (category: string) => (TRY_ON_CATEGORIES as readonly string[]).includes(category);

/** Removes try-on images stored by a request that then failed, unless some product uses them. */
async function discardUnusedTryOn(db: Knex, urls: string[]): Promise<void> {
  if (!urls.length) return;
  const used = new Set(
    (await db('products').whereIn('tryon_image_url', urls).pluck('tryon_image_url')) as string[],
  );
  const unused = urls.filter((u) => !used.has(u)).map((u) => u.slice(u.lastIndexOf('/') + 1));
  if (unused.length) await db('media').whereIn('key', unused).delete();
}

/** Runs a product mutation and cleans up the images it stored if it fails. */
async function withImageCleanup<T>(
  db: Knex,
  run: (ingested: string[], tryOn: string[]) => Promise<T>,
): Promise<T> {
  const ingested: string[] = [];
  const tryOn: string[] = [];
  try {
    return await run(ingested, tryOn);
  } catch (err) {
    await discardUnusedMedia(db, ingested).catch(() => undefined);
    await discardUnusedTryOn(db, tryOn).catch(() => undefined);
    throw err;
  }
}

/**
 * Creates a product in the caller's shop. A seller needs a shop profile (approved or not: a pending shop
 * prepares its catalogue, which the public sees once approved); the first image is the cover.
 */
export async function createProduct(
  db: Knex,
  user: SessionUser,
  input: ProductCreateInput,
  now: Date,
  opts: ProductImageOptions,
): Promise<number> {
  if (!(await findProfileByUser(db, user.id)))
    throw forbidden(PRODUCT_MESSAGES.profileRequired, 'seller_profile_required');
  const { images, certificateFile, tryOnImage, ...fields } = input;
  if (tryOnImage && !canTryOn(fields.category))
    throw tryOnRefused(TRY_ON_MESSAGES.categoryCannot, 'tryon_category');
  return withImageCleanup(db, async (ingested, tryOnStored) => {
    const stored = await resolveImages(db, images, [], opts, ingested);
    const certificateUrl = await resolveCertificate(db, certificateFile, null, opts);
    const tryOn = await resolveTryOn(db, tryOnImage, NO_TRY_ON, opts, tryOnStored);
    return db.transaction(async (trx) => {
      const [row] = (await trx('products')
        .insert({
          seller_id: user.id,
          ...toColumns(fields),
          ...(certificateUrl ? { certificate_url: certificateUrl } : {}),
          ...(tryOn ?? {}),
          stock_quantity: fields.stockQuantity === undefined ? 1 : fields.stockQuantity,
          is_custom_made: fields.isCustomMade ?? false,
          created_at: now,
          updated_at: now,
        })
        .returning('id')) as { id: number }[];
      await writeImages(trx, row.id, stored);
      await applyPricingRules(trx, row.id, now, true);
      await settleGst(trx, row.id, fields.gstAmount);
      return row.id;
    });
  });
}

/** The live product the user may change: their own, or any for an admin. Others' ids look absent. */
function ownedProduct(db: Knex, user: SessionUser, id: number) {
  const q = db('products').where({ id }).whereNull('deleted_at');
  if (user.role !== 'admin') q.where({ seller_id: user.id });
  return q;
}

/** Changes the given fields of a product; a given image list replaces the old one in its order. */
export async function updateProduct(
  db: Knex,
  user: SessionUser,
  input: ProductUpdateInput,
  now: Date,
  opts: ProductImageOptions,
): Promise<number> {
  const { id, images, certificateFile, tryOnImage, ...fields } = input;
  const product = (await ownedProduct(db, user, id).first(
    'id',
    'certificate_url',
    'tryon_image_url',
    'tryon_width',
    'tryon_height',
    'tryon_anchor_x',
    'tryon_anchor_y',
  )) as ({ id: number; certificate_url: string | null } & TryOnColumns) | undefined;
  if (!product) throw productNotFound();
  await withImageCleanup(db, async (ingested, tryOnStored) => {
    let stored: ImageRow[] | undefined;
    if (images) {
      const existing = (await db('product_images')
        .where({ product_id: id })
        .orderBy('position')
        .select(
          'media_key',
          'source_url',
          'card_url',
          'detail_url',
          'width',
          'height',
          'placeholder',
        )) as ImageRow[];
      stored = await resolveImages(db, images, existing, opts, ingested);
    }
    const certificateUrl = await resolveCertificate(db, certificateFile, product.certificate_url, opts);
    const tryOn = await resolveTryOn(db, tryOnImage, product, opts, tryOnStored);
    await db.transaction(async (trx) => {
      // Checked again inside the transaction: the product may have been deleted while images downloaded.
      const [row] = (await ownedProduct(trx, user, id)
        .update({
          ...toColumns(fields),
          ...(certificateUrl !== undefined ? { certificate_url: certificateUrl } : {}),
          ...(tryOn ?? {}),
          updated_at: now,
        })
        .returning([
          'id',
          'category',
          'tryon_image_url',
          'certificate_url',
          'certificate_lab',
          'certificate_number',
        ])) as {
        id: number;
        category: string;
        tryon_image_url: string | null;
        certificate_url: string | null;
        certificate_lab: string | null;
        certificate_number: string | null;
      }[];
      if (!row) throw productNotFound();
      // A try-on image is set only on a piece that can be tried on (the category may change in the same edit).
      if (tryOn?.tryon_image_url && !canTryOn(row.category))
        throw tryOnRefused(TRY_ON_MESSAGES.categoryCannot, 'tryon_category');
      // Moved to a category that cannot be tried on: the try-on image it kept goes, as if removed.
      if (row.tryon_image_url && !canTryOn(row.category)) await ownedProduct(trx, user, id).update(NO_TRY_ON);
      // A file belongs to a certificate: the stored product keeps the two together.
      if (row.certificate_url && !(row.certificate_lab && row.certificate_number))
        throw badRequest(PRICING_MESSAGES.certificateFileWithoutNumber, 'validation_failed', [
          { path: 'certificateFile', message: PRICING_MESSAGES.certificateFileWithoutNumber },
        ]);
      if (stored) await writeImages(trx, id, stored);
      const touchesHuid = HUID_FIELDS.some((f) => fields[f] !== undefined);
      await applyPricingRules(trx, id, now, touchesHuid);
      await settleGst(trx, id, fields.gstAmount);
    });
  });
  return id;
}

/**
 * Soft-deletes a product: orders that bought it keep pointing at a readable row, while every listing
 * (which filters deleted_at is null) drops it at once. Carts holding it lose it now, not at checkout.
 */
/**
 * How many unfinished orders (pending, confirmed, shipped) include one of the shop's products: the delete
 * dialog names them (issue #48). Deleting leaves them as they are.
 */
export async function countOpenOrders(db: Knex, user: SessionUser, id: number): Promise<number> {
  const product = (await ownedProduct(db, user, id).first('id')) as { id: number } | undefined;
  if (!product) throw productNotFound();
  const [row] = (await db('order_items as oi')
    .join('orders as o', 'o.id', 'oi.order_id')
    .where('oi.product_id', id)
    .whereIn('o.status', ['pending', 'confirmed', 'shipped'])
    .countDistinct({ n: 'o.id' })) as { n: string | number }[];
  return Number(row?.n ?? 0);
}

export async function deleteProduct(db: Knex, user: SessionUser, id: number, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const [row] = (await ownedProduct(trx, user, id)
      .update({ deleted_at: now, updated_at: now })
      .returning('id')) as { id: number }[];
    if (!row) throw productNotFound();
    await trx('cart_items').where({ product_id: id }).delete();
  });
}
