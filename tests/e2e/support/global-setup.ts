import crypto from 'node:crypto';
import fs from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, chromiumArgs } from './chromium';
import {
  demoJewellerTakesPush,
  seedDataDir,
  startE2eServer,
  type E2eServer,
  type SeededData,
} from './server';

/**
 * The demo accounts' password on the browser tests' servers: production refuses the published one (docs/security.md,
 * "Demo accounts in production"), so each run names a fresh one (SEED_DEMO_PASSWORD) and the tests read it with
 * inject('demoPassword') (support/accounts.ts).
 */
const DEMO_PASSWORD = crypto.randomBytes(12).toString('base64url');

/** One shared server, on a copy of the seeded data: the demo jeweller rung by push (demoJewellerTakesPush). */
async function startShared(seeded: SeededData): Promise<E2eServer> {
  const server = await startE2eServer(DEMO_PASSWORD, { seeded });
  try {
    await demoJewellerTakesPush(server.baseUrl, DEMO_PASSWORD);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/**
 * Starts one production server for each worker of the browser tests' project (one while its files run one at
 * a time): a test file talks only to its worker's server (support/browser.ts), so the files of one server
 * run one after another, on their own database, as on one machine.
 */
export default async function setup(project: TestProject) {
  // The demo data, migrated and seeded once for the run: every server of the run (these, and those the files
  // that need a freshly started one start) starts on a copy of it (support/server.ts seedDataDir).
  const seeded = await seedDataDir(DEMO_PASSWORD);
  const removeSeeded = () => fs.rmSync(seeded.dir, { recursive: true, force: true });
  // fileParallelism: false resolves to one worker.
  const count = Math.max(1, project.config.maxWorkers ?? project.globalConfig.maxWorkers ?? 1);
  const started = await Promise.allSettled(Array.from({ length: count }, () => startShared(seeded)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
    removeSeeded();
    throw failed.reason;
  }
  // One Chromium for every file of the run (support/browser.ts launchBrowser): each file opens its own
  // contexts in it instead of starting a browser of its own (38 files did, a second or two of both cores each).
  let browserServer: BrowserServer;
  try {
    browserServer = await chromium.launchServer({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: chromiumArgs(),
    });
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    removeSeeded();
    throw err;
  }
  project.provide('e2eSeededData', seeded);
  project.provide('chromiumEndpoint', browserServer.wsEndpoint());
  project.provide(
    'baseUrls',
    servers.map((s) => s.baseUrl),
  );
  project.provide('demoPassword', DEMO_PASSWORD);
  project.provide(
    'twilioUrls',
    servers.map((s) => s.twilioUrl),
  );
  return async () => {
    await Promise.all([browserServer.close(), ...servers.map((s) => s.stop())]);
    removeSeeded();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrls: string[];
    /** Each server's Twilio test double (its JSON at /_double/codes and /_double/messages). */
    twilioUrls: string[];
    /** The shared headless Chromium of the run (playwright's browser server), for chromium.connect. */
    chromiumEndpoint: string;
    /** The demo accounts' password on these servers (SEED_DEMO_PASSWORD, fresh for each run). */
    demoPassword: string;
    /** The run's data dir with the demo data loaded (support/server.ts seedDataDir), copied for each server. */
    e2eSeededData: import('./server').SeededData;
  }
}
