import type { SellerProfile } from '../../../../../api/contract/sellers';

/** The public store of a shop: /{urlSlug}, or the /sellers/{id} fallback when it has no slug (spec §2). */
export function storePath(profile: Pick<SellerProfile, 'urlSlug' | 'userId'>): string {
  return profile.urlSlug ? `/${profile.urlSlug}` : `/sellers/${profile.userId}`;
}
