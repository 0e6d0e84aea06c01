import type { Feature } from '../../app';
import { requireAuth, currentUser } from '../../http/auth';
import { parseBody } from '../../http/validate';
import {
  PushSubscriptionSchema,
  PushUnsubscribeSchema,
  type PushPublicKeyResponse,
} from '../../../contract/push';
import { deleteSubscription, getVapidKeys, pushIncomingCall, saveSubscription } from './service';

/** Web push: optional ringing on top of polling, for sellers who opt in on a device. */
export const pushFeature: Feature = (router, { deps }) => {
  router.get('/_api/push/public-key', async (ctx) => {
    const keys = await getVapidKeys(ctx.deps);
    const body: PushPublicKeyResponse = { enabled: !!keys, publicKey: keys?.publicKey ?? null };
    ctx.body = body;
  });

  router.post('/_api/push/subscribe', requireAuth(), async (ctx) => {
    const sub = parseBody(ctx, PushSubscriptionSchema);
    await saveSubscription(ctx.deps, currentUser(ctx).id, sub);
    ctx.status = 201;
    ctx.body = { success: true };
  });

  router.post('/_api/push/unsubscribe', requireAuth(), async (ctx) => {
    const { endpoint } = parseBody(ctx, PushUnsubscribeSchema);
    const removed = await deleteSubscription(ctx.deps, currentUser(ctx).id, endpoint);
    ctx.body = { success: true, removed };
  });

  // Never delays the customer's initiate request: the push runs after the response is on its way.
  deps.hooks.incomingCall.push((event) => {
    void pushIncomingCall(deps, event).catch((err: unknown) =>
      deps.logger.warn({ err }, 'push on incoming call failed'),
    );
  });
};
