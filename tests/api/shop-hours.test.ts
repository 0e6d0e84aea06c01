import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DateTime } from 'luxon';
import type { ProductListResponse, SellerListResponse, StoreResponse } from '../../api/contract/catalog';
import {
  ALWAYS_OPEN,
  SHOP_HOURS_MESSAGES,
  type ShopCallState,
  type ShopCallStateResponse,
  type ShopHoursResponse,
} from '../../api/contract/shop-hours';
import { buildProduct } from '../factories';
import { CALL_STATE_CACHE_MS } from '../../api/src/features/schedule/call-state-cache';
import { startTestApi, type TestApi } from '../support/api';
import { callParties, type CallParties } from './calls-support';
import { EventStreamReader } from '../support/sse';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

/** A weekday three days from now in Kolkata: a range on it is never open now (nor just past midnight). */
const farDay = () => DateTime.fromJSDate(api.clock.now(), { zone: 'Asia/Kolkata' }).plus({ days: 3 }).weekday;

/** The call state of the shop as the directory, the storefront, its product list and the product page show it. */
async function statesEverywhere(p: CallParties, productId: number): Promise<ShopCallState[]> {
  const visitor = api.client();
  const city = (await api.db.knex('seller_profiles').where('user_id', p.seller.id).first('city')) as {
    city: string;
  };
  const directory = await visitor.get<SellerListResponse>(
    `/_api/sellers/list?city=${encodeURIComponent(city.city)}`,
  );
  const card = directory.body.sellers.find((s) => s.sellerId === p.seller.id)!;
  const store = await visitor.get<StoreResponse>(`/_api/seller/store/by-id?sellerId=${p.seller.id}`);
  const list = await visitor.get<ProductListResponse>(`/_api/products/list?sellerId=${p.seller.id}`);
  const product = await visitor.get<{ product: { callState: ShopCallState } }>(
    `/_api/products/get?id=${productId}`,
  );
  return [
    card.callState,
    store.body.sellerProfile.callState,
    store.body.productsData.products[0]!.callState!,
    list.body.products[0]!.callState!,
    product.body.product.callState,
  ];
}

const markPresent = (sellerId: number) =>
  api.db
    .knex('seller_presence')
    .insert({ user_id: sellerId, last_polled_at: api.clock.now() })
    .onConflict('user_id')
    .merge();

describe('shop hours and away: one call state everywhere', () => {
  it('starts open all week in Asia/Kolkata; unreachable until the app is open, then available', async () => {
    const p = await callParties(api, { city: `Hours ${Date.now()}` }, { appOpen: false });
    const product = await buildProduct(api.db.knex, p.seller.id);
    const own = await p.asSeller.get<ShopHoursResponse>('/_api/seller/hours');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      timeZone: 'Asia/Kolkata',
      hours: ALWAYS_OPEN,
      away: false,
      awayMessage: null,
      callState: { state: 'unreachable' },
    });
    expect(new Set((await statesEverywhere(p, product.id)).map((s) => s.state))).toEqual(
      new Set(['unreachable']),
    );
    await markPresent(p.seller.id);
    api.handle.deps.catalogCache.invalidate();
    expect(await statesEverywhere(p, product.id)).toEqual(Array(5).fill({ state: 'available' }));
  });

  it('closed outside hours: the same state with the next opening everywhere, and initiate answers 409', async () => {
    const p = await callParties(api, { city: `Closed ${Date.now()}` });
    const product = await buildProduct(api.db.knex, p.seller.id);
    await markPresent(p.seller.id);
    const day = farDay();
    const saved = await p.asSeller.post<ShopHoursResponse>('/_api/seller/hours', {
      timeZone: 'Asia/Kolkata',
      hours: [{ day, from: '10:00', to: '11:00' }],
      away: false,
      awayMessage: '',
    });
    expect(saved.status).toBe(200);
    const opensAt = DateTime.fromJSDate(api.clock.now(), { zone: 'Asia/Kolkata' })
      .plus({ days: 3 })
      .set({ hour: 10, minute: 0, second: 0, millisecond: 0 })
      .toUTC()
      .toISO({ suppressMilliseconds: false });
    const closed = { state: 'closed', opensAt, timeZone: 'Asia/Kolkata' };
    expect(saved.body.callState).toEqual(closed);
    expect(await statesEverywhere(p, product.id)).toEqual(Array(5).fill(closed));

    const res = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: SHOP_HOURS_MESSAGES.closed, code: 'shop_closed' });
    expect(
      Number(
        (
          (await api.db.knex('calls').where('seller_id', p.seller.id).count({ n: '*' })) as { n: unknown }[]
        )[0]!.n,
      ),
    ).toBe(0);
  });

  it('away: the message everywhere, initiate refused; back from away the shop rings again', async () => {
    const p = await callParties(api, { city: `Away ${Date.now()}` });
    const product = await buildProduct(api.db.knex, p.seller.id);
    await markPresent(p.seller.id);
    const away = await p.asSeller.post<ShopHoursResponse>('/_api/seller/hours', {
      timeZone: 'Asia/Kolkata',
      hours: ALWAYS_OPEN,
      away: true,
      awayMessage: '  At a fitting till 4  ',
    });
    expect(away.body.callState).toEqual({ state: 'away', message: 'At a fitting till 4' });
    expect(await statesEverywhere(p, product.id)).toEqual(
      Array(5).fill({ state: 'away', message: 'At a fitting till 4' }),
    );
    const refused = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: SHOP_HOURS_MESSAGES.away, code: 'shop_away' });

    await p.asSeller.post('/_api/seller/hours', {
      timeZone: 'Asia/Kolkata',
      hours: ALWAYS_OPEN,
      away: false,
      awayMessage: null,
    });
    const rings = await p.asCustomer.post('/_api/call/initiate', {
      sellerId: p.seller.id,
      productId: product.id,
    });
    expect(rings.status).toBe(201);
  });

  it('a shop in another time zone is judged by its own clock', async () => {
    const p = await callParties(api);
    await markPresent(p.seller.id);
    const zone = 'America/Los_Angeles';
    const local = DateTime.fromJSDate(api.clock.now(), { zone });
    // Open from the start of this hour there for two hours: open now for a Los Angeles shop.
    const from = `${String(local.hour).padStart(2, '0')}:00`;
    const to = `${String((local.hour + 2) % 24).padStart(2, '0')}:00`;
    const res = await p.asSeller.post<ShopHoursResponse>('/_api/seller/hours', {
      timeZone: zone,
      hours: [{ day: local.weekday, from, to: to === '00:00' ? '24:00' : to }],
      away: false,
      awayMessage: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.callState).toEqual({ state: 'available' });
  });

  it('is the shop’s own setting: validated, and refused to customers and visitors', async () => {
    const p = await callParties(api);
    const overlap = await p.asSeller.post('/_api/seller/hours', {
      timeZone: 'Asia/Kolkata',
      hours: [
        { day: 1, from: '10:00', to: '13:00' },
        { day: 1, from: '12:00', to: '14:00' },
      ],
      away: false,
      awayMessage: null,
    });
    expect(overlap.status).toBe(400);
    expect(overlap.body).toMatchObject({ error: SHOP_HOURS_MESSAGES.overlappingRanges });
    const zone = await p.asSeller.post('/_api/seller/hours', {
      timeZone: 'Nowhere/Town',
      hours: [],
      away: false,
      awayMessage: null,
    });
    expect(zone.status).toBe(400);
    // Only a real IANA zone as the tz database spells it (issue #48): not another spelling the runtime would
    // take, a legacy abbreviation or an offset.
    for (const timeZone of ['asia/kolkata', 'EST', 'US/Eastern', '+05:30', 'Asia/Kolkata ', '']) {
      const refused = await p.asSeller.post('/_api/seller/hours', {
        timeZone,
        hours: [],
        away: false,
        awayMessage: null,
      });
      expect(refused.status, timeZone).toBe(400);
      expect(refused.body, timeZone).toMatchObject({ error: SHOP_HOURS_MESSAGES.invalidTimeZone });
    }
    for (const timeZone of ['UTC', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata']) {
      const saved = await p.asSeller.post<ShopHoursResponse>('/_api/seller/hours', {
        timeZone,
        hours: [],
        away: false,
        awayMessage: null,
      });
      expect(saved.status, timeZone).toBe(200);
      expect(saved.body.timeZone).toBe(timeZone);
    }
    expect((await p.asCustomer.get('/_api/seller/hours')).status).toBe(403);
    expect(
      (
        await p.asCustomer.post('/_api/seller/hours', {
          timeZone: 'Asia/Kolkata',
          hours: [],
          away: false,
          awayMessage: null,
        })
      ).status,
    ).toBe(403);
    expect((await api.client().get('/_api/seller/hours')).status).toBe(401);
  });
});

describe('the live call state (issue #50)', () => {
  const liveState = (sellerId: number | string) =>
    api.client().get<ShopCallStateResponse & { code?: string }>(`/_api/shop/call_state?sellerId=${sellerId}`);

  it("is available the moment the jeweller's app opens its event stream, and gone when it closes", async () => {
    const p = await callParties(api, { city: `Live ${Date.now()}` }, { appOpen: false });
    // No app open and no push: nothing would ring.
    expect((await liveState(p.seller.id)).body).toEqual({
      sellerId: p.seller.id,
      callState: { state: 'unreachable' },
    });
    expect((await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id })).status).toBe(409);

    // The app opens: its presence is written when the stream opens, not with a later batch or sweep (no
    // background job is run here).
    const stream = await EventStreamReader.open(p.asSeller);
    onTestFinished(() => stream.close());
    await stream.waitFor((e) => e.event === 'hello');
    await expect
      .poll(async () => (await liveState(p.seller.id)).body.callState.state, { timeout: 2000 })
      .toBe('available');
    // …and the jeweller who opened it a moment ago is rung.
    const placed = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
      sellerId: p.seller.id,
    });
    expect(placed.status).toBe(201);
    await p.asCustomer.post('/_api/call/end', { callId: placed.body.callId });

    // The app closes: the shop cannot be rung, and says why, at once (not after the 15 s online window).
    stream.close();
    await expect
      .poll(async () => (await liveState(p.seller.id)).body.callState.state, { timeout: 2000 })
      .toBe('unreachable');
    expect((await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id })).status).toBe(409);
  });

  it("a jeweller's first poll makes the shop available at once; unknown or unapproved shops are not found", async () => {
    const p = await callParties(api, { city: `Poll ${Date.now()}` }, { appOpen: false });
    await p.asSeller.get('/_api/call/incoming');
    expect((await liveState(p.seller.id)).body.callState).toEqual({ state: 'available' });

    expect((await liveState(2_000_000_000)).status).toBe(404);
    await api.db.knex('seller_profiles').where('user_id', p.seller.id).update({ is_approved: false });
    // A change made elsewhere than this process's presence is seen within the state's 1 s cache.
    await expect
      .poll(async () => (await liveState(p.seller.id)).status, { timeout: CALL_STATE_CACHE_MS + 1000 })
      .toBe(404);
    expect((await liveState('x')).status).toBe(400);
  });
});
