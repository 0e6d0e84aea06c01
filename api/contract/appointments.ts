import { z } from 'zod';
import { ID_MAX } from './constants';
import { minutesOf, type HoursRange } from './shop-hours';

/**
 * Booked video appointments (issue #22 item 3, docs/product-rules.md "Video appointments"): a customer books a
 * free slot of a shop (derived from its weekly hours, minus breaks and existing bookings, in the shop's time
 * zone); both sides get a confirmation with a calendar file, a reminder 15 minutes before and one at the start
 * (push and in the app); at the time either side starts the call, which rings the other. The jeweller can
 * reschedule or cancel with a reason; the customer can cancel.
 */
export const APPOINTMENT_STATUSES = ['booked', 'cancelled', 'completed', 'expired'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

export const APPOINTMENT_LIMITS = {
  defaultSlotMinutes: 30,
  minSlotMinutes: 15,
  maxSlotMinutes: 120,
  defaultBufferMinutes: 0,
  maxBufferMinutes: 60,
  maxBreaks: 14,
  /** Slots are offered this many days ahead (the shop's days, from today). */
  horizonDays: 14,
  /** The reminder before the start. */
  reminderMinutes: 15,
  /** "Start call" opens this long before the start, and stays until the end. */
  joinEarlyMinutes: 5,
  noteMax: 500,
  reasonMax: 300,
} as const;

export const APPOINTMENT_MESSAGES = {
  notFound: 'Appointment not found.',
  notBooked: 'This appointment is no longer booked.',
  slotTaken: 'This slot has just been booked by someone else. Please choose another time.',
  notASlot: 'This time is not one of the shop’s free slots. Please choose a listed time.',
  alreadyBooked: 'You already have a booked appointment with this shop.',
  tooManyBookings: 'You have booked {n} appointments today, the most allowed. Please try again tomorrow.',
  tooManyShopBookings: 'You have booked this shop {n} times today. Please try again tomorrow.',
  notStartable: 'The call can be started from 5 minutes before the appointment until its end.',
  reasonRequired: 'Please give the customer a reason.',
  reasonTooLong: `The reason can have at most ${APPOINTMENT_LIMITS.reasonMax} characters.`,
  noteTooLong: `The note can have at most ${APPOINTMENT_LIMITS.noteMax} characters.`,
  invalidId: 'The id must be a positive integer.',
  invalidTime: 'Choose a time.',
  invalidSlotMinutes: `Slots last ${APPOINTMENT_LIMITS.minSlotMinutes} to ${APPOINTMENT_LIMITS.maxSlotMinutes} minutes.`,
  invalidBufferMinutes: `The buffer is 0 to ${APPOINTMENT_LIMITS.maxBufferMinutes} minutes.`,
  tooManyBreaks: `At most ${APPOINTMENT_LIMITS.maxBreaks} breaks.`,
  invalidBreak: 'A break is a day (1-7) and a time range HH:MM-HH:MM on that day.',
  shopNoVideo: 'This jeweller is not taking video appointments.',
} as const;

export const APPOINTMENT_ERROR_CODES = {
  notFound: 'appointment_not_found',
  notBooked: 'appointment_not_booked',
  slotTaken: 'slot_taken',
  notASlot: 'not_a_slot',
  alreadyBooked: 'appointment_already_booked',
  tooManyBookings: 'too_many_bookings',
  notStartable: 'appointment_not_startable',
} as const;

const M = APPOINTMENT_MESSAGES;
const id = z
  .number({ error: M.invalidId })
  .int({ error: M.invalidId })
  .positive({ error: M.invalidId })
  .max(ID_MAX, { error: M.invalidId });
const when = z.iso.datetime({ offset: true, error: M.invalidTime });
const reason = z
  .string({ error: M.reasonRequired })
  .trim()
  .min(1, { error: M.reasonRequired })
  .max(APPOINTMENT_LIMITS.reasonMax, { error: M.reasonTooLong });
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** GET /_api/appointments/slots */
export const slotsQuerySchema = z.object({ sellerId: z.coerce.number().pipe(id) }).strict();

/** POST /_api/appointments/book */
export const bookAppointmentSchema = z
  .object({
    sellerId: id,
    startsAt: when,
    productId: id.optional(),
    note: z.string().trim().max(APPOINTMENT_LIMITS.noteMax, { error: M.noteTooLong }).optional(),
  })
  .strict();
export type BookAppointmentInput = z.input<typeof bookAppointmentSchema>;

/** POST /_api/appointments/cancel: the customer may leave the reason out; the jeweller must give one. */
export const cancelAppointmentSchema = z
  .object({
    appointmentId: id,
    reason: z.string().trim().max(APPOINTMENT_LIMITS.reasonMax, { error: M.reasonTooLong }).optional(),
  })
  .strict();

/** POST /_api/seller/appointments/reschedule */
export const rescheduleAppointmentSchema = z.object({ appointmentId: id, startsAt: when, reason }).strict();

/** POST /_api/appointments/start and GET /_api/appointments/calendar.ics */
export const appointmentIdSchema = z.object({ appointmentId: id }).strict();
export const appointmentIdQuerySchema = z.object({ appointmentId: z.coerce.number().pipe(id) }).strict();

/** POST /_api/seller/appointment-settings: slot length, buffer between appointments, weekly breaks. */
export const appointmentSettingsSchema = z
  .object({
    slotMinutes: z
      .number({ error: M.invalidSlotMinutes })
      .int({ error: M.invalidSlotMinutes })
      .min(APPOINTMENT_LIMITS.minSlotMinutes, { error: M.invalidSlotMinutes })
      .max(APPOINTMENT_LIMITS.maxSlotMinutes, { error: M.invalidSlotMinutes }),
    bufferMinutes: z
      .number({ error: M.invalidBufferMinutes })
      .int({ error: M.invalidBufferMinutes })
      .min(0, { error: M.invalidBufferMinutes })
      .max(APPOINTMENT_LIMITS.maxBufferMinutes, { error: M.invalidBufferMinutes }),
    breaks: z
      .array(
        z
          .object({
            day: z.number({ error: M.invalidBreak }).int({ error: M.invalidBreak }).min(1).max(7),
            from: z.string({ error: M.invalidBreak }).regex(TIME, { error: M.invalidBreak }),
            to: z.string({ error: M.invalidBreak }).regex(TIME, { error: M.invalidBreak }),
          })
          .strict()
          .refine((b) => minutesOf(b.to) > minutesOf(b.from), { error: M.invalidBreak, path: ['to'] }),
      )
      .max(APPOINTMENT_LIMITS.maxBreaks, { error: M.tooManyBreaks }),
  })
  .strict();
export type AppointmentSettingsInput = z.input<typeof appointmentSettingsSchema>;

export interface AppointmentSettings {
  slotMinutes: number;
  bufferMinutes: number;
  /** Weekly breaks in the shop's time zone (within one day). */
  breaks: HoursRange[];
  timeZone: string;
}

export interface Slot {
  startsAt: string;
  endsAt: string;
}

/** GET /_api/appointments/slots: the shop's free slots, soonest first (UTC; the client shows them in its zone). */
export interface SlotsResponse {
  sellerId: number;
  shopName: string;
  timeZone: string;
  slotMinutes: number;
  slots: Slot[];
}

export interface Appointment {
  id: number;
  status: AppointmentStatus;
  startsAt: string;
  endsAt: string;
  note: string | null;
  /** Why the jeweller (or customer) cancelled or rescheduled, last given. */
  reason: string | null;
  cancelledBy: 'customer' | 'seller' | null;
  rescheduledCount: number;
  shop: { sellerId: number; shopName: string; timeZone: string };
  customer: { id: number; displayName: string };
  product: { id: number; name: string } | null;
  /** Either side may start the call now (from 5 minutes before until the end, while booked). */
  startable: boolean;
  createdAt: string;
}

/** GET /_api/appointments/mine (customer: upcoming first, then the last 30 days) and /_api/seller/appointments. */
export interface AppointmentListResponse {
  appointments: Appointment[];
}

/**
 * What an appointment notice tells (the event stream's 'appointment' event and the push): a new booking,
 * the reminder 15 minutes before, the start, a reschedule or a cancellation.
 */
export const APPOINTMENT_NOTICES = ['booked', 'reminder', 'starting', 'rescheduled', 'cancelled'] as const;
export type AppointmentNoticeKind = (typeof APPOINTMENT_NOTICES)[number];

export interface AppointmentNotice {
  appointmentId: number;
  notice: AppointmentNoticeKind;
  startsAt: string;
  /** The other side: the shop for the customer, the customer for the jeweller. */
  otherName: string;
  reason: string | null;
  /** Whom the notice is for: a tap on its notification opens the dashboard (seller) or /call-history. */
  side: 'customer' | 'seller';
}
