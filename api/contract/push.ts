import { z } from 'zod';
import type { AppointmentNotice } from './appointments';

const EXPIRATION_MESSAGE = 'expirationTime must be a time in milliseconds or null.';

/** The product rules' push subscription schema (what PushSubscription.toJSON() gives), plus the notification language. */
export const PushSubscriptionSchema = z.object({
  endpoint: z
    .url({ error: 'A valid push endpoint URL is required.' })
    .max(2000)
    .refine((u) => u.startsWith('https://'), { error: 'Push endpoints must use https.' }),
  // PushSubscription.expirationTime: a time in ms since 1970, or null (stored as a bigint).
  expirationTime: z
    .number({ error: EXPIRATION_MESSAGE })
    .int({ error: EXPIRATION_MESSAGE })
    .min(0, { error: EXPIRATION_MESSAGE })
    .max(Number.MAX_SAFE_INTEGER, { error: EXPIRATION_MESSAGE })
    .nullable()
    .optional(),
  keys: z.object(
    {
      p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'Invalid push subscription key.'),
      auth: z.string().regex(/^[A-Za-z0-9_-]{16,32}={0,2}$/, 'Invalid push subscription key.'),
    },
    { error: 'Push subscription keys are required.' },
  ),
  locale: z.enum(['en', 'ta']).optional(),
});
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>;

export const PushUnsubscribeSchema = z.object({
  endpoint: z.url({ error: 'A valid push endpoint URL is required.' }).max(2000),
});

/** GET /_api/push/public-key */
export interface PushPublicKeyResponse {
  enabled: boolean;
  publicKey: string | null;
}

/** What the service worker receives for a ringing call. */
export interface IncomingCallPush {
  type: 'incoming-call';
  callId: number;
  callerName: string;
  /** The piece the customer is calling about (a call placed from a product), for "Calling about …". */
  productName?: string | null;
  /** A jeweller's call-back ringing the customer (issue #22): "<shop> is calling you back". */
  callBack?: boolean;
  locale: 'en' | 'ta';
}

/** What the service worker receives when a customer asks the jeweller to call back (issue #22). */
export interface CallbackRequestPush {
  type: 'callback-request';
  requestId: number;
  customerName: string;
  productName?: string | null;
  locale: 'en' | 'ta';
}

/** What the service worker receives when a customer's online payment pays an order of the shop (issue #48). */
export interface OrderPaidPush {
  type: 'order-paid';
  orderId: number;
  customerName: string;
  /** The order's total, written as the app writes money (₹1,71,258.33). */
  amount: string;
  locale: 'en' | 'ta';
}

/** What the service worker receives for an appointment notice (issue #22): booked, reminder, starting, … */
export interface AppointmentPush extends AppointmentNotice {
  type: 'appointment';
  locale: 'en' | 'ta';
}

/**
 * A ring is worth delivering only while it can still be answered: the push's TTL is the ring timeout
 * (CALL_RING_TIMEOUT_MS, 30 s by default), in whole seconds.
 */
export const incomingCallPushTtlSeconds = (ringTimeoutMs: number) =>
  Math.max(1, Math.ceil(ringTimeoutMs / 1000));
