import type { Knex } from 'knex';
import { LIMITS } from '../../../contract/constants';
import { RESERVED_SLUGS } from '../../../contract/sellers';

/**
 * The URL-safe base of a shop name: accents folded (Café → cafe), anything else outside a-z0-9 becomes a
 * hyphen. Names written wholly in another script (Tamil, Devanagari) fold to nothing, so they fall back to a
 * stable `shop-{userId}`; a short result is lengthened so it always meets the 3-character minimum.
 */
export function slugBase(shopName: string, userId: number): string {
  const folded = shopName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[øØ]/g, 'o')
    .replace(/&/g, ' and ')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, LIMITS.urlSlugMax)
    .replace(/-+$/g, '');
  if (!folded) return `shop-${userId}`;
  if (folded.length < LIMITS.urlSlugMin) return `${folded}-shop`;
  return folded;
}

/** `base` with `-n` appended, trimmed so the whole stays within the slug maximum. */
function withSuffix(base: string, n: number): string {
  const suffix = `-${n}`;
  return `${base.slice(0, LIMITS.urlSlugMax - suffix.length).replace(/-+$/g, '')}${suffix}`;
}

/**
 * The first free slug among base, base-2, base-3… (case-insensitive, skipping words the site's own routes
 * use). Another request may take it before the insert; callers retry on the unique index's violation.
 */
export async function nextFreeSlug(db: Knex, base: string): Promise<string> {
  const prefix = base.slice(0, LIMITS.urlSlugMax - 4);
  // The base holds only [a-z0-9-], so it needs no LIKE escaping.
  const rows = (await db('seller_profiles')
    .whereRaw('lower(url_slug) = ?', [base])
    .orWhereRaw('lower(url_slug) like ?', [`${prefix}%`])
    .select(db.raw('lower(url_slug) as slug'))) as { slug: string }[];
  const taken = new Set(rows.map((r) => r.slug));
  const free = (s: string) => !taken.has(s) && !RESERVED_SLUGS.has(s);
  if (free(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = withSuffix(base, n);
    if (free(candidate)) return candidate;
  }
}
