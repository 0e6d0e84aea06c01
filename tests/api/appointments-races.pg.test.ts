import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_ERROR_CODES, type SlotsResponse } from '../../api/contract/appointments';
import { buildSeller, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { signIn } from './calls-support';

/** Double booking is impossible under concurrent bookings of one slot (issue #22), on real PostgreSQL. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

describe('concurrent bookings', () => {
  it('twelve customers booking the same slot at once: exactly one gets it', async () => {
    const seller = await buildSeller(api.db.knex);
    const customers = await Promise.all(
      Array.from({ length: 12 }, async () => signIn(api, await buildUser(api.db.knex, { role: 'customer' }))),
    );
    const { slots } = (
      await customers[0].get<SlotsResponse>(`/_api/appointments/slots?sellerId=${seller.id}`)
    ).body;
    const startsAt = slots[2].startsAt;
    const results = await Promise.all(
      customers.map((c) => c.post('/_api/appointments/book', { sellerId: seller.id, startsAt })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: APPOINTMENT_ERROR_CODES.slotTaken });
    }
    expect(await api.db.knex('appointments').where({ seller_id: seller.id, status: 'booked' })).toHaveLength(
      1,
    );
  });

  it('one customer booking two slots of a shop at once keeps one', async () => {
    const seller = await buildSeller(api.db.knex);
    const client = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    const { slots } = (await client.get<SlotsResponse>(`/_api/appointments/slots?sellerId=${seller.id}`))
      .body;
    const results = await Promise.all(
      slots
        .slice(2, 8)
        .map((s) => client.post('/_api/appointments/book', { sellerId: seller.id, startsAt: s.startsAt })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
  });

  it('the database itself refuses overlapping booked appointments of a shop, whatever the code does', async () => {
    const seller = await buildSeller(api.db.knex);
    const [c1, c2] = [
      await buildUser(api.db.knex, { role: 'customer' }),
      await buildUser(api.db.knex, { role: 'customer' }),
    ];
    const at = new Date(Date.now() + 3 * 3_600_000);
    const row = (customerId: number, offsetMin: number) => ({
      customer_id: customerId,
      seller_id: seller.id,
      starts_at: new Date(at.getTime() + offsetMin * 60_000),
      ends_at: new Date(at.getTime() + (offsetMin + 30) * 60_000),
    });
    await api.db.knex('appointments').insert(row(c1.id, 0));
    // Concurrent inserts that overlap it (and each other): every one fails with the exclusion constraint.
    const attempts = await Promise.allSettled([
      api.db.knex('appointments').insert(row(c2.id, 10)),
      api.db.knex('appointments').insert(row(c2.id, -20)),
    ]);
    for (const a of attempts) {
      expect(a.status).toBe('rejected');
      expect((a as PromiseRejectedResult).reason).toMatchObject({ code: '23P01' });
    }
    // Back-to-back slots do not overlap.
    await api.db.knex('appointments').insert({ ...row(c2.id, 30) });
    expect(await api.db.knex('appointments').where({ seller_id: seller.id, status: 'booked' })).toHaveLength(
      2,
    );
  });
});
