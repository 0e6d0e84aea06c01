import {
  FAMILY_GUEST_HEADER,
  familyAskSchema,
  familyDecideSchema,
  familyGuestPhotoSchema,
  familyGuestStateSchema,
  familyInviteSchema,
  familyLikeSchema,
  familyNoInputSchema,
  familyOpenSchema,
  familySignalSchema,
  familyStateSchema,
} from '../../../contract/call-family';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { parseQuery } from '../../http/validate';
import { writePhoto } from '../selling/routes';
import {
  askToJoin,
  createInvite,
  decideGuest,
  guestIceServers,
  guestOf,
  leaveCall,
  openInvite,
} from './family';
import { readGuestPhoto } from './family-photo';
import { familyState, guestState, likeShownPiece, sendFamilySignal } from './family-mesh';
import { guestStream, issueStreamTicket } from './family-stream';

/**
 * Family in the call (issue #52, docs/product-rules.md §21). The guest routes are public: a guest has no
 * session, and each of them checks the guest's token (FAMILY_GUEST_HEADER) itself.
 */
export const callFamilyFeature: Feature = (router, { deps }) => {
  endpoint(router, R.familyInvite, {
    input: familyInviteSchema,
    handle: (deps, user, { callId }) => createInvite(deps, user, callId),
  });

  endpoint(router, R.familyOpen, {
    input: familyOpenSchema,
    handle: (deps, _user, { token }, exchange) => openInvite(deps, exchange.ip, token),
  });

  endpoint(router, R.familyAsk, {
    input: familyAskSchema,
    handle: (deps, user, ask, exchange) => askToJoin(deps, exchange.ip, user, ask),
  });

  endpoint(router, R.familyState, {
    input: familyStateSchema,
    handle: (deps, user, { callId, after }) => familyState(deps, user, callId, after),
  });

  endpoint(router, R.familyDecide, {
    input: familyDecideSchema,
    handle: (deps, user, { callId, guestId, action }) => decideGuest(deps, user, callId, guestId, action),
  });

  endpoint(router, R.familyGuest, {
    input: familyGuestStateSchema,
    handle: (deps, _user, cursors, exchange) =>
      guestState(deps, exchange.header(FAMILY_GUEST_HEADER), cursors),
  });

  endpoint(router, R.familyGuestTicket, {
    input: familyNoInputSchema,
    handle: async (deps, _user, _input, exchange) =>
      issueStreamTicket(deps, await guestOf(deps.db, exchange.header(FAMILY_GUEST_HEADER))),
  });

  // A stream, not one JSON answer: the handler owns the response.
  rawEndpoint(router, R.familyGuestEvents, (ctx) => guestStream(ctx, deps));

  // A participant signals with the session, a guest with the guest's token (which wins when both come).
  endpoint(router, R.familySignal, {
    input: familySignalSchema,
    handle: async (deps, user, input, exchange) => {
      const header = exchange.header(FAMILY_GUEST_HEADER);
      const guest = header ? await guestOf(deps.db, header) : undefined;
      return sendFamilySignal(deps, { user: guest ? undefined : user, guest }, input);
    },
  });

  endpoint(router, R.familyLike, {
    input: familyLikeSchema,
    handle: async (deps, _user, { productId, kind }, exchange) =>
      likeShownPiece(deps, await guestOf(deps.db, exchange.header(FAMILY_GUEST_HEADER)), productId, kind),
  });

  endpoint(router, R.familyIceServers, {
    input: familyNoInputSchema,
    handle: async (deps, _user, _input, exchange) =>
      guestIceServers(deps, await guestOf(deps.db, exchange.header(FAMILY_GUEST_HEADER))),
  });

  // Bytes, not JSON: a photo the jeweller sent, to the call's admitted guests, with the participants' headers.
  rawEndpoint(router, R.familyGuestPhoto, async (ctx) => {
    const { itemId } = parseQuery(ctx, familyGuestPhotoSchema);
    const guest = await guestOf(ctx.deps.db, ctx.get(FAMILY_GUEST_HEADER));
    writePhoto(ctx, await readGuestPhoto(ctx.deps.db, guest, itemId));
  });

  endpoint(router, R.familyLeave, {
    input: familyNoInputSchema,
    handle: async (deps, _user, _input, exchange) =>
      leaveCall(deps, await guestOf(deps.db, exchange.header(FAMILY_GUEST_HEADER))),
  });
};
