import { DEFAULT_PUSH_ENDPOINT_HOSTS } from '../../../api/src/config';
import { startRazorpayDouble, type RazorpayDouble } from '../../../api/src/doubles/razorpay-double';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

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

let child: ChildProcess | undefined;
let double: RazorpayDouble | undefined;
let dataDir: string | undefined;

/** Starts the production server (built PWA + API) once for the browser tests, on a fresh data dir. */
export default async function setup(project: TestProject) {
  const port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-e2e-'));
  // Razorpay's test double, here in the test process: the production server talks to it with test-mode keys
  // as it would to Razorpay, and its checkout page pays by UPI (success or failure) or is closed.
  const keys = { keyId: 'rzp_test_e2e', keySecret: 'e2e-key-secret', webhookSecret: 'e2e-webhook-secret' };
  double = await startRazorpayDouble({ ...keys, webhookUrl: `http://127.0.0.1:${port}/webhooks/razorpay` });
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    PAN_ENCRYPTION_KEY: 'e2'.repeat(32),
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
  child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  project.provide('baseUrl', baseUrl);
  return async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child?.once('exit', r));
    }
    await double?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
