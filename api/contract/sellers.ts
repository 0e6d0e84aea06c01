/** A seller's shop profile as the API returns it (spec §3). */
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
