import { z } from 'zod';
import { HIDDEN_CHARACTERS_MESSAGE, hasHiddenCharacters, LIMITS } from './constants';

/** A seller's shop profile as the API returns it (docs/product-rules.md §3). */
export interface SellerProfile {
  id: number;
  userId: number;
  sellerId: number;
  shopName: string;
  description: string | null;
  shopAddress: string;
  city: string;
  state: string;
  pincode: string;
  phone: string;
  whatsappNumber: string | null;
  gstNumber: string | null;
  businessLicense: string | null;
  certifications: string[];
  videoCallEnabled: boolean;
  urlSlug: string | null;
  establishedDate: string | null;
  isApproved: boolean | null;
  averageRating: number;
  ratingCount: number;
  createdAt: string;
}

/** Every seller-area message of the product rules (docs/product-rules.md §5, §6), word for word, plus our own server-side texts. */
export const SELLER_MESSAGES = {
  shopNameMin: 'Shop name must be at least 2 characters long.',
  shopAddressMin: 'Shop address must be at least 10 characters long.',
  cityRequired: 'City name is required.',
  stateRequired: 'State name is required.',
  invalidPincode: 'Invalid Indian pincode.',
  invalidPhone: 'Invalid 10-digit phone number.',
  invalidWhatsapp: 'Invalid 10-digit WhatsApp number.',
  invalidGst: 'Invalid GST number.',
  descriptionMax: 'Description cannot exceed 500 characters.',
  unknownFields: 'Unknown fields are not allowed.',
  shopNameRequired: 'Shop name is required.',
  shopAddressRequired: 'Shop address is required.',
  pincodeRequired: 'Pincode is required.',
  phoneRequired: 'Phone number is required.',
  registrationAdminOnly: 'Seller registration is only available for administrators.',
  profileNotFound: 'Seller profile not found.',
  // Server-side texts of ours (the product rules leave them open).
  profileExists: 'A seller profile already exists for this account.',
  urlSlugTaken: 'This store URL is already taken. Please choose another.',
  urlSlugReserved: 'This store URL is reserved for the site. Please choose another.',
  urlSlugMin: 'Store URL must be at least 3 characters long.',
  urlSlugMax: 'Store URL cannot exceed 50 characters.',
  urlSlugChars: 'Store URL may only contain letters, numbers, hyphens and underscores.',
  shopNameMax: 'Shop name cannot exceed 100 characters.',
  shopAddressMax: 'Shop address cannot exceed 300 characters.',
  cityMax: 'City name cannot exceed 100 characters.',
  stateMax: 'State name cannot exceed 100 characters.',
  businessLicenseMax: 'Business license cannot exceed 100 characters.',
  establishedDateInvalid: 'Established date must be a valid date (YYYY-MM-DD).',
  establishedDateFuture: 'Established date cannot be in the future.',
  certificationsInvalid: 'Each certification must be 1 to 100 characters.',
  certificationsMax: 'You can list at most 20 certifications.',
  videoCallEnabledInvalid: 'Video calls must be turned on or off (true or false).',
} as const;
export type SellerMessageId = keyof typeof SELLER_MESSAGES;

const M = SELLER_MESSAGES;

const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? M.unknownFields : undefined),
  });

/** The 15-character GSTIN: state code, PAN, entity number, 'Z', check character. */
export const GST_PATTERN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
export const PINCODE_PATTERN = /^[0-9]{6}$/;
export const MOBILE_PATTERN = /^[0-9]{10}$/;
export const URL_SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * First path segments the site itself uses: a store at /{slug} with one of these names would be unreachable
 * or would shadow a page.
 */
export const RESERVED_SLUGS = new Set([
  '_api',
  'admin',
  'api',
  'assets',
  'call-history',
  'cart',
  'checkout',
  'customer',
  'healthz',
  'login',
  'logout',
  'marketplace',
  'media',
  'orders',
  'register',
  'seller',
  'sellers',
  'sw',
  'static',
]);

/** Empty strings become null so that "left blank" and "not given" mean the same thing. */
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

const calendarDate = (d: Date) => d.toISOString().slice(0, 10);

/** YYYY-MM-DD, a real calendar date, not after today anywhere in India's (or any earlier) time zone. */
export const EstablishedDateSchema = z
  .string({ error: M.establishedDateInvalid })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, M.establishedDateInvalid)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && calendarDate(d) === v && d.getUTCFullYear() >= 1800;
  }, M.establishedDateInvalid)
  // The server runs in UTC while shops run in IST: allow the calendar date of the furthest-ahead zone.
  .refine((v) => v <= calendarDate(new Date(Date.now() + 14 * 3_600_000)), M.establishedDateFuture);

export const CertificationsSchema = z
  .array(
    z
      .string({ error: M.certificationsInvalid })
      .trim()
      .min(1, M.certificationsInvalid)
      .max(100, M.certificationsInvalid),
    {
      error: M.certificationsInvalid,
    },
  )
  .max(20, M.certificationsMax)
  .transform((list) => [...new Set(list)]);

export const UrlSlugSchema = z
  .string({ error: M.urlSlugChars })
  .trim()
  .min(LIMITS.urlSlugMin, M.urlSlugMin)
  .max(LIMITS.urlSlugMax, M.urlSlugMax)
  .regex(URL_SLUG_PATTERN, M.urlSlugChars);

const shopName = z
  .string({ error: M.shopNameMin })
  .trim()
  .min(2, M.shopNameMin)
  .max(100, M.shopNameMax)
  .refine((v) => !hasHiddenCharacters(v), HIDDEN_CHARACTERS_MESSAGE);
const shopAddress = z
  .string({ error: M.shopAddressMin })
  .trim()
  .min(10, M.shopAddressMin)
  .max(300, M.shopAddressMax);
const city = z.string({ error: M.cityRequired }).trim().min(2, M.cityRequired).max(100, M.cityMax);
const state = z.string({ error: M.stateRequired }).trim().min(2, M.stateRequired).max(100, M.stateMax);
const pincode = z.string({ error: M.invalidPincode }).trim().regex(PINCODE_PATTERN, M.invalidPincode);
const phone = z.string({ error: M.invalidPhone }).trim().regex(MOBILE_PATTERN, M.invalidPhone);
const whatsappNumber = z.string({ error: M.invalidWhatsapp }).trim().regex(MOBILE_PATTERN, M.invalidWhatsapp);
const gstNumber = z.string({ error: M.invalidGst }).trim().toUpperCase().regex(GST_PATTERN, M.invalidGst);
const businessLicense = z.string().trim().max(100, M.businessLicenseMax);
const description = z.string().trim().max(LIMITS.sellerDescriptionMax, M.descriptionMax);

/** An optional text field: blank or null means "not given". */
const optionalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankToNull, schema.nullable().optional()).transform((v) => v ?? undefined);

/**
 * Seller registration (docs/product-rules.md §5): the shop setup form of a new seller and the admin registration form.
 * Unknown fields are ignored here because the forms may carry display-only fields.
 */
export const SellerRegistrationSchema = z.object({
  shopName,
  shopAddress,
  city,
  state,
  pincode,
  phone,
  whatsappNumber: optionalText(whatsappNumber),
  gstNumber: optionalText(gstNumber),
  businessLicense: optionalText(businessLicense),
  description: optionalText(description),
  establishedDate: optionalText(EstablishedDateSchema),
  certifications: CertificationsSchema.optional(),
});
export type SellerRegistrationInput = z.infer<typeof SellerRegistrationSchema>;

/** A required profile field on update: blank is refused with 'X is required.', null means "not given". */
const requiredOnUpdate = <T extends z.ZodType<unknown, string>>(required: string, schema: T) =>
  z
    .preprocess(
      (v) => (typeof v === 'string' ? v.trim() : v),
      z.union([z.null(), z.string().min(1, required).pipe(schema)], { error: required }),
    )
    .optional()
    .transform((v) => v ?? undefined);

/** Seller profile update (docs/product-rules.md §5): strict, every field optional; empty or null values are not written. */
export const SellerProfileUpdateSchema = strict({
  shopName: requiredOnUpdate(M.shopNameRequired, shopName),
  shopAddress: requiredOnUpdate(M.shopAddressRequired, shopAddress),
  city: requiredOnUpdate(M.cityRequired, city),
  state: requiredOnUpdate(M.stateRequired, state),
  pincode: requiredOnUpdate(M.pincodeRequired, pincode),
  phone: requiredOnUpdate(M.phoneRequired, phone),
  description: optionalText(description),
  whatsappNumber: optionalText(whatsappNumber),
  gstNumber: optionalText(gstNumber),
  businessLicense: optionalText(businessLicense),
  establishedDate: optionalText(EstablishedDateSchema),
  urlSlug: optionalText(UrlSlugSchema),
  certifications: CertificationsSchema.nullable()
    .optional()
    .transform((v) => v ?? undefined),
  videoCallEnabled: z
    .boolean({ error: M.videoCallEnabledInvalid })
    .nullable()
    .optional()
    .transform((v) => v ?? undefined),
});
export type SellerProfileUpdateInput = z.infer<typeof SellerProfileUpdateSchema>;

/** POST /_api/seller/profile/setup and /_api/seller/register answer. */
export interface SellerProfileCreatedResponse {
  success: true;
  profile: SellerProfile;
}

/** GET /_api/seller/profile and POST /_api/seller/profile/update answer. */
export interface SellerProfileResponse {
  profile: SellerProfile;
}
