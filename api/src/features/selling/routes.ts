import {
  callDetailQuerySchema,
  callItemsQuerySchema,
  callPhotoQuerySchema,
  callProductSearchSchema,
  createHoldSchema,
  releaseHoldSchema,
  sendChatSchema,
  sendPhotoSchema,
  shareProductsSchema,
} from '../../../contract/call-selling';
import { API_ROUTES as R } from '../../../contract/routes';
import type { AppContext, Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { parseQuery } from '../../http/validate';
import { createHold, expireHolds, listSellerHolds, releaseHold } from './holds';
import {
  callDetail,
  listCallItems,
  readPhoto,
  searchCallProducts,
  sendChat,
  sendPhoto,
  shareProducts,
} from './service';

/** How often each process ends the holds whose time is up (reads end them too, for what they show). */
export const HOLDS_SWEEP_INTERVAL_MS = 30_000;

/**
 * A call photo's bytes as its readers get them (participants, and admitted guests in family-routes.ts): kept
 * by the browser for an hour, never shared, never run as a document.
 */
export function writePhoto(ctx: AppContext, photo: { bytes: Buffer; mime: string }): void {
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  ctx.type = photo.mime;
  ctx.body = photo.bytes;
}

/** Selling inside the call: products, photos and chat in a call, its summary, and holds. */
export const sellingFeature: Feature = (router, { deps, background }) => {
  background.every('selling:expire-holds', HOLDS_SWEEP_INTERVAL_MS, async () => {
    const expired = await expireHolds(deps.db, deps.clock.now());
    if (expired > 0) deps.logger.info({ expired }, 'expired product holds');
  });

  endpoint(router, R.callProducts, {
    input: callProductSearchSchema,
    handle: (deps, user, { callId, q }) => searchCallProducts(deps, user, callId, q),
  });

  endpoint(router, R.callShare, {
    input: shareProductsSchema,
    handle: (deps, user, { callId, productIds }) => shareProducts(deps, user, callId, productIds),
  });

  endpoint(router, R.callMessage, {
    input: sendChatSchema,
    handle: (deps, user, { callId, text }) => sendChat(deps, user, callId, text),
  });

  endpoint(router, R.callPhotoSend, {
    input: sendPhotoSchema,
    handle: (deps, user, { callId, image }) => sendPhoto(deps, user, callId, image),
  });

  // Bytes, not JSON: private to the call's two participants, kept by the browser for an hour, never shared.
  rawEndpoint(router, R.callPhoto, async (ctx) => {
    const { id } = parseQuery(ctx, callPhotoQuerySchema);
    writePhoto(ctx, await readPhoto(ctx.deps.db, ctx.state.user!.id, id));
  });

  endpoint(router, R.callItems, {
    input: callItemsQuerySchema,
    handle: (deps, user, { callId, after }) => listCallItems(deps, user, callId, after),
  });

  endpoint(router, R.callDetail, {
    input: callDetailQuerySchema,
    handle: (deps, user, { callId }) => callDetail(deps, user, callId),
  });

  endpoint(router, R.holdCreate, {
    input: createHoldSchema,
    handle: (deps, user, { callId, productId }) => createHold(deps, user, callId, productId),
  });

  endpoint(router, R.holdRelease, {
    input: releaseHoldSchema,
    handle: (deps, user, { holdId }) => releaseHold(deps, user, holdId),
  });

  endpoint(router, R.sellerHolds, { handle: (deps, user) => listSellerHolds(deps, user) });
};
