import type { CallResumeResponse } from '../../../api/contract/video';
import { API_ROUTES } from '../../../api/contract/routes';
import { api } from './api-client';

/** The element of the server's page naming the reader's live call (api/src/http/live-call-page.ts). */
const ELEMENT_ID = 'nagai-live-call';
/** This tab's live call, kept across a reload (the tab's own storage: the page may come from the service worker). */
const REMEMBERED = 'nagai:live-call';

interface Named {
  userId: number;
  /** null: the server's page says this reader has no live call. */
  callId: number | null;
}

/** What start-up learnt of the reader's live call: its id, and the one request that resumes it. */
export interface LiveCallStart extends Named {
  resume: Promise<CallResumeResponse> | null;
}

let start: LiveCallStart | undefined;

function named(): Named | undefined {
  const el = document.getElementById(ELEMENT_ID);
  if (el?.textContent) {
    try {
      return JSON.parse(el.textContent) as Named;
    } catch {
      /* the tab's own note below */
    }
  }
  try {
    const kept = sessionStorage.getItem(REMEMBERED);
    if (kept) return JSON.parse(kept) as Named;
  } catch {
    /* storage off: the app asks for its history */
  }
  return undefined;
}

/**
 * At start-up (src/main.tsx, before React renders): the live call the server's page names, or this tab
 * remembers, is asked for at once — its status, video token and signals in one request (GET
 * /_api/call/resume) — while the app's modules load. Returns the call's id (null: none known).
 */
export function resumeLiveCall(): number | null {
  if (start) return start.callId;
  const n = named();
  if (!n || typeof n.userId !== 'number') return null;
  const resume = n.callId === null ? null : api.call(API_ROUTES.callResume, { callId: n.callId });
  resume?.catch(() => undefined);
  start = { userId: n.userId, callId: n.callId, resume };
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
  return taken?.userId === userId ? taken : undefined;
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
