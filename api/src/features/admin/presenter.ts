import type { AdminCustomer, AdminSeller } from '../../../contract/admin';
import { presentSellerProfile, type SellerProfileRow } from '../sellers/presenter';
import type { AdminUserRow } from './service';

/** A seller account with its shop profile, for the admin dashboard. */
export function presentAdminSeller(user: AdminUserRow, profile: SellerProfileRow | null): AdminSeller {
  return {
    id: user.id,
    displayName: user.display_name,
    email: user.email,
    role: user.role === 'admin' ? 'admin' : 'seller',
    createdAt: new Date(user.created_at).toISOString(),
    sellerProfile: profile ? presentSellerProfile(profile) : null,
  };
}

/** A customer account, for the admin dashboard. */
export function presentAdminCustomer(user: AdminUserRow): AdminCustomer {
  return {
    id: user.id,
    displayName: user.display_name,
    email: user.email,
    createdAt: new Date(user.created_at).toISOString(),
  };
}
