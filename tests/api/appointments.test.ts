import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APPOINTMENT_ERROR_CODES,
  type Appointment,
  type AppointmentListResponse,
  type AppointmentSettings,
  type SlotsResponse,
} from '../../api/contract/appointments';
import type { AppointmentPush } from '../../api/contract/push';
import type { InitiateCallResponse } from '../../api/contract/calls';
import { buildProduct, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { LocalPushService, type FakeSubscriber } from '../support/push-receiver';
import { callParties, signIn, type CallParties } from './calls-support';

/** Issue #22 item 3: booked video appointments (slots, booking rules, reschedule/cancel, the call, the .ics). */
const keys = webpush.generateVAPIDKeys();
const MINUTE = 60_000;
let pushService: LocalPushService;
let api: TestApi;
beforeAll(async () => {
  pushService = new LocalPushService();
  await pushService.start();
  api = await startTestApi({
    env: {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@nagai.test',
      PUSH_ENDPOINT_HOSTS: new URL(pushService.origin).host,
    },
    pushAgent: pushService.agent,
  });
});
afterAll(async () => {
  await api?.close();
  await pushService?.stop();
});

async function subscribe(p: CallParties): Promise<{ customer: FakeSubscriber; seller: FakeSubscriber }> {
  const customer = pushService.subscriber();
  const seller = pushService.subscriber();
  for (const [client, sub] of [
    [p.asCustomer, customer],
    [p.asSeller, seller],
  ] as const)
    expect(
      (await client.post('/_api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys })).status,
    ).toBe(201);
  return { customer, seller };
}

const pushesTo = (sub: FakeSubscriber, appointmentId: number) =>
  pushService.received
    .filter((r) => r.subscriptionId === sub.id)
    .map((r) => r.payload as AppointmentPush)
    .filter((p) => p.type === 'appointment' && p.appointmentId === appointmentId);

async function slotsOf(p: CallParties) {
  const res = await p.asCustomer.get<SlotsResponse>(`/_api/appointments/slots?sellerId=${p.seller.id}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('slots and booking', () => {
  it('offers 30-minute slots from the shop hours and books one; the slot is then gone', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Jhumka' });
    const slots = await slotsOf(p);
    expect(slots).toMatchObject({ sellerId: p.seller.id, slotMinutes: 30, timeZone: 'Asia/Kolkata' });
    const now = api.clock.now().getTime();
    expect(slots.slots.length).toBeGreaterThan(14 * 40);
    const first = slots.slots[0];
    expect(Date.parse(first.startsAt)).toBeGreaterThan(now);
    expect(Date.parse(first.startsAt) - now).toBeLessThanOrEqual(30 * MINUTE);
    expect(Date.parse(first.endsAt) - Date.parse(first.startsAt)).toBe(30 * MINUTE);
    // A visitor may look at the slots, but only a signed-in customer books.
    expect((await api.client().get(`/_api/appointments/slots?sellerId=${p.seller.id}`)).status).toBe(200);
    const slot = slots.slots[3];
    expect(
      (await api.client().post('/_api/appointments/book', { sellerId: p.seller.id, startsAt: slot.startsAt }))
        .status,
    ).toBe(401);
    expect(
      (await p.asSeller.post('/_api/appointments/book', { sellerId: p.seller.id, startsAt: slot.startsAt }))
        .status,
    ).toBe(403);

    const booked = await p.asCustomer.post<Appointment>('/_api/appointments/book', {
      sellerId: p.seller.id,
      startsAt: slot.startsAt,
      productId: product.id,
      note: '  22K please ',
    });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      status: 'booked',
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      note: '22K please',
      shop: { sellerId: p.seller.id, shopName: p.seller.shopName },
      customer: { id: p.customer.id },
      product: { id: product.id, name: 'Jhumka' },
      startable: false,
    });
    const after = await slotsOf(p);
    expect(after.slots.map((s) => s.startsAt)).not.toContain(slot.startsAt);
    expect(after.slots).toHaveLength(slots.slots.length - 1);

    // One booked appointment per customer and shop; another customer cannot take the same slot.
    const again = await p.asCustomer.post('/_api/appointments/book', {
      sellerId: p.seller.id,
      startsAt: slots.slots[5].startsAt,
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: APPOINTMENT_ERROR_CODES.alreadyBooked });
    const other = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    const taken = await other.post('/_api/appointments/book', {
      sellerId: p.seller.id,
      startsAt: slot.startsAt,
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: APPOINTMENT_ERROR_CODES.slotTaken });
    // A time off the grid, or in the past, is not a slot.
    const offGrid = new Date(Date.parse(slots.slots[6].startsAt) + 10 * MINUTE).toISOString();
    expect(
      (await other.post('/_api/appointments/book', { sellerId: p.seller.id, startsAt: offGrid })).body,
    ).toMatchObject({
      code: APPOINTMENT_ERROR_CODES.notASlot,
    });
    const past = new Date(now - 60 * MINUTE).toISOString();
    expect(
      (await other.post('/_api/appointments/book', { sellerId: p.seller.id, startsAt: past })).status,
    ).toBe(400);

    // Both sides list it; a stranger sees nothing of it.
    const mine = await p.asCustomer.get<AppointmentListResponse>('/_api/appointments/mine');
    expect(mine.body.appointments.map((a) => a.id)).toEqual([booked.body.id]);
    const shop = await p.asSeller.get<AppointmentListResponse>('/_api/seller/appointments');
    expect(shop.body.appointments.map((a) => a.id)).toEqual([booked.body.id]);
    expect((await other.get<AppointmentListResponse>('/_api/appointments/mine')).body.appointments).toEqual(
      [],
    );
    expect((await other.post('/_api/appointments/cancel', { appointmentId: booked.body.id })).status).toBe(
      404,
    );
  });

  it('bounds book → cancel cycles: 3 a day with one shop, 6 a day in all (#34)', async () => {
    const p = await callParties(api);
    const cycle = async (parties: CallParties) => {
      const [slot] = (await slotsOf(parties)).slots;
      const booked = await p.asCustomer.post<Appointment & { code?: string }>('/_api/appointments/book', {
        sellerId: parties.seller.id,
        startsAt: slot!.startsAt,
      });
      if (booked.status !== 201) return booked;
      expect(
        (await p.asCustomer.post('/_api/appointments/cancel', { appointmentId: booked.body.id })).status,
      ).toBe(200);
      return booked;
    };
    for (let i = 0; i < 3; i++) expect((await cycle(p)).status).toBe(201);
    const fourth = await cycle(p);
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('too_many_bookings');
    // Other shops: three more, then the day's bound of six holds for every shop.
    const q = await callParties(api);
    for (let i = 0; i < 3; i++) expect((await cycle(q)).status).toBe(201);
    const r = await callParties(api);
    const seventh = await cycle(r);
    expect(seventh.status).toBe(429);
    expect(seventh.body.code).toBe('too_many_bookings');
    const made = await api.db.knex('appointments').where({ customer_id: p.customer.id }).count({ n: '*' });
    expect(Number(made[0]!.n)).toBe(6);
  });

  it('follows the slot length, buffer and breaks the shop sets, and its hours and time zone', async () => {
    const p = await callParties(api);
    // Hours 10:00–13:00 every day in Dubai; 45-minute slots, 15 minutes apart; a break 11:30–12:00.
    const hours = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '10:00', to: '13:00' }));
    expect(
      (
        await p.asSeller.post('/_api/seller/hours', {
          timeZone: 'Asia/Dubai',
          hours,
          away: false,
          awayMessage: null,
        })
      ).status,
    ).toBe(200);
    const saved = await p.asSeller.post<AppointmentSettings>('/_api/seller/appointment-settings', {
      slotMinutes: 45,
      bufferMinutes: 15,
      breaks: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '11:30', to: '12:00' })),
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ slotMinutes: 45, bufferMinutes: 15, timeZone: 'Asia/Dubai' });
    const bad = await p.asSeller.post('/_api/seller/appointment-settings', {
      slotMinutes: 5,
      bufferMinutes: 0,
      breaks: [],
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await p.asCustomer.post('/_api/seller/appointment-settings', {
          slotMinutes: 30,
          bufferMinutes: 0,
          breaks: [],
        })
      ).status,
    ).toBe(403);

    const { slots, slotMinutes, timeZone } = await slotsOf(p);
    expect({ slotMinutes, timeZone }).toEqual({ slotMinutes: 45, timeZone: 'Asia/Dubai' });
    // In Dubai time: 10:00–10:45, then 11:00 would end at 11:45 inside the break: only 12:00 is left.
    const dubai = (iso: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Dubai', hour: '2-digit', minute: '2-digit' }).format(
        new Date(iso),
      );
    expect([...new Set(slots.map((s) => dubai(s.startsAt)))].sort()).toEqual(['10:00', '12:00']);
  });
});

describe('reschedule, cancel, the call and the calendar file', () => {
  it('the jeweller reschedules and cancels with a reason; the customer is told at once (event log and push)', async () => {
    const p = await callParties(api);
    const subs = await subscribe(p);
    const { slots } = await slotsOf(p);
    const booked = await p.asCustomer.post<Appointment>('/_api/appointments/book', {
      sellerId: p.seller.id,
      startsAt: slots[4].startsAt,
    });
    expect(booked.status).toBe(201);
    const id = booked.body.id;
    // The jeweller gets a push of the booking.
    await expect.poll(() => pushesTo(subs.seller, id).map((n) => n.notice)).toEqual(['booked']);
    expect(pushesTo(subs.seller, id)[0]).toMatchObject({
      otherName: p.customer.displayName,
      startsAt: slots[4].startsAt,
      side: 'seller',
    });

    // A reason is required of the jeweller; the new time must be a free slot.
    expect(
      (
        await p.asSeller.post('/_api/seller/appointments/reschedule', {
          appointmentId: id,
          startsAt: slots[8].startsAt,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await p.asSeller.post('/_api/seller/appointments/reschedule', {
          appointmentId: id,
          startsAt: new Date(Date.parse(slots[8].startsAt) + 7 * MINUTE).toISOString(),
          reason: 'Stock count',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await p.asCustomer.post('/_api/seller/appointments/reschedule', {
          appointmentId: id,
          startsAt: slots[8].startsAt,
          reason: 'x',
        })
      ).status,
    ).toBe(403);
    const moved = await p.asSeller.post<Appointment>('/_api/seller/appointments/reschedule', {
      appointmentId: id,
      startsAt: slots[8].startsAt,
      reason: 'A wedding order at 11',
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      startsAt: slots[8].startsAt,
      reason: 'A wedding order at 11',
      rescheduledCount: 1,
    });
    await expect.poll(() => pushesTo(subs.customer, id).map((n) => n.notice)).toEqual(['rescheduled']);
    expect(pushesTo(subs.customer, id)[0]).toMatchObject({
      otherName: p.seller.shopName,
      reason: 'A wedding order at 11',
      startsAt: slots[8].startsAt,
      side: 'customer',
    });
    // The event log has the notice for the customer's stream.
    const events = (await api.db
      .knex('call_events')
      .where({ user_id: p.customer.id, kind: 'appointment', appointment_id: id })
      .orderBy('id')
      .select('payload')) as { payload: { notice: string } }[];
    expect(events.map((e) => e.payload.notice)).toEqual(['booked', 'rescheduled']);
    // Its jobs moved with it: one pending set, at the new time.
    const jobs = (await api.db
      .knex('jobs')
      .where({ appointment_id: id, state: 'pending' })
      .orderBy('run_at')) as {
      kind: string;
      run_at: Date;
    }[];
    expect(jobs.map((j) => [j.kind, new Date(j.run_at).toISOString()])).toEqual([
      ['appointment_reminder', new Date(Date.parse(slots[8].startsAt) - 15 * MINUTE).toISOString()],
      ['appointment_start', slots[8].startsAt],
      ['appointment_expire', slots[8].endsAt],
    ]);

    // The jeweller cancels: a reason is required.
    expect((await p.asSeller.post('/_api/appointments/cancel', { appointmentId: id })).status).toBe(400);
    const cancelled = await p.asSeller.post<Appointment>('/_api/appointments/cancel', {
      appointmentId: id,
      reason: 'Shop closed for Pongal',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'seller',
      reason: 'Shop closed for Pongal',
    });
    await expect
      .poll(() => pushesTo(subs.customer, id).map((n) => n.notice))
      .toEqual(['rescheduled', 'cancelled']);
    expect(await api.db.knex('jobs').where({ appointment_id: id, state: 'pending' })).toHaveLength(0);
    expect((await p.asCustomer.post('/_api/appointments/cancel', { appointmentId: id })).body).toMatchObject({
      code: APPOINTMENT_ERROR_CODES.notBooked,
    });
    // The slot is free again, and the customer may book anew.
    expect((await slotsOf(p)).slots.map((s) => s.startsAt)).toContain(slots[8].startsAt);
  });

  it('at the time either side starts the call, which rings the other; the .ics names both sides', async () => {
    const p = await callParties(api);
    const product = await buildProduct(api.db.knex, p.seller.id, { name: 'Vanki' });
    const { slots } = await slotsOf(p);
    const slot = slots[1];
    const booked = await p.asCustomer.post<Appointment>('/_api/appointments/book', {
      sellerId: p.seller.id,
      startsAt: slot.startsAt,
      productId: product.id,
    });
    const id = booked.body.id;

    // The calendar file, for each side.
    const ics = await p.asCustomer.request('GET', `/_api/appointments/calendar.ics?appointmentId=${id}`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(ics.headers.get('content-disposition')).toContain(`nagai-appointment-${id}.ics`);
    const text = ics.body as unknown as string;
    const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(text).toContain('BEGIN:VEVENT');
    expect(text).toContain(`DTSTART:${stamp(slot.startsAt)}`);
    expect(text).toContain(`DTEND:${stamp(slot.endsAt)}`);
    expect(text).toContain(`SUMMARY:Video appointment with ${p.seller.shopName}`);
    const sellerIcs = await p.asSeller.request('GET', `/_api/appointments/calendar.ics?appointmentId=${id}`);
    expect(sellerIcs.body as unknown as string).toContain(
      `SUMMARY:Video appointment: ${p.customer.displayName}`,
    );
    const stranger = await signIn(api, await buildUser(api.db.knex, { role: 'customer' }));
    expect(
      (await stranger.request('GET', `/_api/appointments/calendar.ics?appointmentId=${id}`)).status,
    ).toBe(404);

    // Too early: neither side may start it.
    expect((await p.asCustomer.post('/_api/appointments/start', { appointmentId: id })).body).toMatchObject({
      code: APPOINTMENT_ERROR_CODES.notStartable,
    });
    // Five minutes before the start, even with the shop away, the customer's call rings the shop.
    await p.asSeller.post('/_api/seller/hours', {
      timeZone: 'Asia/Kolkata',
      hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, from: '00:00', to: '24:00' })),
      away: true,
      awayMessage: 'With a customer',
    });
    api.clock.advance(Date.parse(slot.startsAt) - api.clock.now().getTime() - 4 * MINUTE);
    const list = await p.asCustomer.get<AppointmentListResponse>('/_api/appointments/mine');
    expect(list.body.appointments[0]).toMatchObject({ id, startable: true });
    const call = await p.asCustomer.post<InitiateCallResponse>('/_api/appointments/start', {
      appointmentId: id,
    });
    expect(call.status).toBe(201);
    const row = await api.db.knex('calls').where('id', call.body.callId).first();
    expect(row).toMatchObject({ appointment_id: id, direction: 'to_seller', product_id: product.id });
    const incoming = await p.asSeller.get<{ calls: { callId: number }[] }>('/_api/call/incoming');
    expect(incoming.body.calls.map((c) => c.callId)).toContain(call.body.callId);
    // The jeweller declines it, then calls the customer: the reverse call rings the customer.
    await p.asSeller.post('/_api/call/respond', { callId: call.body.callId, response: 'decline' });
    const back = await p.asSeller.post<InitiateCallResponse>('/_api/appointments/start', {
      appointmentId: id,
    });
    expect(back.status).toBe(201);
    expect(await api.db.knex('calls').where('id', back.body.callId).first()).toMatchObject({
      appointment_id: id,
      direction: 'to_customer',
      caller_id: p.customer.id,
    });
    const ringing = await p.asCustomer.get<{ calls: { callId: number }[] }>('/_api/callbacks/ringing');
    expect(ringing.body.calls.map((c) => c.callId)).toEqual([back.body.callId]);
    expect(
      (await p.asCustomer.post('/_api/call/respond', { callId: back.body.callId, response: 'accept' }))
        .status,
    ).toBe(200);

    // At the end, the expiry job closes it as completed (a call of it was answered).
    api.clock.advance(Date.parse(slot.endsAt) - api.clock.now().getTime() + 1000);
    await api.handle.background.runNow('schedule:jobs');
    expect(
      (await p.asCustomer.get<AppointmentListResponse>('/_api/appointments/mine')).body.appointments[0],
    ).toMatchObject({
      id,
      status: 'completed',
      startable: false,
    });
    api.clock.advance(-(api.clock.now().getTime() - Date.now()));
  });
});
