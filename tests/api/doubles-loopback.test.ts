import net from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackHost } from '../../api/src/doubles/loopback';
import { startTestApi, type TestApi } from '../support/api';

/**
 * Issue #46, item 12: the Razorpay and Twilio test doubles (development without keys) hold payments, sign-in codes
 * and messages in the clear. With HOST=0.0.0.0 (the app reachable from a phone on the LAN) they used to listen on
 * every interface too; they listen on loopback only.
 */

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** This machine's own addresses that are not loopback (where the network reaches it). */
const networkAddresses = Object.values(os.networkInterfaces())
  .flat()
  .filter((a): a is os.NetworkInterfaceInfo => !!a && !a.internal && a.family === 'IPv4')
  .map((a) => a.address);

let api: TestApi;
beforeAll(async () => {
  // The app configured to listen on every interface, as docs/operations.md's HOST=0.0.0.0.
  api = await startTestApi({ env: { HOST: '0.0.0.0' } });
});
afterAll(async () => api?.close());

describe('test doubles listen on loopback only (issue #46, item 12)', () => {
  it('with HOST=0.0.0.0 the Razorpay and Twilio doubles bind 127.0.0.1, unreachable on the network', async () => {
    expect(api.config.host).toBe('0.0.0.0');
    const razorpay = await api.handle.deps.payments?.double();
    const twilio = await api.handle.deps.sms?.double();
    if (!razorpay || !twilio) throw new Error('the test configuration starts both doubles');
    for (const double of [razorpay, twilio]) {
      expect(double.address).toBe('127.0.0.1');
      const port = Number(new URL(double.url).port);
      expect(new URL(double.url).hostname).toBe('127.0.0.1');
      expect(await connects('127.0.0.1', port)).toBe(true);
      for (const address of networkAddresses) expect(await connects(address, port), address).toBe(false);
    }
    // Its code list still answers where the developer's machine reaches it.
    expect((await fetch(`${twilio.url}/`)).status).toBe(200);
  });

  it('keeps a loopback HOST and turns any other into 127.0.0.1', () => {
    expect(loopbackHost(undefined)).toBe('127.0.0.1');
    expect(loopbackHost('127.0.0.1')).toBe('127.0.0.1');
    expect(loopbackHost('127.0.0.2')).toBe('127.0.0.2');
    expect(loopbackHost('::1')).toBe('::1');
    for (const host of ['0.0.0.0', '::', '192.0.2.2', '10.0.0.5', 'nagai.example', 'localhost'])
      expect(loopbackHost(host), host).toBe('127.0.0.1');
  });
});
