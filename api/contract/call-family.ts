import { z } from 'zod';
import { positiveId, positiveIdFromQuery } from './ids';
import { SIGNAL_KINDS, type CallStatus } from './constants';
import type { CallItem, CallProduct, FamilyLike } from './call-selling';
import type { SignalKind } from './calls';

/**
 * Family in the call (issue #52, docs/product-rules.md §21): the customer invites up to three guests (a
 * mother, a sister, a fiancé) into a live call by a link; the jeweller admits each; guests see and hear
 * everyone, see what is shown, and may like a piece. The sale stays with the customer.
 */

/** Most guests in a call at once (five people with the customer and the jeweller). */
export const FAMILY_MAX_GUESTS = 3;
/** Most invite links one call may make (declined and used links count). */
export const FAMILY_MAX_INVITES_PER_CALL = 6;
/** Most invite links one customer may make in 24 hours, over all calls. */
export const FAMILY_MAX_INVITES_PER_DAY = 20;
export const FAMILY_DAY_MS = 86_400_000;
/** Longest guest name. */
export const FAMILY_NAME_MAX = 40;
/** An admitted guest whose page has not asked for the call's state this long has left (a lost network). */
export const FAMILY_GUEST_GONE_MS = 30_000;
/** How often a guest's page asks for the call's state while its event stream is not open. */
export const FAMILY_GUEST_POLL_MS = 400;
/**
 * How often it asks while the stream is open (a safety net under the events, and what keeps the guest marked
 * still there: well inside FAMILY_GUEST_GONE_MS).
 */
export const FAMILY_GUEST_STREAM_POLL_MS = 3_000;
/**
 * How long a guest's stream ticket opens a stream (GET /_api/family/guest/events?ticket=): a fresh one is asked
 * for, with the guest's token in its header, whenever the stream must be opened anew.
 */
export const FAMILY_GUEST_TICKET_MS = 60_000;
/**
 * A guest's poll marks them still there at most this often (one write, not one a poll): well inside
 * FAMILY_GUEST_GONE_MS, so a guest whose page still asks is never taken for gone.
 */
export const FAMILY_GUEST_SEEN_EVERY_MS = 5_000;
/**
 * Video on each connection with a guest (simulcast off): at most 480×360, 15 frames a second, 300 kbit/s, so
 * a phone's four outgoing copies in a call of five need about 1.2 Mbit/s up (docs/product-rules.md §21.4).
 */
export const FAMILY_LINK_VIDEO = {
  maxWidth: 480,
  maxHeight: 360,
  maxFramerate: 15,
  maxBitrate: 300_000,
} as const;
/** The header that carries a guest's token (never a cookie: it must not ride along anywhere else). */
export const FAMILY_GUEST_HEADER = 'x-nagai-guest';
/** The app's page a link opens: `/family/<token>`. */
export const FAMILY_JOIN_PATH = '/family';
/** Asks to join per address per 10 minutes (a guessed token is refused anyway; this bounds the trying). */
export const FAMILY_OPEN_RATE = { limit: 30, windowMs: 600_000 } as const;

/**
 * A guest's part: invited (a link made), asked (the guest gave a name and waits), admitted (in the call),
 * declined (the jeweller said no), removed (the jeweller took the guest out), left (the guest left or their
 * page went silent). A call that is over ends every part.
 */
export const GUEST_STATES = ['invited', 'asked', 'admitted', 'declined', 'removed', 'left'] as const;
export type GuestState = (typeof GUEST_STATES)[number];

export const FAMILY_LIKE_KINDS = ['heart', 'like'] as const;
export type FamilyLikeKind = (typeof FAMILY_LIKE_KINDS)[number];
export type { FamilyLike };

/** A party of the call's mesh: 'u<userId>' (the customer, the jeweller) or 'g<guestId>' (a guest). */
export type FamilyParty = `u${number}` | `g${number}`;
export const FAMILY_PARTY_PATTERN = /^[ug][1-9][0-9]{0,9}$/;

export const FAMILY_MESSAGES = {
  notTheCustomer: 'Only the customer in this call can invite family.',
  callNotLive: 'Family can join only while the call is on.',
  tooManyInvites: 'This call already has as many invitations as it can.',
  tooManyToday: 'You have sent as many invitations as you can today. Please try again tomorrow.',
  callFull: 'Three family members are already in this call.',
  linkNotFound: 'This invitation link is not valid.',
  linkUsed: 'This invitation link has already been used. Ask for a new one.',
  callOver: 'This call is over.',
  guestNotFound: 'Guest not found.',
  notAGuest: 'Open your invitation link again to join.',
  notAdmitted: 'The jeweller has not let you in yet.',
  partOver: 'Your part in this call is over.',
  notShown: 'That piece was not shown in this call.',
  cannotDecide: 'This guest is no longer waiting or in the call.',
  invalidName: `Please give a name of 1 to ${FAMILY_NAME_MAX} letters.`,
  invalidToken: 'token must be an invitation token.',
  invalidAction: "action must be 'admit', 'decline' or 'remove'.",
  invalidParty: 'to must name a party of the call.',
  invalidLike: "kind must be 'heart' or 'like'.",
  tooManyOpens: 'Too many tries. Please wait a few minutes.',
  ownCall: 'You are already in this call. This link is for someone you invite.',
  alreadyGuest: 'You are already a guest in this call.',
  signInFirst: 'Please sign in to join as yourself.',
} as const;

export const FAMILY_ERROR_CODES = {
  notTheCustomer: 'family_not_customer',
  callNotLive: 'family_call_not_live',
  tooManyInvites: 'family_too_many_invites',
  tooManyToday: 'family_too_many_today',
  callFull: 'family_call_full',
  linkNotFound: 'family_link_not_found',
  linkUsed: 'family_link_used',
  callOver: 'family_call_over',
  guestNotFound: 'family_guest_not_found',
  notAGuest: 'family_not_a_guest',
  notAdmitted: 'family_not_admitted',
  partOver: 'family_part_over',
  notShown: 'family_not_shown',
  cannotDecide: 'family_cannot_decide',
  tooManyOpens: 'rate_limited',
  ownCall: 'family_own_call',
  alreadyGuest: 'family_already_guest',
  signInFirst: 'family_sign_in_first',
} as const;

/** An invitation or guest token: 43 characters of base64url (32 random bytes). */
const token = z
  .string({ error: FAMILY_MESSAGES.invalidToken })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: FAMILY_MESSAGES.invalidToken });

/** POST /_api/family/invite: the customer asks for a link. */
export const familyInviteSchema = z.object({ callId: positiveId('callId must be a positive integer.') });
/** POST /_api/family/open: what a link shows before the guest gives a name. */
export const familyOpenSchema = z.object({ token });
const guestName = z
  .string({ error: FAMILY_MESSAGES.invalidName })
  .trim()
  .min(1, { error: FAMILY_MESSAGES.invalidName })
  .max(FAMILY_NAME_MAX, { error: FAMILY_MESSAGES.invalidName });
/**
 * POST /_api/family/ask: the guest asks to join, under a name they give, or (`asAccount`) as the account the
 * session is signed in to, under its first name (the name given, if any, is then not used).
 */
export const familyAskSchema = z
  .object({
    token,
    asAccount: z.boolean({ error: 'asAccount must be true or false.' }).default(false),
    name: z.string({ error: FAMILY_MESSAGES.invalidName }).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.asAccount && !guestName.safeParse(v.name).success)
      ctx.addIssue({ code: 'custom', path: ['name'], message: FAMILY_MESSAGES.invalidName });
  });
/** POST /_api/family/decide: the jeweller admits, declines or removes a guest. */
export const familyDecideSchema = z.object({
  callId: positiveId('callId must be a positive integer.'),
  guestId: positiveId('guestId must be a positive integer.'),
  action: z.enum(['admit', 'decline', 'remove'], { error: FAMILY_MESSAGES.invalidAction }),
});
const cursor = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a non-negative integer.` })
    .int({ error: `${name} must be a non-negative integer.` })
    .min(0, { error: `${name} must be a non-negative integer.` })
    .default(0);
/** GET /_api/family/state (customer, jeweller) and /_api/family/guest (a guest): after = last signal id seen. */
export const familyStateSchema = z.object({
  callId: positiveIdFromQuery('callId must be a positive integer.'),
  after: cursor('after'),
});
/**
 * A guest's poll: the last signal (after), call item (afterItem) and like (afterLike) the page has; the answer
 * brings only what came since.
 */
export const familyGuestStateSchema = z.object({
  after: cursor('after'),
  afterItem: cursor('afterItem'),
  afterLike: cursor('afterLike'),
});
/** GET /_api/family/guest/events: the guest's stream ticket and the last mesh signal the page has. */
export const familyGuestStreamSchema = z.object({
  ticket: z
    .string({ error: FAMILY_MESSAGES.invalidToken })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: FAMILY_MESSAGES.invalidToken }),
  after: cursor('after'),
});
/** POST /_api/family/signal: a mesh signal to one party (by a participant's session or a guest's token). */
export const familySignalSchema = z.object({
  callId: positiveId('callId must be a positive integer.'),
  to: z.string().regex(FAMILY_PARTY_PATTERN, { error: FAMILY_MESSAGES.invalidParty }),
  kind: z.enum(SIGNAL_KINDS, { error: "kind must be one of 'offer', 'answer', 'candidate' or 'bye'." }),
  payload: z
    .record(z.string(), z.unknown(), { error: 'payload must be a JSON object.' })
    .refine((p) => JSON.stringify(p).length <= 32_000, { error: 'The signalling payload is too large.' }),
});
/** POST /_api/family/like: a guest's heart or "I like this one" on a piece shown in the call. */
export const familyLikeSchema = z.object({
  productId: positiveId('productId must be a positive integer.'),
  kind: z.enum(FAMILY_LIKE_KINDS, { error: FAMILY_MESSAGES.invalidLike }),
});
export const familyNoInputSchema = z.object({}).strict();

/** GET /_api/family/guest/photo?itemId=: a photo the jeweller sent in the call, for its admitted guests. */
export const familyGuestPhotoSchema = z.object({ itemId: positiveIdFromQuery('Photo not found.') });

export interface FamilyInviteResponse {
  guestId: number;
  /** The link's token: shown once, only its hash is kept. */
  token: string;
  /** The app's path the link opens (`/family/<token>`). */
  path: string;
  shopName: string;
  productName: string | null;
}
export interface FamilyOpenResponse {
  shopName: string;
  productName: string | null;
  /** 'open': the guest may ask; 'used': the link was used; 'over': the call is over. */
  link: 'open' | 'used' | 'over';
}
export interface FamilyAskResponse {
  guestId: number;
  callId: number;
  /** The guest's own token (sent in the FAMILY_GUEST_HEADER): only its hash is kept. */
  guestToken: string;
}
export interface FamilyGuest {
  id: number;
  party: FamilyParty;
  name: string;
  state: GuestState;
  askedAt: string | null;
}
export interface FamilySignal {
  id: number;
  from: FamilyParty;
  kind: SignalKind;
  payload: Record<string, unknown>;
}
/** What the customer and the jeweller read of the family (GET /_api/family/state). */
export interface FamilyStateResponse {
  callStatus: CallStatus;
  /** The reader's own party, so the mesh knows who offers to whom. */
  me: FamilyParty;
  guests: FamilyGuest[];
  likes: FamilyLike[];
  /** Mesh signals addressed to the reader after `after`, oldest first. */
  signals: FamilySignal[];
}
/** One person of the call as a guest sees them. */
export interface FamilyMember {
  party: FamilyParty;
  name: string;
  role: 'customer' | 'jeweller' | 'guest';
}
/** What a guest reads (GET /_api/family/guest): the call, never the customer's data beyond it. */
export interface FamilyGuestStateResponse {
  callId: number;
  me: FamilyParty;
  state: GuestState;
  /** false once the call is over (the customer or the jeweller ended it). */
  callLive: boolean;
  shopName: string;
  productName: string | null;
  /** The piece the call is about, once admitted (a guest may like it). */
  piece: CallProduct | null;
  /** Everyone in the call now (the guest included), once admitted; empty before. */
  members: FamilyMember[];
  /** What was shown and said in the call (pieces, chat) after `afterItem`, once admitted. */
  items: CallItem[];
  /** The guests' likes after `afterLike`, once admitted. */
  likes: FamilyLike[];
  /** Mesh signals addressed to this guest after `after`, oldest first. */
  signals: FamilySignal[];
}
/** POST /_api/family/guest/ticket: a ticket that opens the guest's event stream for FAMILY_GUEST_TICKET_MS. */
export interface FamilyGuestTicketResponse {
  ticket: string;
}
/**
 * The guest stream's 'guest' event: the guest's part as it is now, sent when it opens and whenever it changes
 * (their admission, decline or removal, who is in, the call's end, something new shown, said or liked).
 */
export interface FamilyGuestEvent {
  callId: number;
  me: FamilyParty;
  state: GuestState;
  callLive: boolean;
  /** Everyone in the call (the guest included), once admitted; empty before. */
  members: FamilyMember[];
  /** The latest call item (piece shown, chat) and like of the call, once admitted: the page reads what it lacks. */
  lastItem: number;
  lastLike: number;
  /**
   * The guest's ICE servers (with relay credentials of their own, §21.6), in the first event of a stream that
   * finds the guest admitted: the mesh starts with no further request. Never before admission.
   */
  iceServers?: unknown[];
}
/** The guest stream's events: 'hello' (the cursor), 'guest', and 'signal' (a mesh signal to the guest, its id the event's). */
export interface FamilyGuestStreamEvents {
  hello: { cursor: number };
  guest: FamilyGuestEvent;
  signal: FamilySignal;
}
export interface FamilyGuestResponse {
  guest: FamilyGuest;
}
export interface FamilyLikeResponse {
  like: FamilyLike;
}
export interface FamilySignalResponse {
  id: number;
}
/**
 * The 'family' stream event: the reader's family state changed; the app reads GET /_api/family/state, or for a
 * mesh signal that came with the event, handles it at once.
 */
export interface FamilyEvent {
  callId: number;
  what: 'guest' | 'like' | 'signal';
  /** With 'signal': the mesh signal itself, so the page may handle it without reading the state. */
  signal?: FamilySignal;
}
