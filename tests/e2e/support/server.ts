import { DEFAULT_PUSH_ENDPOINT_HOSTS } from '../../../api/src/config';
import { startRazorpayDouble, type RazorpayDouble } from '../../../api/src/doubles/razorpay-double';
import { startTwilioDouble } from '../../../api/src/doubles/twilio-double';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

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

/** A production server of the browser tests, with its own data dir and its Razorpay and Twilio doubles. */
export interface E2eServer {
  baseUrl: string;
  twilioUrl: string;
  /** When the server (last) answered /healthz: `Date.now()` in this process. */
  readyAt: number;
  /** Stops the process and starts it again on the same port and data (a freshly started server). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** How long a start may take (migrations and the demo data on an empty database, on a loaded machine). */
const START_TIMEOUT_MS = 110_000;

/**
 * A data dir with the migrations run and the demo data loaded (with `demoPassword`), made once for the run by
 * the e2e global setup: a production server started on an empty dir and stopped again (SIGTERM: the embedded
 * database closes cleanly). Each server of the run then starts on a copy of it (copySeededData) instead of
 * migrating and seeding on its own: 15–35 s of both cores each on a loaded 2-core machine, against well
 * under a second for the copy. The caller removes the dir.
 */
export async function seedDataDir(demoPassword: string): Promise<SeededData> {
  const server = await launchE2eServer(demoPassword, undefined);
  await server.stopKeepingData();
  return { dir: server.dataDir, password: demoPassword };
}

/** A seeded data dir (seedDataDir) and the demo accounts' password in it. */
export interface SeededData {
  dir: string;
  password: string;
}

/** The run's seeded data dir (provided by the e2e global setup), when this process is a test file's. */
function providedSeededData(): SeededData | undefined {
  try {
    return inject('e2eSeededData');
  } catch {
    return undefined; // the global setup itself, or a script outside vitest
  }
}

/**
 * Copies the run's seeded data (seedDataDir) into `dataDir` (empty or missing) when its demo password is
 * `demoPassword`: a server started on it skips the migrations and the demo data and starts in a few seconds.
 * False when there is none (a script outside the suite): the server then seeds on its own, as before.
 */
export function copySeededData(
  demoPassword: string,
  dataDir: string,
  seeded: SeededData | undefined = providedSeededData(),
): boolean {
  if (!seeded || seeded.password !== demoPassword || !fs.existsSync(seeded.dir)) return false;
  fs.cpSync(seeded.dir, dataDir, { recursive: true });
  return true;
}

/**
 * The production server (built PWA + API) on its own data dir, with its own Razorpay and Twilio doubles, the
 * demo data seeded with `demoPassword`: a copy of the run's seeded data dir (copySeededData) when there is one
 * for this password, else seeded at its first start. The global setup starts the suite's shared one; a test that
 * needs a freshly started server (a fresh process: its memory, caches and event streams new) starts its own and
 * restarts it.
 */
export async function startE2eServer(
  demoPassword: string,
  opts: { seeded?: SeededData } = {},
): Promise<E2eServer> {
  const server = await launchE2eServer(demoPassword, opts.seeded ?? providedSeededData());
  return server;
}

async function launchE2eServer(
  demoPassword: string,
  seeded: SeededData | undefined,
): Promise<E2eServer & { dataDir: string; stopKeepingData(): Promise<void> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-e2e-'));
  copySeededData(demoPassword, dataDir, seeded);
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
    SEED_DEMO_PASSWORD: demoPassword,
    // A delivered order is payable at once: the browser tests cannot wait out a return window (the API tests
    // move their clock through it).
    PAYOUT_RETURN_WINDOW_DAYS: '0',
    RAZORPAY_KEY_ID: keys.keyId,
    RAZORPAY_KEY_SECRET: keys.keySecret,
    RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
    RAZORPAY_API_URL: double.url,
    RAZORPAY_CHECKOUT_URL: double.checkoutScriptUrl,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // No balancer in front: a stop (the run's end, a restart) need not wait out the drain for one to notice
    // (5 s by default, longer while a page's polls still arrive). The drain is the resilience tests' subject.
    SHUTDOWN_DRAIN_MS: '0',
    CALL_RING_TIMEOUT_MS: process.env.E2E_CALL_RING_TIMEOUT_MS ?? '30000',
    // The seller test adds a product image by URL from a server on this machine.
    MEDIA_ALLOW_PRIVATE_URLS: 'true',
    // The push opt-in test stands a fake subscription on this host in for a browser push service's.
    PUSH_ENDPOINT_HOSTS: `${DEFAULT_PUSH_ENDPOINT_HOSTS.join(',')},push.example.test`,
  };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const baseUrl = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let output = '';

  const stopProcess = async () => {
    const c = child;
    child = null;
    if (c && c.exitCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
  };
  const stopKeepingData = async () => {
    await stopProcess();
    await double.close();
    await twilio.close();
  };
  const stop = async () => {
    await stopKeepingData();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const launch = async (): Promise<number> => {
    output = '';
    const c = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child = c;
    c.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (c.exitCode !== null) throw new Error(`server exited early:\n${output}`);
      try {
        const res = await fetch(`${baseUrl}/healthz`);
        if (res.ok) return Date.now();
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
      // Asked often: a test of the first second after the start measures from this answer.
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const server = {
    baseUrl,
    twilioUrl: twilio.url,
    readyAt: 0,
    dataDir,
    async restart() {
      await stopProcess();
      server.readyAt = await launch();
    },
    stop,
    stopKeepingData,
  };
  try {
    server.readyAt = await launch();
  } catch (err) {
    await stop();
    throw err;
  }
  return server;
}

/**
 * The demo jeweller (Lakshmi Jewellers) has a phone that takes web push, as a jeweller who switched on "Ring me
 * on this device" has: the shop is `offline` (rung by push) with no app open, so the tests that ring it or tap
 * its call buttons find them. A shop with neither an app open nor push is unreachable and offers a call-back
 * instead (issue #40; tests/e2e/no-dead-ends.test.ts uses another demo shop for that). The subscription points
 * at push.example.test, which never answers: the server logs the failed pushes.
 */
export async function demoJewellerTakesPush(
  baseUrl: string,
  demoPassword: string,
  email = 'seller@nagai.test',
): Promise<void> {
  const headers = { Origin: baseUrl, 'Content-Type': 'application/json' };
  const login = await fetch(`${baseUrl}/_api/auth/login_with_password`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: demoPassword }),
  });
  if (!login.ok) throw new Error(`demo jeweller ${email} sign-in answered ${login.status}`);
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
