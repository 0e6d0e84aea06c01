import net from 'node:net';

/**
 * Where a test double listens: a loopback address only, whatever HOST the app itself listens on. The doubles hold
 * sign-in codes, messages and payments in the clear (the Twilio double lists its codes at `/`), so with
 * `HOST=0.0.0.0` they must still not be reachable from the network (issue #46, item 12). The app's own loopback
 * address (`::1`, `127.0.0.2`) is kept; any other (`0.0.0.0`, `::`, a LAN address) becomes 127.0.0.1.
 */
export function loopbackHost(host: string | undefined): string {
  if (host === undefined) return '127.0.0.1';
  if (host === '::1') return host;
  if (net.isIPv4(host) && host.startsWith('127.')) return host;
  return '127.0.0.1';
}
