import fs from 'node:fs';
import path from 'node:path';

/** One file the service worker precaches, with its size on disk. */
export interface PrecacheEntry {
  url: string;
  bytes: number;
}

/**
 * The precache budget: the whole app shell (every page's code, styles, strings and icons) under 1.6 MB on disk.
 * Issue 7 set 1.5 MB while Preact rendered the app; React DOM's client is some 170 KB larger on disk than Preact's
 * compat layer (issue #33), and the code try-on needs only with its model from the server is left out.
 */
export const PRECACHE_BUDGET_BYTES = 1_600_000;

/** Reads the precache manifest that vite-plugin-pwa injected into dist/sw.js, and sizes each entry. */
export function readPrecache(distDir: string): PrecacheEntry[] {
  const sw = fs.readFileSync(path.join(distDir, 'sw.js'), 'utf8');
  const match = /\[\{"revision":[^\]]*\]/.exec(sw) ?? /\[\{"url":[^\]]*\]/.exec(sw);
  if (!match) throw new Error('no precache manifest found in dist/sw.js');
  const entries = JSON.parse(match[0]) as { url: string; revision: string | null }[];
  return entries.map(({ url }) => ({ url, bytes: fs.statSync(path.join(distDir, url)).size }));
}

// The SDK's package description, which survives minification: found in whichever chunk bundles it.
const TWILIO_SDK_MARKER = 'Twilio Video JavaScript';

/** Whether a built file is (or bundles) the Twilio Video SDK, which must load only for a Twilio call. */
export function isTwilioSdk(distDir: string, url: string): boolean {
  if (/twilio-video/i.test(url)) return true;
  if (!url.endsWith('.js')) return false;
  return fs.readFileSync(path.join(distDir, url), 'utf8').includes(TWILIO_SDK_MARKER);
}

/** Files in dist/assets that bundle the Twilio SDK (to show the exclusion is not vacuous). */
export function twilioAssets(distDir: string): string[] {
  const dir = path.join(distDir, 'assets');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => `assets/${f}`)
    .filter((url) => isTwilioSdk(distDir, url));
}
