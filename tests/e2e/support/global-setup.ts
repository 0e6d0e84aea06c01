import { DEFAULT_PUSH_ENDPOINT_HOSTS } from '../../../api/src/config';
import { startRazorpayDouble, type RazorpayDouble } from '../../../api/src/doubles/razorpay-double';
import { startTwilioDouble } from '../../../api/src/doubles/twilio-double';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH, chromiumArgs } from './chromium';

/**
 * The demo accounts' password on the browser tests' servers: production refuses the published one (docs/security.md,
 * "Demo accounts in production"), so each run names a fresh one (SEED_DEMO_PASSWORD) and the tests read it with
 * inject('demoPassword') (support/accounts.ts).
 */
const DEMO_PASSWORD = crypto.randomBytes(12).toString('base64url');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

interface E2eServer {
  baseUrl: string;
  twilioUrl: string;
  stop(): Promise<void>;
}

/** The production server (built PWA + API) on a fresh data dir, with its own Razorpay double. */
async function startE2eServer(): Promise<E2eServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-e2e-'));
  // Razorpay's test double, here in the test process: the production server talks to it with test-mode keys
  // as it would to Razorpay, and its checkout page pays by UPI (success or failure) or is closed.
  const keys = { keyId: 'rzp_test_e2e', keySecret: 'e2e-key-secret', webhookSecret: 'e2e-webhook-secret' };
  const double: RazorpayDouble = await startRazorpayDouble({
    ...keys,
    webhookUrl: `http://127.0.0.1:${port}/webhooks/razorpay`,
  });
  // Twilio's test double too (issue #37): mobile sign-in codes and SMS notices; tests read them from it.
  const twilio = await startTwilioDouble({
    accountSid: 'ACe2e',
    authToken: 'e2e-auth-token',
    verifyServiceSid: 'VAe2e',
  });
  const env = {
    ...process.env,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_VERIFY_SERVICE_SID: twilio.verifyServiceSid,
    TWILIO_MESSAGING_SERVICE_SID: 'MGe2e',
    // A WhatsApp sender: notices by WhatsApp are offered (Twilio's sandbox number).
    TWILIO_WHATSAPP_FROM: 'whatsapp:+14155238886',
    TWILIO_VERIFY_URL: twilio.url,
    TWILIO_API_URL: twilio.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    PAN_ENCRYPTION_KEY: 'e2'.repeat(32),
    // The demo shops and accounts, asked for by name as production requires, with this run's password.
    SEED_DEMO: 'true',
    SEED_DEMO_PASSWORD: DEMO_PASSWORD,
    // A delivered order is payable at once: the browser tests cannot wait out a return window (the API tests
    // move their clock through it).
    PAYOUT_RETURN_WINDOW_DAYS: '0',
    RAZORPAY_KEY_ID: keys.keyId,
    RAZORPAY_KEY_SECRET: keys.keySecret,
    RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
    RAZORPAY_API_URL: double.url,
    RAZORPAY_CHECKOUT_URL: double.checkoutScriptUrl,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    CALL_RING_TIMEOUT_MS: process.env.E2E_CALL_RING_TIMEOUT_MS ?? '30000',
    // The seller test adds a product image by URL from a server on this machine.
    MEDIA_ALLOW_PRIVATE_URLS: 'true',
    // The push opt-in test stands a fake subscription on this host in for a browser push service's.
    PUSH_ENDPOINT_HOSTS: `${DEFAULT_PUSH_ENDPOINT_HOSTS.join(',')},push.example.test`,
  };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await double.close();
    await twilio.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited early:\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    await demoJewellerTakesPush(baseUrl);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, twilioUrl: twilio.url, stop };
}

/**
 * The demo jeweller (Lakshmi Jewellers) has a phone that takes web push, as a jeweller who switched on "Ring me
 * on this device" has: the shop is `offline` (rung by push) with no app open, so the tests that ring it or tap
 * its call buttons find them. A shop with neither an app open nor push is unreachable and offers a call-back
 * instead (issue #40; tests/e2e/no-dead-ends.test.ts uses another demo shop for that). The subscription points
 * at push.example.test, which never answers: the server logs the failed pushes.
 */
async function demoJewellerTakesPush(baseUrl: string): Promise<void> {
  const headers = { Origin: baseUrl, 'Content-Type': 'application/json' };
  const login = await fetch(`${baseUrl}/_api/auth/login_with_password`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: 'seller@nagai.test', password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`demo jeweller sign-in answered ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const sub = await fetch(`${baseUrl}/_api/push/subscribe`, {
    method: 'POST',
    headers: { ...headers, Cookie: cookie },
    body: JSON.stringify({
      endpoint: `https://push.example.test/send/demo-jeweller-${crypto.randomBytes(6).toString('hex')}`,
      expirationTime: null,
      keys: {
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: crypto.randomBytes(16).toString('base64url'),
      },
      locale: 'en',
    }),
  });
  if (sub.status !== 201) throw new Error(`demo jeweller push subscription answered ${sub.status}`);
}

/**
 * Starts one production server for each worker of the browser tests' project (one while its files run one at
 * a time): a test file talks only to its worker's server (support/browser.ts), so the files of one server
 * run one after another, on their own database, as on one machine.
 */
export default async function setup(project: TestProject) {
  // fileParallelism: false resolves to one worker.
  const count = Math.max(1, project.config.maxWorkers ?? project.globalConfig.maxWorkers ?? 1);
  const started = await Promise.allSettled(Array.from({ length: count }, () => startE2eServer()));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.stop()));
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
    throw err;
  }
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
  }
}
