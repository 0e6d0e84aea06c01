import type { Knex } from 'knex';
import {
  FAMILY_ERROR_CODES as CODES,
  FAMILY_MESSAGES as MSG,
  type GuestState,
} from '../../../contract/call-family';
import { API_ROUTES } from '../../../contract/routes';
import type { CallItem } from '../../../contract/call-selling';
import { conflict, forbidden, notFound } from '../../http/errors';
import type { GuestRow } from './family';

/** Where an admitted guest reads a photo's bytes (the participants' callPhotoUrl needs a session). */
export const guestPhotoUrl = (itemId: number) => `${API_ROUTES.familyGuestPhoto.path}?itemId=${itemId}`;

/**
 * The call items a guest sees: the pieces shown, the chat and the jeweller's photos (with the guest's photo
 * address); holds and the cart stay the customer's.
 */
export function forGuest(items: CallItem[]): CallItem[] {
  const seen: CallItem[] = [];
  for (const item of items) {
    if (item.kind === 'photo') seen.push({ ...item, photoUrl: guestPhotoUrl(item.id) });
    else if (item.kind === 'product' || item.kind === 'message') seen.push(item);
  }
  return seen;
}

/**
 * A photo's bytes for a guest of its call: admitted (not asked, removed or left) to a live call, and the item
 * a photo of that very call.
 */
export async function readGuestPhoto(
  db: Knex,
  guest: GuestRow,
  itemId: number,
): Promise<{ bytes: Buffer; mime: string }> {
  const { rows } = (await db.raw(
    `select c.status, g.state from call_guests g join calls c on c.id = g.call_id where g.id = ?`,
    [guest.id],
  )) as { rows: { status: string; state: GuestState }[] };
  const state = rows[0]!;
  if (state.state !== 'admitted') throw forbidden(MSG.notAdmitted, CODES.notAdmitted);
  if (state.status !== 'active') throw conflict(MSG.callNotLive, CODES.callNotLive);
  const row = (await db('call_photos as ph')
    .join('call_items as i', 'i.id', 'ph.item_id')
    .where({ 'ph.item_id': itemId, 'i.call_id': guest.call_id, 'i.kind': 'photo' })
    .first('ph.bytes', 'ph.mime')) as { bytes: Buffer | Uint8Array; mime: string } | undefined;
  if (!row) throw notFound('Photo not found.', 'photo_not_found');
  return { bytes: Buffer.from(row.bytes), mime: row.mime };
}
