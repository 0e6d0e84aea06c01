import type { Knex } from 'knex';
import type { CallProduct } from '../../../contract/call-selling';
import type { ProductCategory, ProductMaterial } from '../../../contract/constants';
import { presentTryOnImage } from '../catalog/presenter';

/**
 * Products as a call shows them (CallProduct): the piece a call is about, the cards the jeweller shows, the
 * products a chat message links to. One loader for all of them, so the ringing modal, the call's card and
 * the summary always agree. It imports nothing of the calls area: calls and events use it.
 */

/** A product row as the loader selects it. */
export interface CallProductRow {
  id: number;
  seller_id: number;
  name: string;
  price: string;
  material: ProductMaterial;
  category: ProductCategory;
  width_mm: string | number | null;
  height_mm: string | number | null;
  purity: string | null;
  weight_g: string | number | null;
  sku: string | null;
  stock_quantity: number | null;
  deleted: boolean;
  available: boolean;
  image_url: string | null;
  full_image_url: string | null;
  tryon_image_url: string | null;
  tryon_width: number | null;
  tryon_height: number | null;
  tryon_anchor_x: number | null;
  tryon_anchor_y: number | null;
}

/** The columns of a CallProduct, from `products p` joined with `seller_profiles sp`. */
const COLUMNS = `p.id, p.seller_id, p.name, p.price, p.material, p.category, p.width_mm, p.height_mm, p.purity, p.weight_g, p.sku, p.stock_quantity,
       p.tryon_image_url, p.tryon_width, p.tryon_height, p.tryon_anchor_x, p.tryon_anchor_y,
       p.deleted_at is not null as deleted,
       (p.deleted_at is null and coalesce(sp.is_approved, false)
         and (p.stock_quantity is null or p.stock_quantity > 0)) as available,
       img.card_url as image_url, img.detail_url as full_image_url`;

/** The cover image (the first position): its card rendition and its largest one. */
const FROM = `products p
  left join seller_profiles sp on sp.user_id = p.seller_id
  left join lateral (select i.card_url, i.detail_url from product_images i where i.product_id = p.id
                      order by i.position limit 1) img on true`;

export function presentCallProduct(row: CallProductRow): CallProduct {
  return {
    id: row.id,
    name: row.name,
    price: row.price,
    imageUrl: row.image_url,
    fullImageUrl: row.full_image_url,
    material: row.material,
    category: row.category,
    width: row.width_mm === null ? null : Number(row.width_mm),
    height: row.height_mm === null ? null : Number(row.height_mm),
    tryOnImage: presentTryOnImage(row),
    purity: row.purity,
    weight: row.weight_g === null ? null : Number(row.weight_g),
    sku: row.sku,
    stockQuantity: row.stock_quantity,
    available: row.available,
  };
}

/** The products of these ids (deleted ones included, marked so), by id; one query, none for no ids. */
export async function loadCallProductRows(db: Knex, ids: number[]): Promise<Map<number, CallProductRow>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const { rows } = (await db.raw(`select ${COLUMNS} from ${FROM} where p.id = any(?::int[])`, [unique])) as {
    rows: CallProductRow[];
  };
  return new Map(rows.map((r) => [r.id, r]));
}

/** The products of these ids as CallProducts, by id. */
export async function loadCallProducts(db: Knex, ids: number[]): Promise<Map<number, CallProduct>> {
  const rows = await loadCallProductRows(db, ids);
  return new Map([...rows].map(([id, r]) => [id, presentCallProduct(r)]));
}

/** The piece one call is about, or null. */
export async function loadCallProduct(db: Knex, productId: number | null): Promise<CallProduct | null> {
  if (productId === null) return null;
  return (await loadCallProducts(db, [productId])).get(productId) ?? null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A shop's own products that are not deleted, matching `q` in the name (anywhere) or the SKU (its start),
 * newest first; with an empty `q`, the newest products of the shop.
 */
export async function searchShopProducts(
  db: Knex,
  sellerId: number,
  q: string,
  limit: number,
): Promise<CallProduct[]> {
  const bindings: unknown[] = [sellerId];
  let filter = '';
  if (q) {
    filter = `and (p.name ilike ? or p.sku ilike ?)`;
    bindings.push(`%${escapeLike(q)}%`, `${escapeLike(q)}%`);
  }
  bindings.push(limit);
  const { rows } = (await db.raw(
    `select ${COLUMNS} from ${FROM}
      where p.seller_id = ? and p.deleted_at is null ${filter}
      order by p.created_at desc, p.id desc limit ?`,
    bindings as Knex.RawBinding[],
  )) as { rows: CallProductRow[] };
  return rows.map(presentCallProduct);
}
