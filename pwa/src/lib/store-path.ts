/**
 * Where a shop's public store lives: /{urlSlug} (URL-encoded), or the /sellers/{id} fallback for a shop without
 * a slug (docs/product-rules.md §2). Takes a seller card's `sellerId` or a profile's `userId` (the same number).
 */
export function storePath(
  shop: { urlSlug: string | null } & ({ sellerId: number } | { userId: number }),
): string {
  if (shop.urlSlug) return `/${encodeURIComponent(shop.urlSlug)}`;
  return `/sellers/${'sellerId' in shop ? shop.sellerId : shop.userId}`;
}
