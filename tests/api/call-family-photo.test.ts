import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAMILY_GUEST_HEADER,
  type FamilyAskResponse,
  type FamilyGuestStateResponse,
  type FamilyInviteResponse,
} from '../../api/contract/call-family';
import type { CallItemsCreatedResponse, PhotoCallItem } from '../../api/contract/call-selling';
import { buildProduct } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { activeCall, callParties, type CallParties } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const jpeg = async () =>
  `data:image/jpeg;base64,${(
    await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 180, g: 40, b: 90 } } })
      .jpeg()
      .toBuffer()
  ).toString('base64')}`;

/** A guest of the call, asked and (unless told) admitted: the guest's token. */
async function guest(
  p: CallParties,
  callId: number,
  name: string,
  admit = true,
): Promise<{ token: string; id: number }> {
  const link = await p.asCustomer.post<FamilyInviteResponse>('/_api/family/invite', { callId });
  const ask = await api
    .client()
    .post<FamilyAskResponse>('/_api/family/ask', { token: link.body.token, name });
  expect(ask.status).toBe(201);
  if (admit)
    expect(
      (await p.asSeller.post('/_api/family/decide', { callId, guestId: ask.body.guestId, action: 'admit' }))
        .status,
    ).toBe(200);
  return { token: ask.body.guestToken, id: ask.body.guestId };
}

const sendPhoto = async (p: CallParties, callId: number): Promise<PhotoCallItem> => {
  const sent = await p.asSeller.post<CallItemsCreatedResponse>('/_api/call/photo', {
    callId,
    image: await jpeg(),
  });
  expect(sent.status).toBe(201);
  return sent.body.items[0] as PhotoCallItem;
};

const asGuest = (path: string, token?: string) =>
  fetch(api.url + path, { headers: token === undefined ? {} : { [FAMILY_GUEST_HEADER]: token } });

describe('the jeweller’s photos reach the admitted guests (§21)', () => {
  it('lists each photo with the guest’s address, and serves its bytes to the guest as to the participants', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const amma = await guest(p, callId, 'Amma');
    const shown = await buildProduct(api.db.knex, p.seller.id, { name: 'Jhumka' });
    expect((await p.asSeller.post('/_api/call/share', { callId, productIds: [shown.id] })).status).toBe(201);
    const before = await api
      .client()
      .get<FamilyGuestStateResponse>('/_api/family/guest?after=0&afterItem=0&afterLike=0', {
        [FAMILY_GUEST_HEADER]: amma.token,
      });
    const pieceId = before.body.items[0]!.id;
    const photo = await sendPhoto(p, callId);

    // Only what came after the page's cursor: the photo, with an address the guest may read.
    const news = await api
      .client()
      .get<FamilyGuestStateResponse>(`/_api/family/guest?after=0&afterItem=${pieceId}&afterLike=0`, {
        [FAMILY_GUEST_HEADER]: amma.token,
      });
    expect(news.body.items).toEqual([{ ...photo, photoUrl: `/_api/family/guest/photo?itemId=${photo.id}` }]);

    const participant = await fetch(api.url + photo.photoUrl, {
      headers: { Cookie: p.asCustomer.cookieHeader() },
    });
    const res = await asGuest(
      news.body.items[0]!.kind === 'photo' ? news.body.items[0]!.photoUrl : '',
      amma.token,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(res.headers.get('cache-control')).toBe(participant.headers.get('cache-control'));
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(await participant.arrayBuffer()))).toBe(
      true,
    );
  });

  it('refuses no token, a guest not in the call, and what is not a photo of the guest’s call', async () => {
    const p = await callParties(api);
    const callId = await activeCall(p);
    const amma = await guest(p, callId, 'Amma');
    const asked = await guest(p, callId, 'Akka', false);
    const removed = await guest(p, callId, 'Anna');
    const photo = await sendPhoto(p, callId);
    const url = `/_api/family/guest/photo?itemId=${photo.id}`;

    expect((await asGuest(url)).status).toBe(401);
    expect((await asGuest(url, 'x'.repeat(43))).status).toBe(401);
    // The participants' route needs a session: a guest's token is no way in.
    expect((await asGuest(photo.photoUrl, amma.token)).status).toBe(401);

    expect((await asGuest(url, asked.token)).status).toBe(403);
    expect(
      (await p.asSeller.post('/_api/family/decide', { callId, guestId: removed.id, action: 'remove' }))
        .status,
    ).toBe(200);
    expect((await asGuest(url, removed.token)).status).toBe(403);

    // Another call's photo, a shown piece (not a photo), an item that does not exist.
    const other = await callParties(api);
    const elsewhere = await sendPhoto(other, await activeCall(other));
    expect((await asGuest(`/_api/family/guest/photo?itemId=${elsewhere.id}`, amma.token)).status).toBe(404);
    const shown = await buildProduct(api.db.knex, p.seller.id);
    const share = await p.asSeller.post<CallItemsCreatedResponse>('/_api/call/share', {
      callId,
      productIds: [shown.id],
    });
    expect(
      (await asGuest(`/_api/family/guest/photo?itemId=${share.body.items[0]!.id}`, amma.token)).status,
    ).toBe(404);
    expect((await asGuest('/_api/family/guest/photo?itemId=999999999', amma.token)).status).toBe(404);
    expect((await asGuest(url, amma.token)).status).toBe(200);

    // A guest who left reads nothing more.
    expect(
      (await api.client().post('/_api/family/leave', {}, { [FAMILY_GUEST_HEADER]: amma.token })).status,
    ).toBe(200);
    expect((await asGuest(url, amma.token)).status).toBe(403);
  });
});
