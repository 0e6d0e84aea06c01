import { z } from 'zod';
import type { Product } from './catalog';
import { PRODUCT_CATEGORIES, PRODUCT_MATERIALS } from './constants';
import { PRICING_MESSAGES } from './invoices';
import { ALL_PURITIES, HUID_PATTERN, MAKING_TYPES, METAL_PURITIES, METALS, PRICING_MODES } from './pricing';

/** Product mutation messages: the product rules' (docs/product-rules.md §5) word for word, plus our own where it leaves them open. */
export const PRODUCT_MESSAGES = {
  unknownFields: 'Unknown fields are not allowed.',
  nameMin: 'Product name must be at least 3 characters long.',
  nameMax: 'Product name cannot exceed 200 characters.',
  descriptionMin: 'Description must be at least 10 characters long.',
  descriptionMax: 'Description cannot exceed 5000 characters.',
  pricePositive: 'Price must be a positive amount.',
  categoryInvalid: 'Please choose a category from the list.',
  materialInvalid: 'Please choose a material from the list.',
  imagesRequired: 'At least one image is required.',
  imagesMax: 'A product can have at most 10 images.',
  tooManyUploads: 'Too many images were uploaded in the last hour. Please wait and try again.',
  imageInvalid:
    'Invalid image format. Use a PNG, JPEG, WebP or GIF image, or an http(s) URL ending in .png, .jpg, .jpeg, .webp or .gif.',
  stockNegative: 'Stock quantity cannot be negative.',
  stockInteger: 'Stock quantity must be a whole number.',
  weightPositive: 'Weight must be a positive number.',
  widthPositive: 'Width must be a positive number.',
  heightPositive: 'Height must be a positive number.',
  makingChargesNegative: 'Making charges cannot be negative.',
  stoneChargesNegative: 'Stone charges cannot be negative.',
  discountNegative: 'Discount amount cannot be negative.',
  gstNegative: 'GST amount cannot be negative.',
  diamondsCountInvalid: 'Diamond count must be a whole number of at least 0.',
  diamondsWeightPositive: 'Diamond weight must be a positive number.',
  gemstoneCountMin: 'Gemstone count must be at least 1.',
  textTooLong: 'This field cannot exceed 100 characters.',
  sizesInvalid: 'Each available size must be 1 to 50 characters, at most 30 sizes.',
  isCustomMadeInvalid: 'Custom made must be true or false.',
  productIdInvalid: 'Product ID must be a positive integer.',
  productNotFound: 'Product not found.',
  profileRequired: 'Please set up your shop profile before adding products.',
} as const;

const M = PRODUCT_MESSAGES;

/** Maximum number of images per product. */
export const MAX_PRODUCT_IMAGES = 10;

const DATA_URI_PATTERN = /^data:image\/(png|jpeg|jpg|webp|gif);base64,[A-Za-z0-9+/=\s]+$/i;
const IMAGE_PATH_PATTERN = /\.(png|jpe?g|webp|gif)$/i;

/** An image the form may add: a base64 data URI of a raster type, or an http(s) URL whose path ends in one. */
export function isAcceptableImageSource(value: string): boolean {
  if (DATA_URI_PATTERN.test(value)) return true;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && IMAGE_PATH_PATTERN.test(url.pathname);
}

/** Largest certificate file (a lab's PDF or a photo of the paper). */
export const MAX_CERTIFICATE_BYTES = 5 * 1024 * 1024;
const CERTIFICATE_DATA_URI = /^data:(application\/pdf|image\/(png|jpeg|jpg|webp));base64,[A-Za-z0-9+/=\s]+$/i;

/**
 * A certificate file as the product form sends it: a data URI of a PDF or an image (the server checks the
 * bytes), or the product's own stored certificate (its /media/ path, kept as it is).
 */
export function isAcceptableCertificateSource(value: string): boolean {
  if (/^\/media\/[0-9a-f]{32}-(certificate\.pdf|detail\.webp)$/.test(value)) return true;
  // base64 is 4/3 of the bytes
  return CERTIFICATE_DATA_URI.test(value) && value.length <= Math.ceil((MAX_CERTIFICATE_BYTES * 4) / 3) + 64;
}

/** Try-on image rules (docs/product-rules.md §16); the server checks the bytes themselves. */
export const TRY_ON = {
  /** Largest upload. */
  maxBytes: 2 * 1024 * 1024,
  /** Each side of the picture, in pixels. */
  minSide: 64,
  maxSide: 2048,
  /** At least this share of the picture must be see-through (the background around the piece). */
  minTransparentShare: 0.1,
} as const;

/** The categories whose products can be tried on, and so carry a try-on image. */
export const TRY_ON_CATEGORIES = ['earrings', 'nose_pins', 'necklaces', 'pendants'] as const;

export const TRY_ON_MESSAGES = {
  imageInvalid: 'The try-on image must be a PNG or WebP picture of at most 2 MB, 64 to 2048 pixels a side.',
  notTransparent:
    'The try-on image needs a transparent background around the piece: use a PNG or WebP with transparency.',
  anchorOutside: 'The anchor point must be inside the try-on image.',
  categoryCannot: 'Only earrings, nose pins, necklaces and pendants can have a try-on image.',
} as const;

const TRY_ON_DATA_URI = /^data:image\/(png|webp);base64,[A-Za-z0-9+/=\s]+$/i;
/** How a stored try-on image's path looks (api/src/features/media/service.ts storeTryOnImage). */
export const TRY_ON_STORED_PATH = /^\/media\/[0-9a-f]{32}-tryon\.webp$/;

/**
 * A try-on image as the product form sends it: a data URI of a PNG or WebP (the server checks the bytes), or
 * the product's own stored try-on image (its /media/ path), to keep it while the anchor changes.
 */
export function isAcceptableTryOnSource(value: string): boolean {
  if (TRY_ON_STORED_PATH.test(value)) return true;
  return TRY_ON_DATA_URI.test(value) && value.length <= Math.ceil((TRY_ON.maxBytes * 4) / 3) + 64;
}

const anchorFraction = z
  .number({ error: TRY_ON_MESSAGES.anchorOutside })
  .min(0, TRY_ON_MESSAGES.anchorOutside)
  .max(1, TRY_ON_MESSAGES.anchorOutside);

/**
 * The try-on image with its anchor point, where the piece is held (the top of an earring's stud, a nose pin's
 * centre, a necklace's top middle, a pendant's bale), as fractions of the picture's width and height from its
 * top left. null removes it.
 */
export const TryOnImageInputSchema = z.strictObject(
  {
    image: z
      .string({ error: TRY_ON_MESSAGES.imageInvalid })
      .trim()
      .refine(isAcceptableTryOnSource, TRY_ON_MESSAGES.imageInvalid),
    anchorX: anchorFraction,
    anchorY: anchorFraction,
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? M.unknownFields : TRY_ON_MESSAGES.imageInvalid) },
);
export type TryOnImageInput = z.infer<typeof TryOnImageInputSchema>;

/** An image the product already has, as the API returned it (a /media/ rendition path). */
export const isStoredImagePath = (value: string) => /^\/media\/[A-Za-z0-9._-]+$/.test(value);

/** Numbers and numeric strings both arrive from forms; blanks mean "not given". */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * A decimal amount as a string with at most `scale` decimals and `integerDigits` before the point (the
 * numeric column's range). Floats are not rounded: 0.1 + 0.2 is refused rather than silently changed.
 */
const decimal = (message: string, opts: { positive: boolean; scale: number; integerDigits: number }) =>
  z
    .union([z.number({ error: message }), z.string({ error: message })], { error: message })
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.trim();
      const pattern = new RegExp(`^\\d{1,${opts.integerDigits}}(\\.\\d{1,${opts.scale}})?$`);
      if (!pattern.test(text) || (opts.positive && !/[1-9]/.test(text))) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return text;
    });

const money = (message: string, positive = false) =>
  decimal(message, { positive, scale: 2, integerDigits: 10 });
const measure = (message: string, scale: number) =>
  decimal(message, { positive: true, scale, integerDigits: 7 });

const integer = (message: string, min: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v),
    z.number({ error: message }).int(message).min(min, message).max(2_147_483_647, message),
  );

const stockQuantity = z.preprocess(
  (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ error: M.stockInteger })
    .int(M.stockInteger)
    .min(0, M.stockNegative)
    .max(2_147_483_647, M.stockInteger),
);

const shortText = z.string({ error: M.textTooLong }).trim().max(100, M.textTooLong);

/** An optional field on create: blank or null leaves it empty. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToNull, schema.nullable().optional());

/**
 * The image list: trimmed, duplicates dropped (first wins, so the chosen cover stays first), at least one.
 * `allowStored` admits the product's own /media/ paths, so an edit can keep, reorder or drop images.
 */
const images = (allowStored: boolean) =>
  z
    .array(
      z
        .string({ error: M.imageInvalid })
        .trim()
        .refine((v) => isAcceptableImageSource(v) || (allowStored && isStoredImagePath(v)), M.imageInvalid),
      { error: M.imagesRequired },
    )
    .transform((list) => [...new Set(list)])
    .pipe(z.array(z.string()).min(1, M.imagesRequired).max(MAX_PRODUCT_IMAGES, M.imagesMax));

const sizeAvailable = z
  .array(z.string().trim().min(1, M.sizesInvalid).max(50, M.sizesInvalid), { error: M.sizesInvalid })
  .max(30, M.sizesInvalid)
  .transform((list) => [...new Set(list)]);

const productFields = {
  name: z.string({ error: M.nameMin }).trim().min(3, M.nameMin).max(200, M.nameMax),
  description: z
    .string({ error: M.descriptionMin })
    .trim()
    .min(10, M.descriptionMin)
    .max(5000, M.descriptionMax),
  price: money(M.pricePositive, true),
  category: z.enum(PRODUCT_CATEGORIES, { error: M.categoryInvalid }),
  material: z.enum(PRODUCT_MATERIALS, { error: M.materialInvalid }),
  stockQuantity: z.preprocess(blankToUndefined, stockQuantity.nullable().optional()),
  sku: optional(shortText),
  width: optional(measure(M.widthPositive, 2)),
  height: optional(measure(M.heightPositive, 2)),
  size: optional(shortText),
  purity: optional(shortText),
  weight: optional(measure(M.weightPositive, 3)),
  diamondsTotalCount: optional(integer(M.diamondsCountInvalid, 0)),
  diamondsType: optional(shortText),
  diamondsTotalWeight: optional(measure(M.diamondsWeightPositive, 3)),
  gemstoneTotalCount: optional(integer(M.gemstoneCountMin, 1)),
  gemstoneType: optional(shortText),
  makingCharges: optional(money(M.makingChargesNegative)),
  stoneCharges: optional(money(M.stoneChargesNegative)),
  discountAmount: optional(money(M.discountNegative)),
  gstAmount: optional(money(M.gstNegative)),
  sizeAvailable: sizeAvailable.nullable().optional(),
  isCustomMade: z.boolean({ error: M.isCustomMadeInvalid }).nullable().optional(),
  // Rate-linked pricing and hallmark details (issue #25, api/contract/pricing.ts): weight is the gross weight.
  pricingMode: z.enum(PRICING_MODES, { error: PRICING_MESSAGES.rateFieldsRequired }).optional(),
  metal: optional(z.enum(METALS, { error: PRICING_MESSAGES.metalInvalid })),
  metalPurity: optional(
    z
      .string({ error: PRICING_MESSAGES.purityInvalid })
      .trim()
      .toUpperCase()
      .refine((v) => (ALL_PURITIES as string[]).includes(v), PRICING_MESSAGES.purityInvalid),
  ),
  netWeight: optional(measure(PRICING_MESSAGES.netWeightPositive, 3)),
  makingType: optional(z.enum(MAKING_TYPES, { error: PRICING_MESSAGES.makingTypeInvalid })),
  makingValue: optional(money(PRICING_MESSAGES.makingValueInvalid)),
  huid: optional(
    z
      .string({ error: PRICING_MESSAGES.huidInvalid })
      .trim()
      .toUpperCase()
      .regex(HUID_PATTERN, PRICING_MESSAGES.huidInvalid),
  ),
  certificateLab: optional(shortText),
  certificateNumber: optional(shortText),
  /** A PDF or image of the certificate (data URI), or null to remove it. */
  certificateFile: optional(
    z
      .string({ error: PRICING_MESSAGES.certificateFileInvalid })
      .trim()
      .refine(isAcceptableCertificateSource, PRICING_MESSAGES.certificateFileInvalid),
  ),
};

type PricingFields = {
  pricingMode?: 'fixed' | 'rate';
  price?: string;
  metal?: string | null;
  metalPurity?: string | null;
  netWeight?: string | null;
  weight?: string | null;
  makingType?: string | null;
  makingValue?: string | null;
  certificateLab?: string | null;
  certificateNumber?: string | null;
  certificateFile?: string | null;
};

/**
 * The rules between fields that one request can check (docs/product-rules.md §10); the server checks the same
 * on the stored product after an update (and the HUID rule, which needs the final weight and material).
 */
export function pricingIssues(p: PricingFields, creating: boolean): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (p.pricingMode === 'rate') {
    if (!p.metal || !p.metalPurity || !p.netWeight || !p.makingType || p.makingValue == null) {
      // An update may give only some of them: the server checks the stored product.
      if (creating) out.push({ path: 'pricingMode', message: PRICING_MESSAGES.rateFieldsRequired });
    }
    if (
      p.metal &&
      p.metalPurity &&
      !(METAL_PURITIES[p.metal as keyof typeof METAL_PURITIES] as readonly string[]).includes(p.metalPurity)
    ) {
      out.push({ path: 'metalPurity', message: PRICING_MESSAGES.purityInvalid });
    }
    if (p.makingType === 'percent' && p.makingValue && Number(p.makingValue) > 100) {
      out.push({ path: 'makingValue', message: PRICING_MESSAGES.makingPercentMax });
    }
  } else if (creating && p.price === undefined) {
    out.push({ path: 'price', message: M.pricePositive });
  }
  if (p.netWeight && p.weight && Number(p.netWeight) > Number(p.weight)) {
    out.push({ path: 'netWeight', message: PRICING_MESSAGES.netWeightAboveGross });
  }
  if (
    !!p.certificateLab !== !!p.certificateNumber &&
    (p.certificateLab !== undefined || p.certificateNumber !== undefined)
  ) {
    out.push({ path: 'certificateNumber', message: PRICING_MESSAGES.certificateIncomplete });
  }
  // A file belongs to a certificate: on create both come together (an update is checked on the stored product).
  if (creating && p.certificateFile && !(p.certificateLab && p.certificateNumber)) {
    out.push({ path: 'certificateFile', message: PRICING_MESSAGES.certificateFileWithoutNumber });
  }
  return out;
}

const strictObject = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? M.unknownFields : undefined),
  });

const productId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v.trim()) : v),
  z
    .number({ error: M.productIdInvalid })
    .int(M.productIdInvalid)
    .positive(M.productIdInvalid)
    .max(2_147_483_647, M.productIdInvalid),
);

/** POST /_api/products/create: every product field of docs/product-rules.md §3 with the rules of §5. */
export const ProductCreateSchema = strictObject({
  ...productFields,
  // A rate-linked product's price is computed from the shop's rate (pricing.ts).
  price: productFields.price.optional(),
  images: images(false),
  tryOnImage: TryOnImageInputSchema.nullable().optional(),
}).superRefine((p, ctx) => {
  for (const issue of pricingIssues(p, true))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type ProductCreateInput = z.infer<typeof ProductCreateSchema>;

/**
 * POST /_api/products/update: id plus any create field. Null or blank clears an optional field; images, when
 * given, replace the list in the given order (existing /media/ paths keep their stored image).
 */
export const ProductUpdateSchema = strictObject({
  id: productId,
  name: productFields.name.optional(),
  description: productFields.description.optional(),
  price: productFields.price.optional(),
  category: productFields.category.optional(),
  material: productFields.material.optional(),
  stockQuantity: productFields.stockQuantity,
  sku: productFields.sku,
  width: productFields.width,
  height: productFields.height,
  size: productFields.size,
  purity: productFields.purity,
  weight: productFields.weight,
  diamondsTotalCount: productFields.diamondsTotalCount,
  diamondsType: productFields.diamondsType,
  diamondsTotalWeight: productFields.diamondsTotalWeight,
  gemstoneTotalCount: productFields.gemstoneTotalCount,
  gemstoneType: productFields.gemstoneType,
  makingCharges: productFields.makingCharges,
  stoneCharges: productFields.stoneCharges,
  discountAmount: productFields.discountAmount,
  gstAmount: productFields.gstAmount,
  sizeAvailable: productFields.sizeAvailable,
  isCustomMade: productFields.isCustomMade,
  pricingMode: productFields.pricingMode,
  metal: productFields.metal,
  metalPurity: productFields.metalPurity,
  netWeight: productFields.netWeight,
  makingType: productFields.makingType,
  makingValue: productFields.makingValue,
  huid: productFields.huid,
  certificateLab: productFields.certificateLab,
  certificateNumber: productFields.certificateNumber,
  certificateFile: productFields.certificateFile,
  images: images(true).optional(),
  tryOnImage: TryOnImageInputSchema.nullable().optional(),
}).superRefine((p, ctx) => {
  for (const issue of pricingIssues(p, false))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type ProductUpdateInput = z.infer<typeof ProductUpdateSchema>;

/** POST /_api/products/delete. */
export const ProductDeleteSchema = strictObject({ id: productId });
export type ProductDeleteInput = z.infer<typeof ProductDeleteSchema>;

/** POST /_api/products/create (201) and /_api/products/update answer: the product as the catalogue shows it. */
export interface ProductMutationResponse {
  success: true;
  productId: number;
  product: Product;
}

/** POST /_api/products/delete answer. */
export interface ProductDeleteResponse {
  success: true;
}

/** GET /_api/products/open-orders: asked before a delete (issue #48). */
export const ProductOpenOrdersQuerySchema = strictObject({ id: productId });

/** How many unfinished orders (pending, confirmed or shipped) include the product. */
export interface ProductOpenOrdersResponse {
  openOrders: number;
}
