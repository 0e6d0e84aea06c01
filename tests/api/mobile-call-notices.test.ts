import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Appointment, SlotsResponse } from '../../api/contract/appointments';
import type { CallbackRequest } from '../../api/contract/callbacks';
import type { NoticeSettings } from '../../api/contract/mobile';
import {
  startTwilioDouble,
  type DoubleMessage,
  type TwilioDouble,
} from '../../api/src/doubles/twilio-double';
import { claimNotices, noticeLeaseMs, queueNotice } from '../../api/src/features/notices/service';
import { buildSeller, buildUser, markSellerAppOpen } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { signIn } from './calls-support';

/**
 * The call notices of issue #37 and WhatsApp, through the Twilio double with two API instances polling one
 * database: a call-back about to come, a missed call to the jeweller, an appointment confirmed and 15 minutes
 * before; the call notices go out in quiet hours, the others wait for the morning in the person's time zone;
 * each reaches the double once, an SMS with India's DLT sender, entity and template identifiers, a WhatsApp
 * notice from the WhatsApp sender (an approved template where one is configured). And a notice left
 * `sending` by a process that stopped, or by a send that got no answer, is settled once by another process.
 */
const HOUR = 3_600_000;
const MINUTE = 60_000;
const IST_OFFSET = 5.5 * HOUR;
const DLT = {
  SMS_DLT_ENTITY_ID: '1101456789012345678',
  SMS_DLT_SENDER_ID: 'NAGAIJ',
  SMS_DLT_TEMPLATE_IDS: JSON.stringify({
    'callback_soon.en': '1107000000000000001',
    'appointment_confirmed.en': '1107000000000000002',
    'appointment_reminder.en': '1107000000000000003',
    'missed_call.en': '1107000000000000004',
    'missed_call.ta': '1107000000000000005',
    'order_shipped.en': '1107000000000000006',
  }),
};
const REMINDER_TEMPLATE = 'HX' + '3f'.repeat(16);

let db: TestDatabase;
const apps: TestApi[] = [];
let a: TestApi;
let b: TestApi;

/** How far to move a clock from `from` to the next given hour in India (IST, no daylight saving). */
function untilIstHour(hour: number, from: number): number {
  const ist = from + IST_OFFSET;
  const dayStart = ist - (ist % (24 * HOUR));
  let target = dayStart + hour * HOUR;
  if (target <= ist) target += 24 * HOUR;
  return target - ist;
}

/** Moves both instances' clocks by the same amount. */
const advance = (ms: number) => {
  for (const x of apps) x.clock.advance(ms);
};
/** Both clocks at the next given hour in India. */
const toIstHour = (hour: number) => advance(untilIstHour(hour, a.clock.now().getTime()));

/**
 * One Twilio for both instances, as in production: a process that settles another's notice asks the same
 * provider that took it. It keeps the instances' time (their clocks move together).
 */
let twilio: TwilioDouble;

beforeAll(async () => {
  db = await createTestDatabase();
  const credentials = {
    accountSid: 'AC' + 'c'.repeat(32),
    authToken: 'd'.repeat(32),
    verifyServiceSid: 'VA' + 'e'.repeat(32),
  };
  twilio = await startTwilioDouble({ ...credentials, now: () => (a ? a.clock.now().getTime() : Date.now()) });
  for (let i = 0; i < 2; i++) {
    const api = await startTestApi({
      db: { ...db, close: async () => undefined },
      env: {
        ...DLT,
        TWILIO_ACCOUNT_SID: credentials.accountSid,
        TWILIO_AUTH_TOKEN: credentials.authToken,
        TWILIO_VERIFY_SERVICE_SID: credentials.verifyServiceSid,
        TWILIO_MESSAGING_SERVICE_SID: 'MG' + 'f'.repeat(32),
        TWILIO_WHATSAPP_FROM: 'whatsapp:+14155238886',
        TWILIO_VERIFY_URL: twilio.url,
        TWILIO_API_URL: twilio.url,
        WHATSAPP_CONTENT_SIDS: JSON.stringify({ 'appointment_reminder.ta': REMINDER_TEMPLATE }),
      },
    });
    apps.push(api);
  }
  [a, b] = apps;
});
afterAll(async () => {
  for (const x of apps) await x.close();
  await twilio?.close();
  await db?.close();
});

/** Every message Twilio took for a number (SMS) or its WhatsApp address, oldest first. */
const messagesTo = async (mobile: string): Promise<DoubleMessage[]> =>
  twilio.messages
    .filter((m) => m.to === mobile || m.to === `whatsapp:${mobile}`)
    .sort((x, y) => x.createdAt - y.createdAt);

const pollBoth = async (times = 2) => {
  for (let i = 0; i < times; i++)
    await Promise.all(apps.map((x) => x.handle.background.runNow('schedule:jobs')));
};

let seq = 0;
/** Gives a user a verified mobile and turns notices on through the profile's API. */
async function optIn(
  user: { id: number },
  opts: { locale?: 'en' | 'ta'; channel?: 'sms' | 'whatsapp'; timeZone?: string } = {},
): Promise<{ mobile: string; client: ApiClient }> {
  const mobile = `+917${String(Date.now() % 1e5).padStart(5, '0')}${String(++seq).padStart(4, '0')}`;
  await db
    .knex('users')
    .where({ id: user.id })
    .update({ mobile, mobile_verified_at: new Date(), time_zone: opts.timeZone ?? 'Asia/Kolkata' });
  const client = await signIn(a, user);
  const res = await client.post<NoticeSettings>('/_api/user/notices', {
    notices: true,
    locale: opts.locale ?? 'en',
    channel: opts.channel ?? 'sms',
  });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ notices: true, mobile, channel: opts.channel ?? 'sms' });
  return { mobile, client };
}

describe('call notices, in quiet hours too', () => {
  it('"Lakshmi Jewellers will call you in a few minutes" reaches the customer once at 22:00, with its DLT ids', async () => {
    toIstHour(22);
    const seller = await buildSeller(db.knex, { shopName: 'Lakshmi Jewellers' });
    const customer = await buildUser(db.knex, { role: 'customer' });
    const { mobile, client: asCustomer } = await optIn(customer);
    const asSeller = await signIn(b, seller);
    const request = await asCustomer.post<CallbackRequest>('/_api/callbacks/create', {
      sellerId: seller.id,
      window: 'now',
    });
    expect(request.status).toBe(201);
    const back = await asSeller.post('/_api/callbacks/call', { requestId: request.body.id });
    expect(back.status).toBe(201);

    await pollBoth(3);
    const got = await messagesTo(mobile);
    expect(got.map((m) => m.body)).toEqual([
      'Nagai: Lakshmi Jewellers will call you in a few minutes. Keep Nagai open to answer.',
    ]);
    expect(got[0]).toMatchObject({
      to: mobile,
      channel: 'sms',
      from: 'NAGAIJ',
      dltEntityId: DLT.SMS_DLT_ENTITY_ID,
      dltTemplateId: '1107000000000000001',
      messagingServiceSid: expect.stringMatching(/^MG/),
    });
    expect(
      await db.knex('notices').where({ user_id: customer.id }).first('state', 'channel', 'template_id'),
    ).toEqual({ state: 'sent', channel: 'sms', template_id: '1107000000000000001' });
  });

  it('a missed call reaches the jeweller once after the ringing stops, at night; an answered call sends none', async () => {
    toIstHour(23);
    const seller = await buildSeller(db.knex);
    const { mobile } = await optIn(seller, { locale: 'ta' });
    const customer = await buildUser(db.knex, { role: 'customer', displayName: 'மீனா' });
    const asCustomer = await signIn(a, customer);
    // The jeweller's app is open (a shop nobody can answer is not rung at all).
    await markSellerAppOpen(db.knex, seller.id, a.clock.now());
    const call = await asCustomer.post<{ callId: number }>('/_api/call/initiate', { sellerId: seller.id });
    expect(call.status).toBe(201);
    await pollBoth();
    expect(await messagesTo(mobile)).toEqual([]); // still ringing
    advance(a.config.callRingTimeoutMs + 2000);
    await pollBoth(3);
    const got = await messagesTo(mobile);
    expect(got.map((m) => m.body)).toEqual([
      'நகை: மீனா அவர்களின் வீடியோ அழைப்பைத் தவறவிட்டீர்கள். திரும்ப அழைக்க நகை செயலியைத் திறக்கவும்.',
    ]);
    expect(got[0]).toMatchObject({
      dltEntityId: DLT.SMS_DLT_ENTITY_ID,
      dltTemplateId: '1107000000000000005',
    });

    // Another jeweller answers: nothing is sent, the notice is skipped.
    const other = await buildSeller(db.knex);
    const { mobile: otherMobile, client: asOther } = await optIn(other);
    const caller = await buildUser(db.knex, { role: 'customer' });
    await markSellerAppOpen(db.knex, other.id, a.clock.now());
    const placed = await (
      await signIn(b, caller)
    ).post<{ callId: number }>('/_api/call/initiate', { sellerId: other.id });
    expect(placed.status).toBe(201);
    expect(
      (await asOther.post('/_api/call/respond', { callId: placed.body.callId, response: 'accept' })).status,
    ).toBe(200);
    advance(a.config.callRingTimeoutMs + 2000);
    await pollBoth(2);
    expect(await messagesTo(otherMobile)).toEqual([]);
    expect(await db.knex('notices').where({ user_id: other.id }).first('state', 'skipped_reason')).toEqual({
      state: 'skipped',
      skipped_reason: 'answered',
    });
  });

  it('an appointment by WhatsApp: the reminder (an approved template) comes in the night, the confirmation waits for 09:00', async () => {
    toIstHour(11);
    const seller = await buildSeller(db.knex, { shopName: 'Kanchi Silks & Gold' });
    const customer = await buildUser(db.knex, { role: 'customer' });
    // In Bogotá (UTC-5, no daylight saving) an Indian shop's day is the customer's night.
    const { mobile, client } = await optIn(customer, {
      locale: 'ta',
      channel: 'whatsapp',
      timeZone: 'America/Bogota',
    });
    const slots = await client.get<SlotsResponse>(`/_api/appointments/slots?sellerId=${seller.id}`);
    expect(slots.status).toBe(200);
    const startsAt = slots.body.slots[3].startsAt;
    const booked = await client.post<Appointment>('/_api/appointments/book', {
      sellerId: seller.id,
      startsAt,
    });
    expect(booked.status).toBe(201);
    const bogotaHour = (at: number) => new Date(at - 5 * HOUR).getUTCHours();
    const start = Date.parse(startsAt);
    // The reminder comes while it is still night in Bogotá (the shop's slots are India's daytime).
    expect(bogotaHour(start - 15 * MINUTE) < 9 || bogotaHour(start - 15 * MINUTE) >= 21).toBe(true);

    await pollBoth();
    expect(await messagesTo(mobile)).toEqual([]); // the confirmation waits for the morning

    advance(start - 15 * MINUTE - a.clock.now().getTime());
    await pollBoth(3);
    const reminder = await messagesTo(mobile);
    expect(reminder).toHaveLength(1);
    expect(reminder[0]).toMatchObject({
      to: `whatsapp:${mobile}`,
      channel: 'whatsapp',
      from: 'whatsapp:+14155238886',
      contentSid: REMINDER_TEMPLATE,
      contentVariables: { '1': 'Kanchi Silks & Gold' },
      dltTemplateId: null,
    });

    // 09:00 in Bogotá: the confirmation goes, as WhatsApp text (no template configured for it).
    const now = a.clock.now().getTime();
    const bogota = now - 5 * HOUR;
    let nine = bogota - (bogota % (24 * HOUR)) + 9 * HOUR;
    if (nine <= bogota) nine += 24 * HOUR;
    advance(nine - bogota - MINUTE);
    await pollBoth();
    expect(await messagesTo(mobile)).toHaveLength(1);
    advance(MINUTE);
    await pollBoth();
    const all = await messagesTo(mobile);
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ to: `whatsapp:${mobile}`, contentSid: null });
    expect(all[1].body).toContain('Kanchi Silks & Gold');
    expect(all[1].body).toContain('உறுதி செய்யப்பட்டது');
  });
});

describe('notices left sending', () => {
  /** Queues an order notice and claims it as a process would, committing, then "stops" before sending. */
  async function claimedThenStopped(mobileUser: { id: number }, subject: string) {
    const now = a.clock.now();
    await queueNotice(
      db.knex,
      { userId: mobileUser.id, kind: 'order_shipped', subject, params: { order: 41, shop: 'Sri Murugan' } },
      now,
    );
    return db.knex.transaction(async (trx) => {
      const job = (await trx('jobs')
        .join('notices', 'notices.id', 'jobs.notice_id')
        .where({ 'notices.subject': subject, 'jobs.state': 'pending' })
        .first('jobs.id', 'jobs.notice_id')) as { id: number; notice_id: number };
      const out = await claimNotices(trx, a.handle.deps, [job.notice_id], now);
      await trx('jobs').where({ id: job.id }).update({ state: 'done', done_at: now });
      return out;
    });
  }

  it('a process that stopped before sending: another sends it once, after the lease', async () => {
    toIstHour(12);
    const user = await buildUser(db.knex, { role: 'customer' });
    const { mobile } = await optIn(user);
    const out = await claimedThenStopped(user, 'order:stopped-before');
    expect(out).toHaveLength(1);
    await pollBoth();
    expect(await messagesTo(mobile)).toEqual([]); // within the lease: perhaps still being sent
    advance(noticeLeaseMs(a.config) + 1000);
    await pollBoth(3);
    const got = await messagesTo(mobile);
    expect(got.map((m) => m.body)).toEqual([
      'Nagai: your order #41 from Sri Murugan has been shipped. Reply STOP to end these messages.',
    ]);
    expect(got[0].dltTemplateId).toBe('1107000000000000006');
    expect(await db.knex('notices').where({ user_id: user.id }).first('state', 'attempts')).toEqual({
      state: 'sent',
      attempts: 2,
    });
  });

  it('a process that stopped after the provider took the message: settled as sent, not sent again', async () => {
    toIstHour(12);
    const user = await buildUser(db.knex, { role: 'customer' });
    const { mobile } = await optIn(user);
    const [notice] = await claimedThenStopped(user, 'order:stopped-after');
    const sid = await a.handle.deps.sms!.sendMessage(notice);
    advance(noticeLeaseMs(a.config) + 1000);
    await pollBoth(3);
    expect(await messagesTo(mobile)).toHaveLength(1);
    expect(await db.knex('notices').where({ user_id: user.id }).first('state', 'provider_sid')).toEqual({
      state: 'sent',
      provider_sid: sid,
    });
  });

  it('a send that got no answer stays sending, then is found at the provider and not sent twice', async () => {
    toIstHour(12);
    const user = await buildUser(db.knex, { role: 'customer' });
    const { mobile } = await optIn(user);
    twilio.dropNextMessage();
    await queueNotice(
      db.knex,
      { userId: user.id, kind: 'order_shipped', subject: 'order:dropped', params: { order: 42, shop: 'X' } },
      a.clock.now(),
    );
    await a.handle.background.runNow('schedule:jobs');
    expect(await messagesTo(mobile)).toHaveLength(1); // taken by the provider, answer lost
    expect(await db.knex('notices').where({ user_id: user.id }).first('state')).toEqual({ state: 'sending' });
    advance(noticeLeaseMs(a.config) + 1000);
    await pollBoth(3);
    expect(await messagesTo(mobile)).toHaveLength(1);
    expect(await db.knex('notices').where({ user_id: user.id }).first('state')).toEqual({ state: 'sent' });
  });
});

describe('the profile: channel, language and consent', () => {
  it('offers SMS and WhatsApp with the consent wording, and stores each change with its channel', async () => {
    const user = await buildUser(db.knex, { role: 'customer' });
    const client = await signIn(a, user);
    const before = await client.get<NoticeSettings>('/_api/user/notices');
    expect(before.body).toMatchObject({
      notices: false,
      channel: 'sms',
      channels: ['sms', 'whatsapp'],
      mobile: null,
    });
    expect(before.body.wording.en).toContain('Reply STOP');
    // No verified mobile: notices cannot be turned on.
    const refused = await client.post('/_api/user/notices', { notices: true });
    expect(refused.status).toBe(400);
    await optIn(user, { locale: 'ta', channel: 'whatsapp' });
    const off = await client.post<NoticeSettings>('/_api/user/notices', { notices: false });
    expect(off.body).toMatchObject({ notices: false, channel: 'whatsapp', locale: 'ta' });
    const consents = (await db
      .knex('notice_consents')
      .where({ user_id: user.id })
      .orderBy('id')
      .select('granted', 'channel', 'source', 'wording')) as {
      granted: boolean;
      channel: string;
      source: string;
      wording: string;
    }[];
    expect(consents.map((c) => [c.granted, c.channel, c.source])).toEqual([
      [true, 'whatsapp', 'profile'],
      [false, 'whatsapp', 'profile'],
    ]);
    expect(consents[0].wording).toBe(before.body.wording.ta);

    // The browser's time zone keeps the quiet hours; one the server does not know changes nothing.
    const zone = () => db.knex('users').where({ id: user.id }).first('time_zone');
    await client.post('/_api/user/notices', { notices: true, timeZone: 'Europe/London' });
    expect(await zone()).toEqual({ time_zone: 'Europe/London' });
    const unknown = await client.post('/_api/user/notices', { notices: true, timeZone: 'Mars/Olympus_Mons' });
    expect(unknown.status).toBe(200);
    expect(await zone()).toEqual({ time_zone: 'Europe/London' });
  });
});
