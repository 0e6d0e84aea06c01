import { API_ROUTES as R } from '../../../contract/routes';
import { shopHoursSchema } from '../../../contract/shop-hours';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { callBackMissedSchema, callbackIdSchema, createCallbackSchema } from '../../../contract/callbacks';
import { getShopHours, saveShopHours } from './service';
import {
  callBack,
  callBackMissed,
  callbackQueue,
  createCallback,
  expireCallbacks,
  listMyCallbacks,
  ringingCallbacks,
  withdrawCallback,
} from './callbacks';

/** How often each process expires call-back requests past their time, even when nobody looks. */
export const CALLBACK_SWEEP_MS = 60_000;

/** Shop hours and away (issue #22): the seller's own setting; the call state is computed in hours.ts. */
export const scheduleFeature: Feature = (router, { deps, background }) => {
  background.every('schedule:callbacks', CALLBACK_SWEEP_MS, async () => {
    await expireCallbacks(deps.db, deps.clock.now());
  });

  endpoint(router, R.shopHours, {
    handle: (deps, user) => getShopHours(deps.db, user.id, deps.clock.now()),
  });

  endpoint(router, R.shopHoursSave, {
    input: shopHoursSchema,
    handle: (deps, user, input) => saveShopHours(deps.db, user.id, input, deps.clock.now()),
  });

  // Call-back requests (issue #22): the customer's side, then the jeweller's queue and call-back.
  endpoint(router, R.callbackCreate, {
    input: createCallbackSchema,
    handle: (deps, user, input) => createCallback(deps, user, input),
  });
  endpoint(router, R.callbacksMine, { handle: (deps, user) => listMyCallbacks(deps, user) });
  endpoint(router, R.callbackWithdraw, {
    input: callbackIdSchema,
    handle: (deps, user, { requestId }) => withdrawCallback(deps, user, requestId),
  });
  endpoint(router, R.callbacksRinging, { handle: (deps, user) => ringingCallbacks(deps, user) });
  endpoint(router, R.callbackQueue, { handle: (deps, user) => callbackQueue(deps, user) });
  endpoint(router, R.callbackCall, {
    input: callbackIdSchema,
    handle: (deps, user, { requestId }) => callBack(deps, user, requestId),
  });
  endpoint(router, R.callbackCallMissed, {
    input: callBackMissedSchema,
    handle: (deps, user, { callId }) => callBackMissed(deps, user, callId),
  });
};
