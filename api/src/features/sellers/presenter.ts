import type { SellerProfile } from '../../../contract/sellers';

/** A seller_profiles row as selected with `select *`. */
export interface SellerProfileRow {
  id: number;
  user_id: number;
  shop_name: string;
  description: string | null;
  shop_address: string;
  city: string;
  state: string;
  pincode: string;
  phone: string;
  whatsapp_number: string | null;
  gst_number: string | null;
  business_license: string | null;
  certifications: unknown;
  video_call_enabled: boolean;
  url_slug: string | null;
  established_date: string | Date | null;
  is_approved: boolean | null;
  rating_avg: string | number;
  rating_count: number;
  created_at: Date | string;
}

const isoDate = (v: string | Date | null): string | null => {
  if (v === null) return null;
  if (typeof v === 'string') return v.slice(0, 10);
  // A date column arrives as local midnight; format the calendar date, not a UTC shift of it.
  const y = v.getFullYear();
  const m = String(v.getMonth() + 1).padStart(2, '0');
  const d = String(v.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
};

/** Maps a seller_profiles row to the API's SellerProfile. */
export function presentSellerProfile(row: SellerProfileRow): SellerProfile {
  const certs = typeof row.certifications === 'string' ? JSON.parse(row.certifications) : row.certifications;
  return {
    id: row.id,
    userId: row.user_id,
    sellerId: row.user_id,
    shopName: row.shop_name,
    description: row.description,
    shopAddress: row.shop_address,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    phone: row.phone,
    whatsappNumber: row.whatsapp_number,
    gstNumber: row.gst_number,
    businessLicense: row.business_license,
    certifications: Array.isArray(certs) ? certs.map(String) : [],
    videoCallEnabled: row.video_call_enabled,
    urlSlug: row.url_slug,
    establishedDate: isoDate(row.established_date),
    isApproved: row.is_approved,
    averageRating: Number(row.rating_avg),
    ratingCount: row.rating_count,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
