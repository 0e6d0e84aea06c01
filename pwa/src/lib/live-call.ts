import type { CallResumeResponse } from '../../../api/contract/video';
import { API_ROUTES } from '../../../api/contract/routes';
import { api } from './api-client';
import {
  REMEMBERED_LIVE_CALL as REMEMBERED,
  namedLiveCall as named,
  takeEarlyLiveCall,
  type NamedLiveCall,
} from './live-call-early';

type Named = NamedLiveCall;

/** What start-up learnt of the reader's live call: its id, and the one request that resumes it. */
export interface LiveCallStart extends Named {
  resume: Promise<CallResumeResponse> | null;
  /** The camera and microphone, started with the resume (null: not started). */
  capture: Promise<MediaStream> | null;
}

let start: LiveCallStart | undefined;

/**
 * At start-up (src/main.tsx, before React renders): the live call the server's page names, or this tab
 * remembers, is asked for at once — its status, video token and signals in one request (GET
 * /_api/call/resume) — while the app's modules load. Returns the call's id (null: none known).
 */
export function resumeLiveCall(): number | null {
  if (start) return start.callId;
  const n = named();
  if (!n || typeof n.userId !== 'number') return null;
  // Started by the entry module already (lib/live-call-early.ts), else now.
  const first = n.callId === null ? null : takeEarlyLiveCall(n.callId);
  const resume =
    n.callId === null
      ? null
      : ((first?.resume as Promise<CallResumeResponse> | undefined) ??
        api.call(API_ROUTES.callResume, { callId: n.callId }));
  resume?.catch(() => undefined);
  start = { userId: n.userId, callId: n.callId, resume, capture: first?.capture ?? null };
  return n.callId;
}

/** Start-up is resuming a live call of this user (its answer not taken yet). */
export function resumingLiveCall(userId: number): boolean {
  return start?.userId === userId && start.resume !== null;
}

/** What start-up learnt for this user, taken once (undefined: nothing known, or another user's). */
export function takeLiveCallStart(userId: number): LiveCallStart | undefined {
  const taken = start;
  start = undefined;
  if (taken?.userId === userId) return taken;
  void taken?.capture?.then(
    (s) => s.getTracks().forEach((t) => t.stop()),
    () => undefined,
  );
  return undefined;
}

/** This tab's live call (null: none), remembered for a reload. */
export function rememberLiveCall(userId: number, callId: number | null): void {
  try {
    if (callId === null) sessionStorage.removeItem(REMEMBERED);
    else sessionStorage.setItem(REMEMBERED, JSON.stringify({ userId, callId } satisfies Named));
  } catch {
    /* storage off: a reload asks for the history */
  }
}
