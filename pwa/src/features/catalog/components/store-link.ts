/** Where a shop lives: /{urlSlug}, or /sellers/{id} for a shop without a slug (spec §2). */
export function storePath(shop: { urlSlug: string | null; sellerId: number }): string {
  return shop.urlSlug ? `/${encodeURIComponent(shop.urlSlug)}` : `/sellers/${shop.sellerId}`;
}
