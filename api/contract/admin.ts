import { z } from 'zod';
import type { SellerProfile } from './sellers';

/** Admin-area messages: the product rules' access text and our approval outcomes. */
export const ADMIN_MESSAGES = {
  unknownFields: 'Unknown fields are not allowed.',
  sellerUserIdInvalid: 'Seller user ID must be a positive integer.',
  isApprovedInvalid: 'isApproved must be true or false.',
  approved: 'Seller approved successfully.',
  disapproved: 'Seller disapproved successfully.',
  alreadyApproved: 'Seller is already approved.',
  alreadyDisapproved: 'Seller is already disapproved.',
  profileNotFound: 'Seller profile not found.',
} as const;

const M = ADMIN_MESSAGES;

/** POST /_api/admin/seller/approve (docs/product-rules.md §5: sellerUserId and boolean isApproved). */
export const SellerApprovalSchema = z.strictObject(
  {
    sellerUserId: z
      .number({ error: M.sellerUserIdInvalid })
      .int(M.sellerUserIdInvalid)
      .positive(M.sellerUserIdInvalid)
      .max(2_147_483_647, M.sellerUserIdInvalid),
    isApproved: z.boolean({ error: M.isApprovedInvalid }),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? M.unknownFields : undefined) },
);
export type SellerApprovalInput = z.infer<typeof SellerApprovalSchema>;

/** One row of GET /_api/admin/sellers: a seller account (or an admin with a shop) and its profile. */
export interface AdminSeller {
  id: number;
  displayName: string;
  email: string;
  role: 'seller' | 'admin';
  createdAt: string;
  sellerProfile: SellerProfile | null;
}

/** One row of GET /_api/admin/customers. */
export interface AdminCustomer {
  id: number;
  displayName: string;
  email: string;
  createdAt: string;
}

export interface AdminSellersResponse {
  sellers: AdminSeller[];
}

export interface AdminCustomersResponse {
  customers: AdminCustomer[];
}

/** POST /_api/admin/seller/approve answer. */
export interface SellerApprovalResponse {
  message: typeof M.approved | typeof M.disapproved;
  profile: SellerProfile;
}
