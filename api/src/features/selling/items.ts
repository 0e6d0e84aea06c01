import type { Knex } from 'knex';
import type { CallItem } from '../../../contract/call-selling';
import { presentCallItem, productIdsOf, type CallItemRow } from './presenter';
import { loadCallProductRows } from './products';

const ITEM_COLUMNS = `i.id, i.call_id, i.from_user_id, i.kind, i.product_id, i.body, i.created_at,
       ph.width, ph.height`;

/** Rows → items, with every product they show loaded in one query. */
async function present(db: Knex, rows: CallItemRow[]): Promise<CallItem[]> {
  const products = await loadCallProductRows(db, rows.flatMap(productIdsOf));
  return rows.flatMap((r) => {
    const item = presentCallItem(r, products);
    return item ? [item] : [];
  });
}

/** A call's items after `after`, oldest first, at most `limit` (null: all). */
export async function loadCallItems(
  db: Knex,
  callId: number,
  after: number,
  limit: number | null,
): Promise<CallItem[]> {
  const { rows } = (await db.raw(
    `select ${ITEM_COLUMNS} from call_items i left join call_photos ph on ph.item_id = i.id
      where i.call_id = ? and i.id > ? order by i.id ${limit === null ? '' : 'limit ?'}`,
    limit === null ? [callId, after] : [callId, after, limit],
  )) as { rows: CallItemRow[] };
  return present(db, rows);
}

/** The items of these ids, by id (the event stream's 'item' events). */
export async function loadCallItemsById(db: Knex, ids: number[]): Promise<Map<number, CallItem>> {
  if (!ids.length) return new Map();
  const { rows } = (await db.raw(
    `select ${ITEM_COLUMNS} from call_items i left join call_photos ph on ph.item_id = i.id
      where i.id = any(?::bigint[]) order by i.id`,
    [ids],
  )) as { rows: CallItemRow[] };
  return new Map((await present(db, rows)).map((item) => [item.id, item]));
}
