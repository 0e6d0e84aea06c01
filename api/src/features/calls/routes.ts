import {
  CALL_MESSAGES,
  callIdQuerySchema,
  endCallSchema,
  initiateCallSchema,
  respondCallSchema,
  sendSignalSchema,
  signalsQuerySchema,
} from '../../../contract/calls';
import { API_ROUTES as R } from '../../../contract/routes';
import type { AppDeps, Feature } from '../../http/context';
import { createVideoProviders } from '../video/providers';
import { issueIceServers } from '../video/service';
import { endpoint, endpointWithSession } from '../../http/endpoint';
import { forgetCallState } from '../schedule/call-state-cache';
import { resumeCall } from './resume';
import {
  endCall,
  getCallStatus,
  initiateCall,
  listCallHistory,
  listSignals,
  pollIncomingCalls,
  readPoll,
  PresenceRecorder,
  PRESENCE_FLUSH_MS,
  respondToCall,
  sendSignal,
  sweepCalls,
  touchStreamingCalls,
  type IncomingCallNotifier,
} from './service';

const providersByConfig = new WeakMap<AppDeps['config'], ReturnType<typeof createVideoProviders>>();
/** The video providers of this configuration (made once). */
function videoProviders(deps: Pick<AppDeps, 'config' | 'clock'>) {
  let providers = providersByConfig.get(deps.config);
  if (!providers) {
    providers = createVideoProviders(deps.config, () => deps.clock.now());
    providersByConfig.set(deps.config, providers);
  }
  return providers;
}

/** How often the presence of streaming sellers and the active calls of streaming users are refreshed. */
export const STREAM_PRESENCE_MS = 5000;

/** How often each process expires unanswered calls even when nobody polls. */
export const CALLS_SWEEP_INTERVAL_MS = 5000;

export interface CallsFeatureOptions {
  /** Rings the seller some other way (web push) when a call is placed; never delays the customer. */
  onIncomingCall?: IncomingCallNotifier;
}

/** The calls area with optional hooks; app.ts registers `callsFeature`, the default without hooks. */
export function createCallsFeature(opts: CallsFeatureOptions = {}): Feature {
  return (router, { deps, background }) => {
    background.every('calls:expire', CALLS_SWEEP_INTERVAL_MS, async () => {
      await sweepCalls(deps);
    });
    // The shop's public call state (polled by its pages) is read afresh after presence turns on or off here.
    const presence = new PresenceRecorder(deps.db, (sellerId) => forgetCallState(deps.db, sellerId));
    background.every('calls:presence', PRESENCE_FLUSH_MS, () => presence.flush(deps.clock.now()));
    // A jeweller's app that opens its event stream is reachable at once, and gone at once when it closes
    // (issue #50): not at the next streams sweep below.
    deps.events.onArrival((u, here) => {
      if (u.role !== 'seller') return;
      const now = deps.clock.now();
      (here ? presence.arrived(u.userId, now) : presence.left(u.userId, now)).catch((err: unknown) =>
        deps.logger.warn({ err, sellerId: u.userId }, 'presence write failed'),
      );
    });
    // A seller whose app holds the event stream open is reachable as surely as one who polls; anyone streaming
    // is on their active call.
    background.every('calls:streams', STREAM_PRESENCE_MS, async () => {
      const now = deps.clock.now();
      const users = deps.events.connectedUsers();
      for (const u of users) if (u.role === 'seller') presence.polled(u.userId, now);
      await touchStreamingCalls(
        deps.db,
        users.map((u) => u.userId),
        now,
      );
    });

    endpoint(router, R.callInitiate, {
      roleMessage: () => CALL_MESSAGES.customersOnly,
      input: initiateCallSchema,
      handle: async (deps, user, { sellerId, productId }) => {
        const placed = await initiateCall(deps, user, sellerId, productId, opts.onIncomingCall);
        // The caller's ring-time ICE servers come with the call: one request fewer before its offer.
        const ice = await issueIceServers(deps, videoProviders(deps), user.id, placed.callId, false).catch(
          () => null,
        );
        return ice?.iceServers.length ? { ...placed, iceServers: ice.iceServers } : placed;
      },
    });

    // The session is read here, with the seller's calls, in one statement (session: 'in-route').
    endpointWithSession(router, R.callIncoming, {
      roleMessage: () => CALL_MESSAGES.sellersOnly,
      read: async (deps, sessionId) => {
        const read = await readPoll(deps, sessionId);
        return {
          session: read.session,
          answer: (user) => pollIncomingCalls(deps, user, read.calls, presence),
        };
      },
    });

    endpoint(router, R.callRespond, {
      input: respondCallSchema,
      handle: (deps, user, { callId, response, answer }) =>
        respondToCall(deps, user, callId, response, answer, (call) => {
          const provider = videoProviders(deps)[call.provider];
          return provider ? provider.issueToken({ callId: call.id, userId: user.id }) : null;
        }),
    });

    // Also the target of navigator.sendBeacon on page unload: a same-origin JSON Blob with the cookie.
    endpoint(router, R.callEnd, {
      input: endCallSchema,
      handle: (deps, user, { callId, reason }) => endCall(deps, user, callId, reason),
    });

    endpoint(router, R.callStatus, {
      input: callIdQuerySchema,
      handle: (deps, user, { callId }) => getCallStatus(deps, user, callId),
    });

    endpoint(router, R.callHistory, { handle: (deps, user) => listCallHistory(deps, user) });

    endpoint(router, R.callResume, {
      input: callIdQuerySchema,
      handle: (deps, user, { callId }) => resumeCall(deps, videoProviders(deps), user, callId),
    });

    endpoint(router, R.callSignal, {
      input: sendSignalSchema,
      handle: (deps, user, input) => sendSignal(deps, user, input),
    });

    endpoint(router, R.callSignals, {
      input: signalsQuerySchema,
      handle: (deps, user, { callId, after }) => listSignals(deps, user, callId, after),
    });
  };
}

/** Routes of the calls area. */
export const callsFeature: Feature = createCallsFeature();
