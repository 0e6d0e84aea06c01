import { z } from 'zod';

/** The spec's push subscription schema (what PushSubscription.toJSON() gives), plus the notification language. */
export const PushSubscriptionSchema = z.object({
  endpoint: z
    .url({ error: 'A valid push endpoint URL is required.' })
    .max(2000)
    .refine((u) => u.startsWith('https://'), { error: 'Push endpoints must use https.' }),
  expirationTime: z.number().nullable().optional(),
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
  locale: 'en' | 'ta';
}

/** A ring is worth delivering only while it can still be answered. */
export const INCOMING_CALL_PUSH_TTL_SECONDS = 30;
