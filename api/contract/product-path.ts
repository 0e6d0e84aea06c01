/**
 * A product's own address: /product/{readable slug}-{id} (gold-jhumka-earrings-123), or /product/{id} when the
 * name has no Latin letters or digits. Only the id counts when it is read back, so a renamed product's old links
 * still work (the page names the current address as canonical).
 */
export function productPath(product: { id: number; name: string }): string {
  const slug = product.name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `/product/${slug ? `${slug}-` : ''}${product.id}`;
}

/** The product id of a /product/{slug-id} segment, or null when it names none. */
export function productIdFromRef(ref: string): number | null {
  const m = /(?:^|-)(\d{1,15})$/.exec(ref);
  const id = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
