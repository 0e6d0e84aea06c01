import type { SellerProfile } from '../../../../../api/contract/sellers';

/** The 8 profile fields that count towards completion, in the order the dashboard lists missing ones. */
export const COMPLETION_FIELDS = [
  'description',
  'shopAddress',
  'phone',
  'whatsappNumber',
  'gstNumber',
  'businessLicense',
  'certifications',
  'urlSlug',
] as const;
export type CompletionField = (typeof COMPLETION_FIELDS)[number];

/** How many of the missing fields the dashboard names (docs/product-rules.md §9). */
export const MISSING_SHOWN = 3;

function filled(profile: SellerProfile, field: CompletionField): boolean {
  const value = profile[field];
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'string' && value.trim() !== '';
}

/** Completion of the shop profile: percent over the 8 fields and the missing ones in order. */
export function profileCompletion(profile: SellerProfile) {
  const missing = COMPLETION_FIELDS.filter((f) => !filled(profile, f));
  const done = COMPLETION_FIELDS.length - missing.length;
  return {
    done,
    total: COMPLETION_FIELDS.length,
    percent: Math.round((done / COMPLETION_FIELDS.length) * 100),
    missing,
  };
}
