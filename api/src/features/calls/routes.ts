import type { Feature } from '../../app';
import {
  CALL_MESSAGES,
  callIdQuerySchema,
  endCallSchema,
  initiateCallSchema,
  respondCallSchema,
  sendSignalSchema,
  signalsQuerySchema,
} from '../../../contract/calls';
import { currentUser, requireAuth, requireRole } from '../../http/auth';
import { parseBody, parseQuery } from '../../http/validate';
import { adoptSession, sessionIdOf } from '../../http/session';
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
  type IncomingCallNotifier,
} from './service';

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
    const presence = new PresenceRecorder(deps.db);
    background.every('calls:presence', PRESENCE_FLUSH_MS, () => presence.flush(deps.clock.now()));

    router.post(
      '/_api/call/initiate',
      requireRole(['customer'], () => CALL_MESSAGES.customersOnly),
      async (ctx) => {
        const { sellerId } = parseBody(ctx, initiateCallSchema);
        ctx.status = 201;
        ctx.body = await initiateCall(ctx.deps, currentUser(ctx), sellerId, opts.onIncomingCall);
      },
    );

    // The session is read here, with the seller's calls, in one statement (SESSION_IN_ROUTE).
    const sellersOnly = requireRole(['seller'], () => CALL_MESSAGES.sellersOnly);
    router.get('/_api/call/incoming', async (ctx) => {
      const id = sessionIdOf(ctx);
      const read = id ? await readPoll(ctx.deps, id) : undefined;
      if (id) await adoptSession(ctx, id, read?.session);
      await sellersOnly(ctx, async () => {
        ctx.body = await pollIncomingCalls(ctx.deps, currentUser(ctx), read?.calls ?? [], presence);
      });
    });

    router.post('/_api/call/respond', requireAuth(), async (ctx) => {
      const { callId, response } = parseBody(ctx, respondCallSchema);
      ctx.body = await respondToCall(ctx.deps, currentUser(ctx), callId, response);
    });

    // Also the target of navigator.sendBeacon on page unload: a same-origin JSON Blob with the cookie.
    router.post('/_api/call/end', requireAuth(), async (ctx) => {
      const { callId } = parseBody(ctx, endCallSchema);
      ctx.body = await endCall(ctx.deps, currentUser(ctx), callId);
    });

    router.get('/_api/call/status', requireAuth(), async (ctx) => {
      const { callId } = parseQuery(ctx, callIdQuerySchema);
      ctx.body = await getCallStatus(ctx.deps, currentUser(ctx), callId);
    });

    router.get('/_api/calls/history', requireAuth(), async (ctx) => {
      ctx.body = await listCallHistory(ctx.deps, currentUser(ctx));
    });

    router.post('/_api/call/signal', requireAuth(), async (ctx) => {
      const input = parseBody(ctx, sendSignalSchema);
      ctx.status = 201;
      ctx.body = await sendSignal(ctx.deps, currentUser(ctx), input);
    });

    router.get('/_api/call/signals', requireAuth(), async (ctx) => {
      const { callId, after } = parseQuery(ctx, signalsQuerySchema);
      ctx.body = await listSignals(ctx.deps, currentUser(ctx), callId, after);
    });
  };
}

/** Routes of the calls area. */
export const callsFeature: Feature = createCallsFeature();
