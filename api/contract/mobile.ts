import { z } from 'zod';
import { HIDDEN_CHARACTERS_MESSAGE, hasHiddenCharacters } from './constants';
import { NewPasswordSchema, ProofFields, type User } from './accounts';

/**
 * Signing in with an Indian mobile number and a one-time code, a password reset by code, and the notices sent
 * off the app by SMS or WhatsApp (issue #37, docs/product-rules.md "Mobile sign-in and notices").
 */
export const MOBILE_RULES = {
  /** A code is valid this long after it was sent. */
  codeValidMinutes: 10,
  /** Wrong codes that end a code (a new one has to be sent). */
  maxWrongCodes: 5,
  /** A new code for the same number may be asked for this long after the last one. */
  resendAfterSeconds: 30,
  /** After a correct code for a new number, its display-name step must be done within this time. */
  signUpTicketMinutes: 15,
} as const;

export const CODE_CHANNELS = ['sms', 'whatsapp'] as const;
export type CodeChannel = (typeof CODE_CHANNELS)[number];

/** Every message of mobile sign-in; locales hold them under messages.mobile.<id>. */
export const MOBILE_MESSAGES = {
  invalidMobile: 'Enter a 10-digit Indian mobile number starting with 6, 7, 8 or 9.',
  invalidCode: 'Enter the 6-digit code.',
  wrongCode: 'That code is not right. Please check it and try again.',
  codeExpired: 'This code has expired or was tried too many times. Please ask for a new code.',
  resendTooSoon: 'Please wait {seconds} second(s) before asking for another code.',
  tooManyCodesForNumber:
    'Too many codes were sent to this number. Please wait {minutes} minute(s) and try again.',
  tooManyCodesFromNetwork:
    'Too many codes were asked for from this network. Please wait {minutes} minute(s) and try again.',
  unavailable: 'Sign-in with a mobile number is not available right now. Please sign in with your email.',
  sendFailed: 'We could not send the code. Please try again in a moment.',
  nameRequired: 'Please tell us your name.',
  nameMax: 'Display name cannot exceed 100 characters.',
  nameHiddenCharacters: HIDDEN_CHARACTERS_MESSAGE,
  signUpExpired: 'This sign-up has expired. Please start again with your mobile number.',
  mobileUnavailable: 'This mobile number cannot be used for your account.',
  noVerifiedMobile: 'Add and verify a mobile number in your profile first.',
  whatsappUnavailable: 'Updates by WhatsApp are not available right now. Please choose SMS.',
} as const;
export type MobileMessageId = keyof typeof MOBILE_MESSAGES;
const M = MOBILE_MESSAGES;

export { formatIndianMobile, normalizeIndianMobile } from './indian-mobile';
import { normalizeIndianMobile } from './indian-mobile';

const MobileSchema = z
  .string({ error: M.invalidMobile })
  .max(30, M.invalidMobile)
  .transform((v, ctx) => {
    const n = normalizeIndianMobile(v);
    if (!n) {
      ctx.addIssue({ code: 'custom', message: M.invalidMobile });
      return z.NEVER;
    }
    return n;
  });
const CodeSchema = z
  .string({ error: M.invalidCode })
  .trim()
  .regex(/^[0-9]{6}$/, M.invalidCode);

export const MobileCodeRequestSchema = z.strictObject({
  mobile: MobileSchema,
  channel: z.enum(CODE_CHANNELS).default('sms'),
});
export type MobileCodeRequest = z.infer<typeof MobileCodeRequestSchema>;

/**
 * POST /_api/user/mobile/code: a code to a number the signed-in account adds or changes to. A new way into the
 * account, so it needs the proof of ProofFields (the current password, or a code to the current number).
 */
export const ProfileMobileCodeSchema = MobileCodeRequestSchema.extend(ProofFields);
export type ProfileMobileCodeRequest = z.infer<typeof ProfileMobileCodeSchema>;

/** POST /_api/user/reauth/code: a code to the signed-in account's own verified number (its proof). */
export const ReauthCodeRequestSchema = z.strictObject({ channel: z.enum(CODE_CHANNELS).default('sms') });
export type ReauthCodeRequest = z.infer<typeof ReauthCodeRequestSchema>;

export const MobileCodeCheckSchema = z.strictObject({ mobile: MobileSchema, code: CodeSchema });
export type MobileCodeCheck = z.infer<typeof MobileCodeCheckSchema>;

/** An IANA time zone the runtime knows ("Asia/Kolkata"): quiet hours are kept in it. */
const TimeZoneSchema = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone.');

export const MobileSignUpSchema = z.strictObject({
  ticket: z.string().min(10).max(100),
  displayName: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .max(100, M.nameMax)
    .refine((v) => !hasHiddenCharacters(v), M.nameHiddenCharacters),
  /** Notices by SMS/WhatsApp; the consent is stored with the wording shown (NOTICE_CONSENT_WORDING). */
  notices: z.boolean().default(false),
  locale: z.enum(['en', 'ta']).default('en'),
  /** The browser's time zone, for the quiet hours of notices (Asia/Kolkata when left out or unknown). */
  timeZone: TimeZoneSchema.optional().catch(undefined),
});
export type MobileSignUpInput = z.infer<typeof MobileSignUpSchema>;

export const PasswordResetSchema = z
  .strictObject({
    mobile: MobileSchema,
    code: CodeSchema,
    newPassword: NewPasswordSchema,
    confirmNewPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    error: 'New passwords do not match',
    path: ['confirmNewPassword'],
  });
export type PasswordResetInput = z.infer<typeof PasswordResetSchema>;

export const NoticeSettingsSchema = z.strictObject({
  notices: z.boolean(),
  locale: z.enum(['en', 'ta']).optional(),
  /** SMS or WhatsApp; WhatsApp only where the server offers it (NoticeSettings.channels). */
  channel: z.enum(CODE_CHANNELS).optional(),
  /** The browser's time zone, for the quiet hours of notices (one the server does not know is ignored). */
  timeZone: TimeZoneSchema.optional().catch(undefined),
});
export type NoticeSettingsInput = z.infer<typeof NoticeSettingsSchema>;

/**
 * The consent text shown beside the switch, stored word for word with each consent (with its channel,
 * time and source: docs/product-rules.md "Mobile sign-in and notices").
 */
export const NOTICE_CONSENT_WORDING = {
  en: 'Send me order, call and appointment updates by SMS or WhatsApp. Reply STOP to end them.',
  ta: 'ஆர்டர், அழைப்பு, சந்திப்பு பற்றிய செய்திகளை SMS அல்லது WhatsApp மூலம் அனுப்பவும். நிறுத்த STOP என பதில் அனுப்பவும்.',
} as const;

/** GET /_api/auth/mobile: whether mobile sign-in is offered (never in production without Twilio). */
export interface MobileAvailability {
  available: boolean;
  channels: CodeChannel[];
}

/** A code was sent: when the next may be asked for, and how long this one is valid. */
export interface CodeSent {
  sent: true;
  resendAfterSeconds: number;
  validMinutes: number;
}

/** A correct code: signed in, or (a new number) a ticket for the display-name step. */
export type MobileVerifyResult = { next: 'signed-in'; user: User } | { next: 'name'; ticket: string };

export interface NoticeSettings {
  notices: boolean;
  locale: 'en' | 'ta';
  /** Where notices go: SMS or WhatsApp. */
  channel: CodeChannel;
  /** The channels notices can go by on this server (WhatsApp needs a WhatsApp sender). */
  channels: CodeChannel[];
  mobile: string | null;
  /**
   * Whether the account has a password. A change that adds a way in (mobile, e-mail, password) needs it; an
   * account without one (made by mobile sign-in) proves itself with a code to its number (issue #46).
   */
  hasPassword: boolean;
  /** The consent wording shown beside the switch, in each language (stored word for word with a consent). */
  wording: { en: string; ta: string };
}
