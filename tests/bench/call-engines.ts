/**
 * The wait a person sees at the start of a call, for every pair of engines: from the jeweller's tap on Accept
 * until both sides show both videos playing (the other person's and their own). Customer and jeweller each in
 * Chromium (CDP, playwright-core) or Firefox ESR (WebDriver BiDi, puppeteer-core), fake cameras and
 * microphones, the production server on a fresh embedded database, p2p over loopback. Each pair twice: the
 * jeweller picks up at once (as soon as the ringing dialog shows), and after 1.5 s of ringing.
 * Run: npm run build && npm run bench:call-engines  (RUNS=5 per cell by default; PAIRS=CC,FC,CF,FF and
 * RINGS=0,1500 choose the cells, C for Chromium and F for Firefox, customer first; TRACE=1 prints each side's
 * call marks relative to the accept, to see where the time goes; BEFORE_BUILD=<checkout with its own build>
 * alternates each run between this build and that one). A run with a subset of the cells, or against an
 * earlier build, prints its table and leaves docs/benchmarks.md alone.
 *
 * Family in the call (issue #52): after the pairs, GUESTS=C,F (a guest in Chromium, then in Firefox) joins a
 * Chromium customer's call with the Chromium jeweller by the customer's invite link, RUNS times each: from the
 * jeweller's tap on "Admit" until the guest's page plays both the customer's and the jeweller's videos.
 * GUESTS= (empty) leaves it out; PAIRS= (empty) measures the guests only. BEFORE_BUILD alternates the guests' runs
 * between the two builds too.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser as CrBrowser, type Page as CrPage } from 'playwright-core';
import type { Browser as FfBrowser, Page as FfPage } from 'puppeteer-core';
import { clickButton, launchFirefox } from '../e2e/support/firefox';
import { fmt, REPO, DEMO_PASSWORD, startServer, writeSection } from './lib/harness';

const RUNS = Number(process.env.RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SELLER = 'seller@nagai.test';
const PASSWORD = DEMO_PASSWORD;
const RING_MS = 1500;
const TARGET_MS = 700;
const ALL_PAIRS = 'CC,FC,CF,FF';
const PAIRS = process.env.PAIRS ?? ALL_PAIRS;
const RINGS = process.env.RINGS ?? `0,${RING_MS}`;
const TRACE = process.env.TRACE === '1';
const GUESTS = process.env.GUESTS ?? 'C,F';
const FULL = PAIRS === ALL_PAIRS && RINGS === `0,${RING_MS}` && GUESTS === 'C,F' && !process.env.BEFORE_BUILD;
/** Issue #52: Admit → the guest sees both videos, median, on loopback. */
const ADMIT_TARGET_MS = 1500;

/** Each side's call marks (performance.mark 'call:*') as epoch ms, to set against the accept. */
const MARKS = `performance.getEntriesByType('mark').filter((m) => m.name.startsWith('call:')).map((m) => [m.name.slice(5), Math.round(performance.timeOrigin + m.startTime)])`;

type Engine = 'Chromium' | 'Firefox';
type Who = 'customer' | 'jeweller' | 'guest';
const engine = (l: string): Engine => (l === 'F' ? 'Firefox' : 'Chromium');

/**
 * In every page: when the Accept tap reached the page (the event's own time stamp, epoch ms) and when both
 * videos of the call first play (epoch ms). A string: it runs in either engine.
 */
const WATCH = `(() => {
  addEventListener('pointerdown', (e) => {
    const b = e.target instanceof Element && e.target.closest('[role="alertdialog"] button');
    if (b && b.textContent.trim() === 'Accept' && !window.__tapAt) window.__tapAt = performance.timeOrigin + e.timeStamp;
    const admit = e.target instanceof Element && e.target.closest('[data-testid="family-requests"] button');
    if (admit && (admit.getAttribute('aria-label') || '').startsWith('Admit') && !window.__admitAt)
      window.__admitAt = performance.timeOrigin + e.timeStamp;
  }, true);
  const playing = (v) => !!v && v.videoWidth > 0 && v.currentTime > 0 && !v.paused;
  setInterval(() => {
    if (!window.__bothAt &&
        playing(document.querySelector('[data-testid="remote-video"]')) &&
        playing(document.querySelector('[data-testid="local-video"]')))
      window.__bothAt = performance.timeOrigin + performance.now();
    // A guest's page: the others' tiles (the customer's and the jeweller's), both playing.
    const others = [...document.querySelectorAll('[data-testid="family-tile"]:not([data-self]) video')];
    if (!window.__guestBothAt && others.length >= 2 && others.filter(playing).length >= 2)
      window.__guestBothAt = performance.timeOrigin + performance.now();
  }, 5);
})();`;

/** What the bench does with a page, whichever engine drives it. */
interface Side {
  goto(p: string): Promise<void>;
  run<T>(script: string): Promise<T>;
  click(name: string, within?: string): Promise<void>;
  /** Types into the text box labelled `label`. */
  fill(label: string, value: string): Promise<void>;
  close(): Promise<void>;
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { n: s.length, median: q(0.5), min: s[0], max: s[s.length - 1] };
}

async function main() {
  if (!fs.existsSync(path.join(REPO, 'dist', 'index.html')))
    throw new Error('Build the PWA first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-engines-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
  // BEFORE_BUILD=<a checkout with its own dist/ and dist-ssr/ built>: each run is made with this build and with
  // that one in turn (each served by its own checkout), so that a change is measured before against after in one run
  // (on a shared machine the figures drift between runs far more than between neighbours).
  const beforeDir = process.env.BEFORE_BUILD;
  const beforeData = beforeDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-engines-')) : null;
  const before =
    beforeDir && beforeData
      ? // That checkout's own server too (its API and its build), so the before is the whole earlier product.
        await startServer(
          {
            DATA_DIR: beforeData,
            DATABASE_URL: '',
            STATIC_DIR: path.join(beforeDir, 'dist'),
            SSR_DIR: path.join(beforeDir, 'dist-ssr'),
          },
          beforeDir,
        )
      : null;
  const builds = [
    { label: 'this', url: server.url },
    ...(before ? [{ label: 'before', url: before.url }] : []),
  ];
  const cr: CrBrowser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
    ],
  });
  // Each side's Firefox its own browser, as two people on two machines: pages of one headless Firefox share a
  // window, and all but the newest are background tabs, whose timers and painting the browser throttles.
  // Launched only when a chosen pair has Firefox on that side (an idle Firefox still takes CPU).
  const pairs = PAIRS.split(',')
    .filter(Boolean)
    .map((p): [Engine, Engine] => [engine(p[0]), engine(p[1])]);
  const guestEngines = GUESTS.split(',').filter(Boolean).map(engine);
  const ffFor: Partial<Record<Who, FfBrowser>> = {};
  if (pairs.some(([ce]) => ce === 'Firefox')) ffFor.customer = await launchFirefox();
  if (pairs.some(([, je]) => je === 'Firefox')) ffFor.jeweller = await launchFirefox();
  if (guestEngines.includes('Firefox')) ffFor.guest = await launchFirefox();

  async function side(engine: Engine, who: Who, origin: string): Promise<Side> {
    if (engine === 'Chromium') {
      const c = await cr.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
      await c.grantPermissions(['camera', 'microphone']);
      await c.addInitScript({ content: WATCH });
      const page: CrPage = await c.newPage();
      return {
        goto: async (p) => void (await page.goto(p)),
        run: (script) => page.evaluate(script),
        click: (name, within) =>
          (within ? page.locator(within) : page).getByRole('button', { name, exact: true }).click(),
        fill: (label, value) => page.getByRole('textbox', { name: label }).fill(value),
        close: () => c.close(),
      };
    }
    const c = await ffFor[who]!.createBrowserContext();
    const page: FfPage = await c.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.evaluateOnNewDocument(WATCH);
    return {
      goto: async (p) => void (await page.goto(`${origin}${p}`)),
      run: (script) => page.evaluate(script) as Promise<never>,
      click: (name, within) => clickButton(page, name, { within, timeout: 15_000 }),
      fill: async (label, value) => {
        // By the label's `for` (BiDi has no accessibility-tree queries).
        const id = await page.waitForFunction(
          (l) =>
            [...document.querySelectorAll('label')].find((x) => x.textContent?.trim() === l)?.htmlFor || null,
          { polling: 50, timeout: 15_000 },
          label,
        );
        const input = await page.$(`[id="${String(await id.jsonValue())}"]`);
        if (!input) throw new Error(`no text box labelled ${label}`);
        await input.type(value);
      },
      close: () => c.close(),
    };
  }

  const post = (s: Side, p: string, body: unknown) =>
    s.run<number>(
      `fetch(${JSON.stringify(p)}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(JSON.stringify(body))} }).then((r) => r.status)`,
    );
  const until = async (s: Side, script: string, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await s.run<unknown>(script);
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out: ${script.slice(0, 80)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  /** The customer's live calls ended (so the shop is free for the next run). */
  const hangUp = (c: Side) =>
    c
      .run(
        `fetch('/_api/calls/history').then((r) => r.json()).then(async (h) => { for (const x of (Array.isArray(h) ? h : h.calls ?? [])) if (['pending','ringing','active'].includes(x.status)) await fetch('/_api/call/end', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ callId: x.callId }) }); })`,
      )
      .catch(() => undefined);

  /**
   * The demo jeweller signed in with the app open, a new customer calls the shop, the jeweller accepts after
   * `ring` ms: when the Accept tap reached the jeweller's page, the driver's time before it, and when each side
   * (jeweller, customer) first played both videos (epoch ms).
   */
  async function placeAndAccept(j: Side, c: Side, i: number, ring: number) {
    await j.goto('/login');
    if ((await post(j, '/_api/auth/login_with_password', { email: SELLER, password: PASSWORD })) !== 200)
      throw new Error('seller login');
    await j.goto('/seller/history');
    await j.click('Tap to enable call ringing').catch(() => undefined);
    await c.goto('/login');
    const email = `bench-${Date.now()}-${i}@example.test`;
    const reg = { email, password: 'Secret#2026', displayName: `Bench ${i}` };
    if ((await post(c, '/_api/auth/register_with_password', reg)) !== 201) throw new Error('register');
    await c.goto('/lakshmi-jewellers');
    await c.click('Video Call');
    await until(j, `!!document.querySelector('[role="alertdialog"]')`, 10_000);
    if (ring) await new Promise((r) => setTimeout(r, ring));
    const driverAt = Date.now();
    await j.click('Accept', '[role="alertdialog"]');
    // From the tap as it reached the jeweller's page: the driver's own work before it (finding the
    // button, waiting for it to be still, 0.1–0.9 s on a busy machine) is not a person's wait.
    const acceptedAt = (await until(j, 'window.__tapAt', 5_000)) as number;
    const [a, b] = (await Promise.all([
      until(j, 'window.__bothAt', 20_000),
      until(c, 'window.__bothAt', 20_000),
    ])) as [number, number];
    return { acceptedAt, driverMs: acceptedAt - driverAt, a, b };
  }

  const results: {
    build: string;
    customer: Engine;
    jeweller: Engine;
    ring: number;
    both: number[];
    driver: number[];
    failures: number;
  }[] = [];
  const family: { build: string; guest: Engine; admit: number[]; failures: number }[] = [];
  const loadBefore = os.loadavg().map((x) => x.toFixed(1));
  try {
    for (const ring of RINGS.split(',').map(Number)) {
      for (const [ce, je] of pairs) {
        const cells = builds.map((b) => ({
          build: b.label,
          url: b.url,
          customer: ce,
          jeweller: je,
          ring,
          both: [] as number[],
          driver: [] as number[],
          failures: 0,
        }));
        results.push(...cells);
        for (let i = 0; i < RUNS; i++)
          for (const cell of cells) {
            const j = await side(je, 'jeweller', cell.url);
            const c = await side(ce, 'customer', cell.url);
            try {
              const { acceptedAt, driverMs, a, b } = await placeAndAccept(j, c, i, ring);
              cell.driver.push(driverMs);
              const ms = Math.max(a, b) - acceptedAt;
              cell.both.push(ms);
              console.log(
                `${ce} customer → ${je} jeweller, ring ${ring} ms, ${cell.build} build: ${fmt(ms, 0)} ms`,
              );
              if (TRACE) {
                for (const [who, s, at] of [
                  ['customer', c, b],
                  ['jeweller', j, a],
                ] as const) {
                  const marks = await s.run<[string, number][]>(MARKS);
                  const line = [...marks, ['both-playing', at] as [string, number]]
                    .sort((x, y) => x[1] - y[1])
                    .map(([n, t]) => `${n}@${t - acceptedAt}`)
                    .join(' ');
                  console.log(`  ${who}: ${line}`);
                }
              }
            } catch (err) {
              cell.failures++;
              console.error(`${ce} → ${je} run ${i + 1} failed:`, (err as Error).message.split('\n')[0]);
            } finally {
              await hangUp(c);
              await c.close();
              await j.close();
            }
          }
      }
    }
    // Family in the call: a guest joins by the customer's link; Admit → the guest plays both videos. With
    // BEFORE_BUILD, each run with this build and with that one in turn.
    for (const ge of guestEngines) {
      const rows = builds.map((b) => ({
        build: b.label,
        url: b.url,
        guest: ge,
        admit: [] as number[],
        failures: 0,
      }));
      family.push(...rows);
      for (let i = 0; i < RUNS; i++)
        for (const row of rows) {
          const j = await side('Chromium', 'jeweller', row.url);
          const c = await side('Chromium', 'customer', row.url);
          const g = await side(ge, 'guest', row.url);
          try {
            await placeAndAccept(j, c, i, RING_MS);
            await c.click('Invite family');
            const link = (await until(
              c,
              `document.querySelector('[data-testid="family-link"]')?.value`,
              10_000,
            )) as string;
            await c.click('Close');
            const name = `Amma ${i + 1}`;
            await g.goto(new URL(link).pathname);
            await g.fill('Your name', name);
            await g.click('Ask to join');
            await until(g, `!!document.querySelector('[data-testid="guest-waiting"]')`, 10_000);
            await j.click(`Admit ${name}`, '[data-testid="family-requests"]');
            const admitAt = (await until(j, 'window.__admitAt', 10_000)) as number;
            const seen = (await until(g, 'window.__guestBothAt', 20_000)) as number;
            row.admit.push(seen - admitAt);
            if (TRACE)
              for (const [who, s] of [
                ['guest', g],
                ['customer', c],
                ['jeweller', j],
              ] as const) {
                const marks = await s.run<[string, number][]>(MARKS);
                const line = marks
                  .filter(([n, t]) => n.startsWith('family') && t >= admitAt - 5_000)
                  .sort((x, y) => x[1] - y[1])
                  .map(([n, t]) => `${n}@${t - admitAt}`)
                  .join(' ');
                console.log(`  ${who}: ${line}${who === 'guest' ? ` both-playing@${seen - admitAt}` : ''}`);
              }
            console.log(`${ge} guest, ${row.build} build: Admit → both videos ${fmt(seen - admitAt, 0)} ms`);
          } catch (err) {
            row.failures++;
            console.error(`${ge} guest run ${i + 1} failed:`, (err as Error).message.split('\n')[0]);
          } finally {
            await hangUp(c);
            await g.close();
            await c.close();
            await j.close();
          }
        }
    }
  } finally {
    await cr.close();
    await ffFor.customer?.close();
    await ffFor.jeweller?.close();
    await ffFor.guest?.close();
    await server.stop();
    await before?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (beforeData) fs.rmSync(beforeData, { recursive: true, force: true });
  }

  const rows = results.map((r) => {
    const s = stats(r.both);
    const met = s.n && s.median <= TARGET_MS ? 'yes' : 'no';
    const d = stats(r.driver);
    const build = before ? ` ${r.build} |` : '';
    return `|${build} ${r.customer} | ${r.jeweller} | ${r.ring ? `after ${r.ring / 1000} s` : 'at once'} | ${s.n} (${r.failures} failed) | ${fmt(s.median, 0)} | ${fmt(s.min, 0)} | ${fmt(s.max, 0)} | ${met} | ${fmt(d.median, 0)} |`;
  });
  const md = `## call-engines

Command: \`npm run build && npm run bench:call-engines\` (RUNS=${RUNS} per row). The Accept tap (the time stamp of its
pointer event in the jeweller's page) → both sides show both videos
playing (the other person's and their own: \`videoWidth > 0\`, \`currentTime > 0\`, not paused), the later of the two
sides, as a person sees the call begin. Customer and jeweller in Debian's Chromium (CDP) or Firefox ESR (WebDriver
BiDi), fake cameras and microphones, the production server on a fresh embedded PGlite database, p2p over loopback.
Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores; load average ${loadBefore.join(' ')} before →
${os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(' ')} after (1/5/15 min): on a machine shared with other work the figures are upper bounds.

|${before ? ' build |' : ''} customer | jeweller | picks up | runs | median ms | min | max | median ≤ ${TARGET_MS} ms | driver ms |
|${before ? ' --- |' : ''} --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

While it rings the caller captures its camera, fetches its relay credentials, makes its peer connection and its
offer (candidates gathered); the jeweller's browser captures its camera and makes its answering peer connection.
After the accept: the caller hears of it on the event stream, the offer goes out, the jeweller answers, ICE and
DTLS, the first frames. "driver ms" is the median time the test driver took from its click call until the tap
reached the page (finding the button, waiting for it to hold still): not part of the figure, as it is not part of
a person's wait.
${
  family.length
    ? `
### Family in the call: the jeweller's Admit → the guest sees both videos (issue #52)

A Chromium customer in a call with the Chromium jeweller (picked up after ${RING_MS / 1000} s) invites a guest
by link; the guest opens it, gives a name and asks to join; from the jeweller's tap on "Admit" (its pointer event's
time stamp) until the guest's page plays both the customer's and the jeweller's videos (p2p mesh, loopback).

|${before ? ' build |' : ''} guest | runs | median ms | min | max | median ≤ ${ADMIT_TARGET_MS} ms |
|${before ? ' --- |' : ''} --- | --- | --- | --- | --- | --- |
${family
  .map((r) => {
    const s = stats(r.admit);
    return `|${before ? ` ${r.build} |` : ''} ${r.guest} | ${s.n} (${r.failures} failed) | ${fmt(s.median, 0)} | ${fmt(s.min, 0)} | ${fmt(s.max, 0)} | ${s.n && s.median <= ADMIT_TARGET_MS ? 'yes' : 'no'} |`;
  })
  .join('\n')}
`
    : ''
}`;
  if (FULL) writeSection('call-engines', md);
  console.log(md);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
