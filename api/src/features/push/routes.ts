import { PushSubscriptionSchema, PushUnsubscribeSchema } from '../../../contract/push';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import {
  deleteSubscription,
  getVapidKeys,
  pushCallbackRequest,
  pushIncomingCall,
  pushOrderPaid,
  saveSubscription,
} from './service';

/** Web push: optional ringing on top of polling, for sellers who opt in on a device. */
export const pushFeature: Feature = (router, { deps }) => {
  endpoint(router, R.pushPublicKey, {
    handle: async (deps) => {
      const keys = await getVapidKeys(deps);
      return { enabled: !!keys, publicKey: keys?.publicKey ?? null };
    },
  });

  endpoint(router, R.pushSubscribe, {
    input: PushSubscriptionSchema,
    handle: async (deps, user, sub, exchange) => {
      await saveSubscription(deps, user.id, exchange.sessionId!, sub);
      return { success: true as const };
    },
  });

  endpoint(router, R.pushUnsubscribe, {
    input: PushUnsubscribeSchema,
    handle: async (deps, user, { endpoint }) => {
      const removed = await deleteSubscription(deps, user.id, endpoint);
      return { success: true as const, removed };
    },
  });

  // Never delays the customer's initiate request: the push runs after the response is on its way.
  deps.hooks.incomingCall.push((event) => {
    void pushIncomingCall(deps, event).catch((err: unknown) =>
      deps.logger.warn({ err }, 'push on incoming call failed'),
    );
  });
  deps.hooks.callbackRequested.push((event) => {
    void pushCallbackRequest(deps, event).catch((err: unknown) =>
      deps.logger.warn({ err }, 'push on call-back request failed'),
    );
  });
  deps.hooks.orderPaid.push((event) => {
    void pushOrderPaid(deps, event).catch((err: unknown) =>
      deps.logger.warn({ err }, 'push on a paid order failed'),
    );
  });
};
