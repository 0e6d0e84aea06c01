import type { Knex } from 'knex';
import { noticeTime, queueNotice } from '../notices/service';
import { createEvent } from 'ics';
import {
  APPOINTMENT_ERROR_CODES as CODES,
  APPOINTMENT_LIMITS as LIMITS,
  APPOINTMENT_MESSAGES as MSG,
  type Appointment,
  type AppointmentListResponse,
  type AppointmentNotice,
  type AppointmentNoticeKind,
  type AppointmentSettings,
  type AppointmentSettingsInput,
  type AppointmentStatus,
  type BookAppointmentInput,
  type SlotsResponse,
} from '../../../contract/appointments';
import { CALL_ERROR_CODES, CALL_MESSAGES, type InitiateCallResponse } from '../../../contract/calls';
import { SELLING_ERROR_CODES, SELLING_MESSAGES } from '../../../contract/call-selling';
import { SELLER_MESSAGES } from '../../../contract/sellers';
import type { HoursRange } from '../../../contract/shop-hours';
import type { AppDeps, SessionUser } from '../../http/context';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../http/errors';
import { initiateCall } from '../calls/service';
import { pushAppointmentNotice } from '../push/service';
import { ringCustomer } from './callbacks';
import { readHours } from './hours';
import { freeSlots } from './slots';
import { cancelJobs, scheduleJobs } from './jobs';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger' | 'hooks' | 'pushAgent' | 'dbKind'>;
const MINUTE = 60_000;

interface ShopRow {
  user_id: number;
  shop_name: string;
  is_approved: boolean | null;
  video_call_enabled: boolean;
  video_hours: unknown;
  time_zone: string;
  slot_minutes: number;
  buffer_minutes: number;
  breaks: unknown;
}

export interface AppointmentRow {
  id: number;
  customer_id: number;
  seller_id: number;
  product_id: number | null;
  starts_at: Date | string;
  ends_at: Date | string;
  note: string | null;
  status: AppointmentStatus;
  cancelled_by: 'customer' | 'seller' | null;
  reason: string | null;
  rescheduled_count: number;
  created_at: Date | string;
  shop_name: string;
  time_zone: string;
  customer_name: string;
  product_name: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** Either side may start the call from 5 minutes before the start until the end, while it is booked. */
export function isStartable(a: Pick<AppointmentRow, 'status' | 'starts_at' | 'ends_at'>, now: Date): boolean {
  const t = now.getTime();
  return (
    a.status === 'booked' &&
    t >= new Date(a.starts_at).getTime() - LIMITS.joinEarlyMinutes * MINUTE &&
    t < new Date(a.ends_at).getTime()
  );
}

export function presentAppointment(r: AppointmentRow, now: Date): Appointment {
  return {
    id: r.id,
    status: r.status,
    startsAt: iso(r.starts_at),
    endsAt: iso(r.ends_at),
    note: r.note,
    reason: r.reason,
    cancelledBy: r.cancelled_by,
    rescheduledCount: r.rescheduled_count,
    shop: { sellerId: r.seller_id, shopName: r.shop_name, timeZone: r.time_zone },
    customer: { id: r.customer_id, displayName: r.customer_name },
    product: r.product_id === null ? null : { id: r.product_id, name: r.product_name ?? '' },
    startable: isStartable(r, now),
    createdAt: iso(r.created_at),
  };
}

/** Appointments with the shop's and customer's names and the product's. */
export const appointmentsWithNames = (db: Knex) =>
  db('appointments as a')
    .join('users as cu', 'cu.id', 'a.customer_id')
    .join('users as su', 'su.id', 'a.seller_id')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'a.seller_id')
    .leftJoin('products as p', 'p.id', 'a.product_id')
    .select(
      'a.*',
      db.raw('coalesce(sp.shop_name, su.display_name) as shop_name'),
      db.raw(`coalesce(sp.time_zone, 'Asia/Kolkata') as time_zone`),
      'cu.display_name as customer_name',
      'p.name as product_name',
    );

/** The notice for one side of an appointment: the other side is named. */
export function noticeFor(
  r: AppointmentRow,
  userId: number,
  notice: AppointmentNoticeKind,
): AppointmentNotice {
  return {
    appointmentId: r.id,
    notice,
    startsAt: iso(r.starts_at),
    otherName: userId === r.customer_id ? r.shop_name : r.customer_name,
    reason: notice === 'cancelled' || notice === 'rescheduled' ? r.reason : null,
    side: userId === r.customer_id ? 'customer' : 'seller',
  };
}

/**
 * Writes appointment notices to the event log (kind 'appointment'): its trigger wakes the recipients' event
 * streams in every API process, in the same transaction as the change they report.
 */
export async function writeNotices(
  db: Knex,
  notices: { userId: number; notice: AppointmentNotice }[],
  now: Date,
): Promise<void> {
  if (!notices.length) return;
  await db('call_events').insert(
    notices.map((n) => ({
      call_id: null,
      appointment_id: n.notice.appointmentId,
      user_id: n.userId,
      kind: 'appointment',
      payload: JSON.stringify(n.notice),
      created_at: now,
    })),
  );
}

/** Pushes notices after their transaction committed (never awaited by a request; failures are logged). */
export function pushNotices(deps: Deps, notices: { userId: number; notice: AppointmentNotice }[]): void {
  for (const n of notices)
    void pushAppointmentNotice(deps as AppDeps, n.userId, n.notice).catch((err: unknown) =>
      deps.logger.warn({ err }, 'push of an appointment notice failed'),
    );
}

async function loadShop(db: Knex, sellerId: number, lock = false): Promise<ShopRow | undefined> {
  const q = db('seller_profiles as sp')
    .join('users as u', 'u.id', 'sp.user_id')
    .where('sp.user_id', sellerId)
    .where('u.role', 'seller')
    .first(
      'sp.user_id',
      db.raw('coalesce(sp.shop_name, u.display_name) as shop_name'),
      'sp.is_approved',
      'sp.video_call_enabled',
      'sp.video_hours',
      'sp.time_zone',
      'sp.slot_minutes',
      'sp.buffer_minutes',
      'sp.breaks',
    );
  // The shop's row is the lock that serialises its bookings and reschedules (the exclusion constraint is the
  // guarantee; the lock keeps the buffer between appointments, which a constraint cannot see).
  if (lock) void q.forUpdate('sp');
  return (await q) as ShopRow | undefined;
}

async function shopSlots(db: Knex, shop: ShopRow, now: Date, exceptId?: number) {
  const q = db('appointments')
    .where({ seller_id: shop.user_id, status: 'booked' })
    .where('ends_at', '>', new Date(now.getTime() - LIMITS.maxBufferMinutes * MINUTE))
    .select('starts_at', 'ends_at');
  if (exceptId !== undefined) void q.whereNot('id', exceptId);
  const booked = (await q) as { starts_at: Date | string; ends_at: Date | string }[];
  return freeSlots(
    {
      hours: readHours(shop.video_hours),
      breaks: readHours(shop.breaks ?? []),
      timeZone: shop.time_zone,
      slotMinutes: shop.slot_minutes,
      bufferMinutes: shop.buffer_minutes,
      booked: booked.map((b) => ({ startsAt: new Date(b.starts_at), endsAt: new Date(b.ends_at) })),
    },
    now,
    LIMITS.horizonDays,
  );
}

const usable = (shop: ShopRow | undefined): shop is ShopRow => !!shop && shop.is_approved === true;

/** The shop's free slots for the next two weeks. */
export async function listSlots(deps: Deps, sellerId: number): Promise<SlotsResponse> {
  const now = deps.clock.now();
  const shop = await loadShop(deps.db, sellerId);
  if (!usable(shop)) throw notFound(CALL_MESSAGES.sellerNotFound, CALL_ERROR_CODES.sellerNotFound);
  return {
    sellerId,
    shopName: shop.shop_name,
    timeZone: shop.time_zone,
    slotMinutes: shop.slot_minutes,
    slots: shop.video_call_enabled ? await shopSlots(deps.db, shop, now) : [],
  };
}

const loadOne = async (db: Knex, id: number, now: Date) =>
  presentAppointment((await appointmentsWithNames(db).where('a.id', id).first()) as AppointmentRow, now);

const violation = (err: unknown): string | undefined => {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e.code === '23P01') return 'overlap';
  if (e.code === '23505') return 'duplicate';
  return undefined;
};

/**
 * A customer books one of the shop's free slots. In one transaction: the shop's row is locked, the slot must
 * be free now, and the insert is guarded by the exclusion constraint (two shops' processes cannot both win).
 */
export async function bookAppointment(
  deps: Deps,
  customer: SessionUser,
  input: BookAppointmentInput,
): Promise<Appointment> {
  const now = deps.clock.now();
  const startsAt = new Date(input.startsAt);
  let notices: { userId: number; notice: AppointmentNotice }[] = [];
  const id = await deps.db.transaction(async (trx) => {
    const shop = await loadShop(trx, input.sellerId, true);
    if (!usable(shop)) throw notFound(CALL_MESSAGES.sellerNotFound, CALL_ERROR_CODES.sellerNotFound);
    if (!shop.video_call_enabled) throw conflict(MSG.shopNoVideo, CALL_ERROR_CODES.videoDisabled);
    if (input.productId !== undefined) {
      const own = await trx('products')
        .where({ id: input.productId, seller_id: input.sellerId })
        .whereNull('deleted_at')
        .first('id');
      if (!own) throw notFound(SELLING_MESSAGES.productNotInShop, SELLING_ERROR_CODES.productNotInShop);
    }
    const mine = await trx('appointments')
      .where({ customer_id: customer.id, seller_id: input.sellerId, status: 'booked' })
      .first('id');
    if (mine) throw conflict(MSG.alreadyBooked, CODES.alreadyBooked);
    // Each booking notifies the jeweller: cancelled ones count too, so book → cancel cannot repeat.
    const { bookingsPerDay, bookingsPerShopPerDay } = deps.config.schedule;
    const recent = (await trx('appointments')
      .where({ customer_id: customer.id })
      .where('created_at', '>', new Date(now.getTime() - 86_400_000))
      .select('seller_id')) as { seller_id: number }[];
    if (recent.filter((r) => r.seller_id === input.sellerId).length >= bookingsPerShopPerDay)
      throw tooManyRequests(
        MSG.tooManyShopBookings.replace('{n}', String(bookingsPerShopPerDay)),
        3600,
        CODES.tooManyBookings,
      );
    if (recent.length >= bookingsPerDay)
      throw tooManyRequests(
        MSG.tooManyBookings.replace('{n}', String(bookingsPerDay)),
        3600,
        CODES.tooManyBookings,
      );
    const slot = (await shopSlots(trx, shop, now)).find((s) => Date.parse(s.startsAt) === startsAt.getTime());
    if (!slot) {
      // Still a slot of its hours, but taken: say so; anything else is not a slot at all.
      const taken = await trx('appointments')
        .where({ seller_id: input.sellerId, status: 'booked' })
        .where('starts_at', '<=', startsAt)
        .where('ends_at', '>', startsAt)
        .first('id');
      throw taken ? conflict(MSG.slotTaken, CODES.slotTaken) : badRequest(MSG.notASlot, CODES.notASlot);
    }
    let row: { id: number };
    try {
      [row] = (await trx('appointments')
        .insert({
          customer_id: customer.id,
          seller_id: input.sellerId,
          product_id: input.productId ?? null,
          starts_at: startsAt,
          ends_at: new Date(slot.endsAt),
          note: input.note ? input.note : null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')) as { id: number }[];
    } catch (err) {
      const v = violation(err);
      if (v === 'overlap') throw conflict(MSG.slotTaken, CODES.slotTaken);
      if (v === 'duplicate') throw conflict(MSG.alreadyBooked, CODES.alreadyBooked);
      throw err;
    }
    await scheduleJobs(trx, row.id, startsAt, new Date(slot.endsAt), now);
    const full = (await appointmentsWithNames(trx).where('a.id', row.id).first()) as AppointmentRow;
    notices = [
      { userId: full.seller_id, notice: noticeFor(full, full.seller_id, 'booked') },
      { userId: full.customer_id, notice: noticeFor(full, full.customer_id, 'booked') },
    ];
    await writeNotices(trx, notices, now);
    // By SMS too, when the customer opted in (issue #37).
    await queueNotice(
      trx,
      {
        userId: full.customer_id,
        kind: 'appointment_confirmed',
        subject: `appointment:${row.id}`,
        params: { shop: full.shop_name, time: noticeTime(startsAt, full.time_zone) },
      },
      now,
    );
    return row.id;
  });
  // The jeweller learns of the booking by push; the customer is looking at the confirmation.
  pushNotices(
    deps,
    notices.filter((n) => n.userId !== customer.id),
  );
  return loadOne(deps.db, id, now);
}

/** The customer's appointments: booked ones soonest first, then those of the last 30 days, newest first. */
export async function listMyAppointments(
  deps: Deps,
  customer: SessionUser,
): Promise<AppointmentListResponse> {
  return listFor(deps, 'a.customer_id', customer.id);
}

/** The jeweller's: the same, for the shop. */
export async function listShopAppointments(
  deps: Deps,
  seller: SessionUser,
): Promise<AppointmentListResponse> {
  return listFor(deps, 'a.seller_id', seller.id);
}

async function listFor(deps: Deps, column: string, userId: number): Promise<AppointmentListResponse> {
  const now = deps.clock.now();
  const rows = (await appointmentsWithNames(deps.db)
    .where(column, userId)
    .where('a.ends_at', '>', new Date(now.getTime() - 30 * 24 * 60 * MINUTE))
    .orderByRaw(
      `(a.status = 'booked') desc, case when a.status = 'booked' then a.starts_at end asc, a.starts_at desc, a.id desc`,
    )
    .limit(100)) as AppointmentRow[];
  return { appointments: rows.map((r) => presentAppointment(r, now)) };
}

async function lockAppointment(trx: Knex, id: number, user: SessionUser): Promise<AppointmentRow> {
  const row = (await trx('appointments')
    .where('id', id)
    .where((w) => w.where('customer_id', user.id).orWhere('seller_id', user.id))
    .forUpdate()
    .first()) as AppointmentRow | undefined;
  if (!row) throw notFound(MSG.notFound, CODES.notFound);
  if (row.status !== 'booked') throw conflict(MSG.notBooked, CODES.notBooked);
  return row;
}

/**
 * Either side cancels a booked appointment (the jeweller with a reason); the other side is told at once (the
 * event stream and push) and its pending reminders are cancelled.
 */
export async function cancelAppointment(
  deps: Deps,
  user: SessionUser,
  input: { appointmentId: number; reason?: string },
): Promise<Appointment> {
  const now = deps.clock.now();
  const bySeller = user.role === 'seller';
  if (bySeller && !input.reason) throw badRequest(MSG.reasonRequired, 'reason_required');
  let notices: { userId: number; notice: AppointmentNotice }[] = [];
  await deps.db.transaction(async (trx) => {
    const row = await lockAppointment(trx, input.appointmentId, user);
    await trx('appointments')
      .where('id', row.id)
      .update({
        status: 'cancelled',
        cancelled_by: bySeller ? 'seller' : 'customer',
        reason: input.reason ? input.reason : null,
        closed_at: now,
        updated_at: now,
      });
    await cancelJobs(trx, row.id);
    const full = (await appointmentsWithNames(trx).where('a.id', row.id).first()) as AppointmentRow;
    notices = [full.customer_id, full.seller_id].map((userId) => ({
      userId,
      notice: noticeFor(full, userId, 'cancelled'),
    }));
    await writeNotices(trx, notices, now);
  });
  pushNotices(
    deps,
    notices.filter((n) => n.userId !== user.id),
  );
  return loadOne(deps.db, input.appointmentId, now);
}

/** The jeweller moves a booked appointment to another free slot, with a reason; the customer is told at once. */
export async function rescheduleAppointment(
  deps: Deps,
  seller: SessionUser,
  input: { appointmentId: number; startsAt: string; reason: string },
): Promise<Appointment> {
  const now = deps.clock.now();
  const startsAt = new Date(input.startsAt);
  let notices: { userId: number; notice: AppointmentNotice }[] = [];
  await deps.db.transaction(async (trx) => {
    const shop = await loadShop(trx, seller.id, true);
    if (!shop) throw notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
    const row = await lockAppointment(trx, input.appointmentId, seller);
    if (row.seller_id !== seller.id) throw notFound(MSG.notFound, CODES.notFound);
    const slot = (await shopSlots(trx, shop, now, row.id)).find(
      (s) => Date.parse(s.startsAt) === startsAt.getTime(),
    );
    if (!slot) throw badRequest(MSG.notASlot, CODES.notASlot);
    try {
      await trx('appointments')
        .where('id', row.id)
        .update({
          starts_at: startsAt,
          ends_at: new Date(slot.endsAt),
          reason: input.reason,
          rescheduled_count: row.rescheduled_count + 1,
          updated_at: now,
        });
    } catch (err) {
      if (violation(err) === 'overlap') throw conflict(MSG.slotTaken, CODES.slotTaken);
      throw err;
    }
    await cancelJobs(trx, row.id);
    await scheduleJobs(trx, row.id, startsAt, new Date(slot.endsAt), now);
    const full = (await appointmentsWithNames(trx).where('a.id', row.id).first()) as AppointmentRow;
    notices = [full.customer_id, full.seller_id].map((userId) => ({
      userId,
      notice: noticeFor(full, userId, 'rescheduled'),
    }));
    await writeNotices(trx, notices, now);
  });
  pushNotices(
    deps,
    notices.filter((n) => n.userId !== seller.id),
  );
  return loadOne(deps.db, input.appointmentId, now);
}

/**
 * At the time, either side starts the call, which rings the other: the customer's rings the shop (as any
 * call, but hours and away do not apply), the jeweller's rings the customer (the call-back's reverse call).
 */
export async function startAppointmentCall(
  deps: Deps,
  user: SessionUser,
  appointmentId: number,
): Promise<InitiateCallResponse> {
  const now = deps.clock.now();
  const row = (await deps
    .db('appointments')
    .where('id', appointmentId)
    .where((w) => w.where('customer_id', user.id).orWhere('seller_id', user.id))
    .first()) as AppointmentRow | undefined;
  if (!row) throw notFound(MSG.notFound, CODES.notFound);
  if (row.status !== 'booked') throw conflict(MSG.notBooked, CODES.notBooked);
  if (!isStartable(row, now)) throw conflict(MSG.notStartable, CODES.notStartable);
  if (user.id === row.seller_id)
    return ringCustomer(deps, user, {
      customerId: row.customer_id,
      productId: row.product_id,
      appointmentId: row.id,
    });
  return initiateCall(
    deps,
    user,
    row.seller_id,
    row.product_id ?? undefined,
    (call, callerName, product) => {
      for (const listener of deps.hooks.incomingCall)
        listener({
          callId: call.id,
          sellerId: call.sellerId,
          callerId: call.callerId,
          callerName,
          productName: product?.name ?? null,
        });
    },
    { appointmentId: row.id },
  );
}

const dateArray = (d: Date): [number, number, number, number, number] => [
  d.getUTCFullYear(),
  d.getUTCMonth() + 1,
  d.getUTCDate(),
  d.getUTCHours(),
  d.getUTCMinutes(),
];

/** The appointment as an iCalendar file (RFC 5545), for either side: times in UTC, the other side named. */
export async function appointmentCalendar(
  deps: Deps,
  user: SessionUser,
  appointmentId: number,
): Promise<{ filename: string; body: string }> {
  const row = (await appointmentsWithNames(deps.db)
    .where('a.id', appointmentId)
    .where((w) => w.where('a.customer_id', user.id).orWhere('a.seller_id', user.id))
    .first()) as AppointmentRow | undefined;
  if (!row) throw notFound(MSG.notFound, CODES.notFound);
  const asCustomer = user.id === row.customer_id;
  const origin = deps.config.publicOrigin ?? 'http://localhost';
  const { error, value } = createEvent({
    uid: `appointment-${row.id}@nagai`,
    start: dateArray(new Date(row.starts_at)),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: dateArray(new Date(row.ends_at)),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: asCustomer ? `Video appointment with ${row.shop_name}` : `Video appointment: ${row.customer_name}`,
    description: [
      'A Nagai video appointment. Open Nagai at the time and tap "Start call".',
      row.product_name ? `About: ${row.product_name}` : '',
      row.note ? `Note: ${row.note}` : '',
    ]
      .filter(Boolean)
      .join('\n'),
    url: `${origin}${asCustomer ? '/call-history' : '/seller/dashboard'}`,
    status: row.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED',
    sequence: row.rescheduled_count,
    alarms: [{ action: 'display', description: 'Video appointment', trigger: { minutes: 15, before: true } }],
  });
  if (error || !value) throw new AppError(500, 'ics_failed', 'Could not build the calendar file.');
  return { filename: `nagai-appointment-${row.id}.ics`, body: value };
}

/** The shop's slot length, buffer and breaks. */
export async function getAppointmentSettings(db: Knex, sellerId: number): Promise<AppointmentSettings> {
  const row = (await db('seller_profiles')
    .where('user_id', sellerId)
    .first('slot_minutes', 'buffer_minutes', 'breaks', 'time_zone')) as
    { slot_minutes: number; buffer_minutes: number; breaks: unknown; time_zone: string } | undefined;
  if (!row) throw notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
  const breaks: HoursRange[] = readHours(row.breaks ?? []).sort(
    (a, b) => a.day - b.day || a.from.localeCompare(b.from),
  );
  return {
    slotMinutes: row.slot_minutes,
    bufferMinutes: row.buffer_minutes,
    breaks,
    timeZone: row.time_zone,
  };
}

/** Saves them; booked appointments keep their times (new slots follow the new length). */
export async function saveAppointmentSettings(
  db: Knex,
  sellerId: number,
  input: AppointmentSettingsInput,
  now: Date,
): Promise<AppointmentSettings> {
  const n = await db('seller_profiles')
    .where('user_id', sellerId)
    .update({
      slot_minutes: input.slotMinutes,
      buffer_minutes: input.bufferMinutes,
      breaks: JSON.stringify(input.breaks),
      updated_at: now,
    });
  if (!n) throw notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
  return getAppointmentSettings(db, sellerId);
}
