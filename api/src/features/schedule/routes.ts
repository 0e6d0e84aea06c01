import { API_ROUTES as R } from '../../../contract/routes';
import { shopHoursSchema } from '../../../contract/shop-hours';
import { shopCallStateQuerySchema } from '../../../contract/catalog';
import { SELLER_MESSAGES } from '../../../contract/sellers';
import { notFound } from '../../http/errors';
import type { Feature } from '../../http/context';
import { endpoint } from '../../http/endpoint';
import { callBackMissedSchema, callbackIdSchema, createCallbackSchema } from '../../../contract/callbacks';
import { forgetCallState } from './call-state-cache';
import { getShopHours, loadPublicCallState, saveShopHours } from './service';
import {
  appointmentIdQuerySchema,
  appointmentIdSchema,
  appointmentSettingsSchema,
  bookAppointmentSchema,
  cancelAppointmentSchema,
  rescheduleAppointmentSchema,
  slotsQuerySchema,
} from '../../../contract/appointments';
import { parseQuery } from '../../http/validate';
import { rawEndpoint } from '../../http/endpoint';
import {
  appointmentCalendar,
  bookAppointment,
  cancelAppointment,
  getAppointmentSettings,
  listMyAppointments,
  listShopAppointments,
  listSlots,
  rescheduleAppointment,
  saveAppointmentSettings,
  startAppointmentCall,
} from './appointments';
import { JOB_POLL_MS } from './jobs';
import { drainDueJobs } from './job-worker';
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

  // The job table (reminders, starts, expiry of appointments): every process polls; each job runs once.
  background.every('schedule:jobs', JOB_POLL_MS, async () => {
    await drainDueJobs(deps);
  });

  endpoint(router, R.shopCallState, {
    input: shopCallStateQuerySchema,
    handle: async (deps, _user, q) => {
      const sellerId = q.sellerId!;
      const callState = await loadPublicCallState(deps.db, sellerId, deps.clock.now());
      if (!callState) throw notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
      return { sellerId, callState };
    },
  });

  endpoint(router, R.shopHours, {
    handle: (deps, user) => getShopHours(deps.db, user.id, deps.clock.now()),
  });

  endpoint(router, R.shopHoursSave, {
    input: shopHoursSchema,
    handle: async (deps, user, input) => {
      const saved = await saveShopHours(deps.db, user.id, input, deps.clock.now());
      // Hours and away change the shop's public call state: its pages see it at their next look.
      forgetCallState(deps.db, user.id);
      return saved;
    },
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
  // Booked video appointments (issue #22).
  endpoint(router, R.appointmentSlots, {
    input: slotsQuerySchema,
    handle: (deps, _user, { sellerId }) => listSlots(deps, sellerId),
  });
  endpoint(router, R.appointmentBook, {
    input: bookAppointmentSchema,
    handle: (deps, user, input) => bookAppointment(deps, user, input),
  });
  endpoint(router, R.appointmentsMine, { handle: (deps, user) => listMyAppointments(deps, user) });
  endpoint(router, R.sellerAppointments, { handle: (deps, user) => listShopAppointments(deps, user) });
  endpoint(router, R.appointmentCancel, {
    input: cancelAppointmentSchema,
    handle: (deps, user, input) => cancelAppointment(deps, user, input),
  });
  endpoint(router, R.appointmentReschedule, {
    input: rescheduleAppointmentSchema,
    handle: (deps, user, input) => rescheduleAppointment(deps, user, input),
  });
  endpoint(router, R.appointmentStart, {
    input: appointmentIdSchema,
    handle: (deps, user, { appointmentId }) => startAppointmentCall(deps, user, appointmentId),
  });
  rawEndpoint(router, R.appointmentCalendar, async (ctx) => {
    const { appointmentId } = parseQuery(ctx, appointmentIdQuerySchema);
    const file = await appointmentCalendar(ctx.deps, ctx.state.user!, appointmentId);
    ctx.set('Content-Disposition', `attachment; filename="${file.filename}"`);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.body = file.body;
  });
  endpoint(router, R.appointmentSettings, {
    handle: (deps, user) => getAppointmentSettings(deps.db, user.id),
  });
  endpoint(router, R.appointmentSettingsSave, {
    input: appointmentSettingsSchema,
    handle: (deps, user, input) => saveAppointmentSettings(deps.db, user.id, input, deps.clock.now()),
  });

  endpoint(router, R.callbackCallMissed, {
    input: callBackMissedSchema,
    handle: (deps, user, { callId }) => callBackMissed(deps, user, callId),
  });
};
