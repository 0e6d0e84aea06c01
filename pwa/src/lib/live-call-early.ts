/**
 * The first thing start-up does for a page reloaded during a call (issue #50, "Back after a reload"): from the
 * app's entry module (src/main.tsx), before the rest of the app's modules are even requested, the live call
 * that the server's page names (or this tab remembers) is asked for — status, video token and signals in one
 * `GET /_api/call/resume` — and the camera and microphone start. The call layer takes both when it loads
 * (lib/live-call.ts). Kept small and free of the app's other modules: it is part of the entry chunk.
 */

/** The element of the server's page naming the reader's live call (api/src/http/live-call-page.ts). */
const ELEMENT_ID = 'nagai-live-call';
/** This tab's live call, kept across a reload (the tab's own storage: the page may come from the service worker). */
export const REMEMBERED_LIVE_CALL = 'nagai:live-call';

/** The camera and microphone of a call (features/video/lib/local-media.ts captures with the same). */
export const LOCAL_MEDIA_CONSTRAINTS: MediaStreamConstraints = {
  audio: true,
  video: { width: 640, height: 480 },
};

export interface NamedLiveCall {
  userId: number;
  /** null: the server's page says this reader has no live call. */
  callId: number | null;
}

/** The live call the server's page names, or this tab remembers (undefined: neither says). */
export function namedLiveCall(): NamedLiveCall | undefined {
  const el = document.getElementById(ELEMENT_ID);
  if (el?.textContent) {
    try {
      return JSON.parse(el.textContent) as NamedLiveCall;
    } catch {
      /* the tab's own note below */
    }
  }
  try {
    const kept = sessionStorage.getItem(REMEMBERED_LIVE_CALL);
    if (kept) return JSON.parse(kept) as NamedLiveCall;
  } catch {
    /* storage off: the app asks for its history */
  }
  return undefined;
}

/** What the entry module started for a named live call. */
export interface EarlyLiveCall {
  callId: number;
  /** The resume's answer body; rejects when it is not a 2xx (the call over, not this reader's) or fails. */
  resume: Promise<unknown>;
  /** The capture for the call (null where the browser has none). */
  capture: Promise<MediaStream> | null;
}

let early: EarlyLiveCall | null = null;

/** Called once, first thing (src/main.tsx). */
export function startLiveCallEarly(): void {
  const n = namedLiveCall();
  if (!n || typeof n.userId !== 'number' || typeof n.callId !== 'number') return;
  const callId = n.callId;
  const resume = fetch(`/_api/call/resume?callId=${callId}`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  }).then(async (res) => {
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok || !body) throw new Error(`resume answered ${res.status}`);
    return body;
  });
  resume.catch(() => undefined);
  const capture = navigator.mediaDevices?.getUserMedia
    ? navigator.mediaDevices.getUserMedia(LOCAL_MEDIA_CONSTRAINTS)
    : null;
  capture?.catch(() => undefined);
  early = { callId, resume, capture };
}

/** What the entry module started for `callId`, taken once (null: nothing, or for another call). */
export function takeEarlyLiveCall(callId: number): EarlyLiveCall | null {
  const taken = early;
  early = null;
  if (taken && taken.callId !== callId) {
    void taken.capture?.then(
      (s) => s.getTracks().forEach((t) => t.stop()),
      () => undefined,
    );
    return null;
  }
  return taken;
}
