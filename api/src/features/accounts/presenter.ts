import type { User } from '../../../contract/accounts';
import type { SessionUser } from '../../http/context';
import { presentSellerProfile, type SellerProfileRow } from '../sellers/presenter';

/** Maps a loaded user and their shop row (if any) to the API's User. */
export function presentUser(user: SessionUser, sellerProfile: SellerProfileRow | null | undefined): User {
  return {
    id: user.id,
    email: user.email,
    displayName: user.displayName,
    fullName: user.fullName,
    role: user.role,
    avatarUrl: user.avatarUrl,
    phone: user.phone,
    address: user.address,
    createdAt: new Date(user.createdAt).toISOString(),
    failedLogins: user.failedLogins
      ? { count: user.failedLogins.count, lastAt: user.failedLogins.lastAt.toISOString() }
      : null,
    sellerProfile: sellerProfile ? presentSellerProfile(sellerProfile) : null,
  };
}
