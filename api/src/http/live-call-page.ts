import fs from 'node:fs';
import path from 'node:path';
import { liveCallIdOf } from '../features/calls/resume';
import type { AppContext } from './context';
import { loadSession } from './session';

/** The element of a signed-in reader's page naming their live call (read by pwa/src/lib/live-call.ts). */
export const LIVE_CALL_ELEMENT_ID = 'nagai-live-call';

/**
 * The call screen's modules in the build (`call-layer`, `call-modal`; their names carry a hash), preloaded
 * by a page that has a live call. Read once; none without a build.
 */
export function callScreenChunks(root: string): string[] {
  try {
    return fs
      .readdirSync(path.join(root, 'assets'))
      .filter((f) => /^call-(layer|modal)-[\w-]+\.js$/.test(f))
      .sort()
      .map((f) => `/assets/${f}`);
  } catch {
    return [];
  }
}

/**
 * A signed-in reader's page names their live call (issue #50: back after a reload without a history request
 * first): `{"userId":…,"callId":…}` in a JSON script element (`callId` null: no live call), and with a live
 * call, modulepreload links for the call screen's modules, fetched alongside the app's own. Without a valid
 * session, or if the lookup fails, the page is the plain shell (the app then asks for its history).
 */
export async function withLiveCall(ctx: AppContext, template: string, chunks: string[]): Promise<string> {
  try {
    if (!ctx.state.user) await loadSession(ctx);
    const user = ctx.state.user;
    if (!user || user.role === 'admin') return template;
    const { db, clock, config } = ctx.deps;
    const callId = await liveCallIdOf(db, user.id, clock.now(), config.callRingTimeoutMs);
    const hint = JSON.stringify({ userId: user.id, callId });
    const links =
      callId === null
        ? ''
        : chunks.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join('');
    return template
      .replace('</head>', () => `${links}</head>`)
      .replace(
        '<div id="root"></div>',
        () =>
          `<script type="application/json" id="${LIVE_CALL_ELEMENT_ID}">${hint}</script><div id="root"></div>`,
      );
  } catch (err) {
    ctx.deps.logger.warn({ err }, 'live call not named in the page');
    return template;
  }
}
