import {
  FAMILY_GUEST_HEADER,
  type FamilyLikeKind,
  type FamilyParty,
} from '../../../../../api/contract/call-family';
import type { SignalKind } from '../../../../../api/contract/calls';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { api } from '../../../lib/api-client';

/** Family in the call (issue #52): every request through its route descriptor. */
export const familyApi = {
  invite: (callId: number) => api.call(API_ROUTES.familyInvite, { callId }),
  state: (callId: number, after: number, signal?: AbortSignal) =>
    api.call(API_ROUTES.familyState, { callId, after }, { signal }),
  decide: (callId: number, guestId: number, action: 'admit' | 'decline' | 'remove') =>
    api.call(API_ROUTES.familyDecide, { callId, guestId, action }),
  signal: (
    callId: number,
    to: FamilyParty,
    kind: SignalKind,
    payload: Record<string, unknown>,
    guest?: string,
  ) =>
    api.call(
      API_ROUTES.familySignal,
      { callId, to, kind, payload },
      guest ? { headers: { [FAMILY_GUEST_HEADER]: guest } } : {},
    ),
  iceServers: (callId: number) => api.call(API_ROUTES.videoIceServers, { callId }),
};

/** What a guest's page asks, with the guest's token in its header (never a cookie). */
export const guestApi = {
  open: (token: string) => api.call(API_ROUTES.familyOpen, { token }),
  /** Under a name given, or as the account signed in (under its first name). */
  ask: (token: string, who: { name: string } | { asAccount: true }) =>
    api.call(API_ROUTES.familyAsk, { token, ...who }),
  state: (
    guest: string,
    cursors: { after: number; afterItem: number; afterLike: number },
    signal?: AbortSignal,
  ) => api.call(API_ROUTES.familyGuest, cursors, { signal, headers: { [FAMILY_GUEST_HEADER]: guest } }),
  like: (guest: string, productId: number, kind: FamilyLikeKind) =>
    api.call(API_ROUTES.familyLike, { productId, kind }, { headers: { [FAMILY_GUEST_HEADER]: guest } }),
  iceServers: (guest: string) =>
    api.call(API_ROUTES.familyIceServers, {}, { headers: { [FAMILY_GUEST_HEADER]: guest } }),
  /** A short-lived ticket that opens the guest's event stream (EventSource sends no header). */
  ticket: (guest: string) =>
    api.call(API_ROUTES.familyGuestTicket, {}, { headers: { [FAMILY_GUEST_HEADER]: guest } }),
  leave: (guest: string) =>
    api.call(API_ROUTES.familyLeave, {}, { headers: { [FAMILY_GUEST_HEADER]: guest } }),
};
