import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import puppeteer, { type Browser as FirefoxBrowser } from 'puppeteer-core';

/**
 * A small internet on one machine, for calls between real networks: Linux network namespaces joined by veth
 * pairs.
 *
 *   customer 10.0.1.2 ─eth0─ [wanA: an L2 hop] ─lan─ natA ─wan 203.0.113.2─┐
 *                                                                          br0 in "pub": 203.0.113.1
 *   jeweller 10.0.2.2 ─eth0──────────────────────── natB ─wan 203.0.113.3─┤  the API (:8080) and coturn (:3478)
 *   guest    10.0.3.2 ─eth0──────────────────────── natC ─wan 203.0.113.4─┘
 *
 * Each NAT is symmetric (nftables masquerade with fully random ports: every new destination gets a new
 * public port), so even with STUN the two browsers cannot reach each other directly; only our relay joins
 * them (the guest of a family call, issue #52, likewise). "pub" does not forward, so the private networks never meet. The hop on the customer's side is where
 * a bad link is made: loss by an nftables random-drop rule, a bandwidth cap by `tc tbf`, an outage by taking
 * the NAT's inside link down. These kernels have no netem.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Runs inside a namespace: a Unix socket (reachable from any namespace, it is a file) that leads to a TCP port
 * on that namespace's own loopback. Firefox is driven over WebDriver BiDi, a WebSocket on its loopback, which
 * the test process cannot reach across namespaces otherwise.
 */
const SOCKET_TO_PORT = `const net = require('node:net');
const [sock, port] = process.argv.slice(1);
net.createServer((c) => {
  const t = net.connect(Number(port), '127.0.0.1');
  c.pipe(t); t.pipe(c);
  c.on('error', () => t.destroy()); t.on('error', () => c.destroy());
}).listen(sock, () => console.log('ready'));`;

/** A TCP port free on this machine's loopback now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
const ROOT = path.resolve(import.meta.dirname, '../../..');
/**
 * The demo accounts' password on the lab's server: production refuses the published one (docs/security.md,
 * "Demo accounts in production"), so each run names a fresh one (SEED_DEMO_PASSWORD).
 */
export const DEMO_PASSWORD = crypto.randomBytes(12).toString('base64url');
export const PUBLIC_IP = '203.0.113.1';
export const API_PORT = 8080;
export const ORIGIN = `http://${PUBLIC_IP}:${API_PORT}`;
export const TURN_PORT = 3478;
/** coturn's TLS listener (`turns:`), on 443 as for networks that let only web traffic out. */
export const TURNS_PORT = 443;

/** Why the lab cannot be built here, or undefined when it can (root, iproute2, nftables, coturn, Chromium). */
export function labUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not running as root (network namespaces need CAP_NET_ADMIN)';
  for (const [cmd, pkg] of [
    ['ip', 'iproute2'],
    ['nft', 'nftables'],
    ['turnserver', 'coturn'],
    ['tc', 'iproute2'],
    ['ethtool', 'ethtool'],
    ['python3', 'python3'],
    ['openssl', 'openssl'],
  ] as const) {
    if (spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0)
      return `${cmd} is missing (apt-get install ${pkg})`;
  }
  if (!fs.existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM}`;
  const probe = `nagai-probe-${process.pid}`;
  const made = spawnSync('ip', ['netns', 'add', probe]);
  if (made.status !== 0) return `cannot create a network namespace: ${made.stderr.toString().trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}

function run(cmd: string, args: string[], input?: string): string {
  return execFileSync(cmd, args, { input, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
}

export type Side = 'customer' | 'jeweller' | 'guest';

export interface Lab {
  /** Namespace names. */
  ns: {
    pub: string;
    natA: string;
    natB: string;
    natC: string;
    hostA: string;
    hostB: string;
    hostC: string;
    wanA: string;
  };
  turnSecret: string;
  /** A headless Chromium living in the customer's, the jeweller's or the guest's network. */
  launchBrowser(side: Side): Promise<Browser>;
  /** A headless Firefox ESR (driven by puppeteer-core over WebDriver BiDi) in that network. */
  launchFirefox(side: Side): Promise<FirefoxBrowser>;
  /** Starts the API (built PWA, embedded database, demo data) inside "pub"; resolves when it answers. */
  startApi(env?: Record<string, string>): Promise<void>;
  stopApi(): Promise<void>;
  startRelay(): Promise<void>;
  stopRelay(): Promise<void>;
  /** The customer's NAT loses its inside link (like walking out of Wi-Fi) or gets it back. */
  customerLink(up: boolean): void;
  /** The customer's network lets no UDP out (an office or hotel firewall): only TCP, so TURN over TLS. */
  customerUdpBlocked(blocked: boolean): void;
  /** Drops this percentage of packets each way on the customer's link (0 removes the rule). */
  customerLoss(percent: number): void;
  /** Caps the customer's link at this rate each way (undefined removes the cap). */
  customerRate(kbit: number | undefined): void;
  /** Holds every frame on the customer's link this long each way (0: a plain bridge again). */
  customerDelay(ms: number): Promise<void>;
  /** Caps the guest's link at this rate each way (undefined removes the cap). */
  guestRate(kbit: number | undefined): void;
  /** Everything the API and coturn printed, for a failing test's message. */
  logs(): string;
  down(): Promise<void>;
}

/** A symmetric NAT: a fresh random public port for every new flow; only replies come back in. */
function natRules(nat: string): void {
  spawnSync('ip', ['netns', 'exec', nat, 'nft', 'delete', 'table', 'ip', 'nagai_nat']);
  run(
    'ip',
    ['netns', 'exec', nat, 'nft', '-f', '-'],
    `table ip nagai_nat {
  chain postrouting {
    type nat hook postrouting priority srcnat; policy accept;
    oifname "wan" masquerade fully-random
  }
  chain forward {
    type filter hook forward priority filter; policy drop;
    ct state established,related accept
    iifname "lan" oifname "wan" accept
  }
}
`,
  );
}

/** Builds the namespaces, links and NATs. Call `down()` in afterAll, even after a failure. */
export function buildLab(): Lab {
  const id = crypto.randomBytes(3).toString('hex');
  const ns = {
    pub: `nagai-${id}-pub`,
    natA: `nagai-${id}-natA`,
    natB: `nagai-${id}-natB`,
    natC: `nagai-${id}-natC`,
    hostA: `nagai-${id}-hostA`,
    hostB: `nagai-${id}-hostB`,
    hostC: `nagai-${id}-hostC`,
    wanA: `nagai-${id}-wanA`,
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `nagai-lab-${id}-`));
  const turnSecret = crypto.randomBytes(24).toString('hex');
  const children: { api?: ChildProcess; relay?: ChildProcess; hop?: ChildProcess } = {};
  const browsers: Browser[] = [];
  const firefoxes: { browser?: FirefoxBrowser; server: net.Server; relay: ChildProcess }[] = [];
  let output = '';
  const ipn = (n: string, ...args: string[]) => run('ip', ['-n', n, ...args]);
  const inNs = (n: string, cmd: string, ...args: string[]) => run('ip', ['netns', 'exec', n, cmd, ...args]);

  const teardown = async () => {
    for (const b of browsers.splice(0)) await b.close().catch(() => undefined);
    for (const f of firefoxes.splice(0)) {
      await f.browser?.close().catch(() => undefined);
      f.server.close();
      if (f.relay.exitCode === null) {
        f.relay.kill('SIGKILL');
        await new Promise((r) => f.relay.once('exit', r));
      }
    }
    for (const key of ['api', 'relay', 'hop'] as const) {
      const child = children[key];
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
    }
    // A namespace with live processes would survive `ip netns del` invisibly: kill what is left first.
    for (const n of Object.values(ns)) {
      const pids = spawnSync('ip', ['netns', 'pids', n])
        .stdout?.toString()
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      for (const pid of pids ?? []) spawnSync('kill', ['-9', pid]);
      spawnSync('ip', ['netns', 'del', n]);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };

  try {
    for (const n of Object.values(ns)) {
      run('ip', ['netns', 'add', n]);
      ipn(n, 'link', 'set', 'lo', 'up');
      // IPv4 only keeps the candidate lists short and the paths known.
      inNs(n, 'sysctl', '-qw', 'net.ipv6.conf.all.disable_ipv6=1', 'net.ipv6.conf.default.disable_ipv6=1');
    }
    // The "internet": a bridge in pub. pub never forwards, and its default route leads into the void (a
    // gateway with a made-up hardware address): coturn closes an allocation on any send error, so packets
    // to unroutable addresses must vanish silently, as on the real internet.
    ipn(ns.pub, 'link', 'add', 'br0', 'type', 'bridge');
    ipn(ns.pub, 'addr', 'add', `${PUBLIC_IP}/24`, 'dev', 'br0');
    ipn(ns.pub, 'link', 'set', 'br0', 'up');
    inNs(ns.pub, 'sysctl', '-qw', 'net.ipv4.ip_forward=0');
    ipn(
      ns.pub,
      'neigh',
      'add',
      '203.0.113.254',
      'lladdr',
      '02:00:00:00:00:fe',
      'dev',
      'br0',
      'nud',
      'permanent',
    );
    ipn(ns.pub, 'route', 'add', 'default', 'via', '203.0.113.254');

    for (const side of ['A', 'B', 'C'] as const) {
      const nat = { A: ns.natA, B: ns.natB, C: ns.natC }[side];
      const host = { A: ns.hostA, B: ns.hostB, C: ns.hostC }[side];
      const wan = { A: '203.0.113.2', B: '203.0.113.3', C: '203.0.113.4' }[side];
      const lan = { A: '10.0.1', B: '10.0.2', C: '10.0.3' }[side];
      run('ip', [
        'link',
        'add',
        'wan',
        'netns',
        nat,
        'type',
        'veth',
        'peer',
        'name',
        `p${side}`,
        'netns',
        ns.pub,
      ]);
      ipn(ns.pub, 'link', 'set', `p${side}`, 'master', 'br0', 'up');
      ipn(nat, 'addr', 'add', `${wan}/24`, 'dev', 'wan');
      ipn(nat, 'link', 'set', 'wan', 'up');
      ipn(nat, 'route', 'add', 'default', 'via', PUBLIC_IP);
      if (side === 'A') {
        // The customer's link passes a bridge of its own, where its impairments live.
        run('ip', [
          'link',
          'add',
          'lan',
          'netns',
          nat,
          'type',
          'veth',
          'peer',
          'name',
          'a1',
          'netns',
          ns.wanA,
        ]);
        run('ip', [
          'link',
          'add',
          'eth0',
          'netns',
          host,
          'type',
          'veth',
          'peer',
          'name',
          'a0',
          'netns',
          ns.wanA,
        ]);
        ipn(ns.wanA, 'link', 'add', 'br0', 'type', 'bridge');
        for (const p of ['a0', 'a1']) ipn(ns.wanA, 'link', 'set', p, 'master', 'br0', 'up');
        ipn(ns.wanA, 'link', 'set', 'br0', 'up');
      } else {
        run('ip', [
          'link',
          'add',
          'lan',
          'netns',
          nat,
          'type',
          'veth',
          'peer',
          'name',
          'eth0',
          'netns',
          host,
        ]);
      }
      ipn(nat, 'addr', 'add', `${lan}.1/24`, 'dev', 'lan');
      ipn(nat, 'link', 'set', 'lan', 'up');
      ipn(host, 'addr', 'add', `${lan}.2/24`, 'dev', 'eth0');
      ipn(host, 'link', 'set', 'eth0', 'up');
      ipn(host, 'route', 'add', 'default', 'via', `${lan}.1`);
      inNs(nat, 'sysctl', '-qw', 'net.ipv4.ip_forward=1');
      natRules(nat);
    }
  } catch (err) {
    void teardown();
    throw err;
  }

  const collect = (child: ChildProcess, label: string) => {
    const add = (d: Buffer) => {
      output += d
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => `[${label}] ${l}\n`)
        .join('');
      if (output.length > 400_000) output = output.slice(-200_000);
    };
    child.stdout?.on('data', add);
    child.stderr?.on('data', add);
  };

  // The relay's configuration is the one docs/operations.md recommends: shared-secret credentials, a realm,
  // quotas, and private and loopback peers denied (the browsers' private host candidates are such peers), with
  // TLS on 443 from a certificate made for the lab (self-signed for the relay's address; the lab's browsers
  // are told to accept it).
  const cert = path.join(tmp, 'turn-cert.pem');
  const key = path.join(tmp, 'turn-key.pem');
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '2',
    '-subj',
    `/CN=${PUBLIC_IP}`,
    '-addext',
    `subjectAltName=IP:${PUBLIC_IP}`,
  ]);
  const turnConf = path.join(tmp, 'turnserver.conf');
  fs.writeFileSync(
    turnConf,
    [
      `listening-ip=${PUBLIC_IP}`,
      `relay-ip=${PUBLIC_IP}`,
      `listening-port=${TURN_PORT}`,
      'min-port=49152',
      'max-port=49999',
      'realm=nagai.test',
      'use-auth-secret',
      `static-auth-secret=${turnSecret}`,
      'user-quota=4',
      'total-quota=100',
      'no-multicast-peers',
      'denied-peer-ip=10.0.0.0-10.255.255.255',
      'denied-peer-ip=172.16.0.0-172.31.255.255',
      'denied-peer-ip=192.168.0.0-192.168.255.255',
      'denied-peer-ip=127.0.0.0-127.255.255.255',
      `tls-listening-port=${TURNS_PORT}`,
      `cert=${cert}`,
      `pkey=${key}`,
      'no-tlsv1',
      'no-tlsv1_1',
      'no-dtls',
      'no-cli',
      'fingerprint',
      `pidfile=${path.join(tmp, 'turnserver.pid')}`,
      `userdb=${path.join(tmp, 'turndb')}`,
      'simple-log',
      'log-file=stdout',
      '',
    ].join('\n'),
  );

  // Chromium inherits the namespace of the program that starts it: Playwright starts this wrapper.
  const hostOf = (side: Side) => ({ customer: ns.hostA, jeweller: ns.hostB, guest: ns.hostC })[side];
  /** Both ends of a link send through a token bucket: the cap holds each way. */
  const rate = (ends: readonly (readonly [string, string])[], kbit: number | undefined) => {
    for (const [n, dev] of ends) {
      spawnSync('ip', ['netns', 'exec', n, 'tc', 'qdisc', 'del', 'dev', dev, 'root']);
      if (kbit !== undefined)
        inNs(
          n,
          'tc',
          'qdisc',
          'add',
          'dev',
          dev,
          'root',
          'tbf',
          'rate',
          `${kbit}kbit`,
          'burst',
          '16kb',
          'latency',
          '400ms',
        );
    }
  };
  const wrapper = (n: string) => {
    const file = path.join(tmp, `chromium-${n}`);
    fs.writeFileSync(file, `#!/bin/sh\nexec ip netns exec ${n} ${CHROMIUM} "$@"\n`, { mode: 0o755 });
    return file;
  };

  const lab: Lab = {
    ns,
    turnSecret,
    async launchFirefox(side) {
      const n = hostOf(side);
      const port = await freePort();
      const sock = path.join(tmp, `firefox-${side}-${port}.sock`);
      // Inside the network: the socket leads to Firefox's BiDi port; here: the same port number leads to it.
      const relay = spawn(
        'ip',
        ['netns', 'exec', n, process.execPath, '-e', SOCKET_TO_PORT, sock, String(port)],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      collect(relay, `bidi-${side}`);
      await new Promise<void>((resolve, reject) => {
        relay.stdout?.on('data', (d: Buffer) => {
          if (d.toString().includes('ready')) resolve();
        });
        relay.once('exit', () => reject(new Error(`the BiDi relay exited:\n${output}`)));
      });
      const server = net.createServer((c) => {
        const u = net.connect(sock);
        c.pipe(u);
        u.pipe(c);
        c.on('error', () => u.destroy());
        u.on('error', () => c.destroy());
      });
      const entry: (typeof firefoxes)[number] = { server, relay };
      firefoxes.push(entry);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      const file = path.join(tmp, `firefox-${n}`);
      fs.writeFileSync(file, `#!/bin/sh\nexec ip netns exec ${n} ${FIREFOX} "$@"\n`, { mode: 0o755 });
      entry.browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: file,
        headless: true,
        debuggingPort: port,
        extraPrefsFirefox: {
          'media.navigator.streams.fake': true,
          'media.navigator.permission.disabled': true,
          // The app's origin is plain http on a public address: treated as secure (its Secure session
          // cookie, camera and microphone, the service worker), as Chromium's flag does.
          'dom.securecontext.allowlist': PUBLIC_IP,
          'media.devices.insecure.enabled': true,
          'media.getusermedia.insecure.enabled': true,
          'dom.serviceWorkers.testing.enabled': true,
          'app.update.enabled': false,
          'browser.shell.checkDefaultBrowser': false,
        },
      });
      return entry.browser;
    },
    async launchBrowser(side) {
      const browser = await chromium.launch({
        executablePath: wrapper(hostOf(side)),
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          // The relay's TLS certificate is the lab's own (self-signed).
          '--ignore-certificate-errors',
          '--use-fake-device-for-media-stream',
          '--use-fake-ui-for-media-stream',
          '--autoplay-policy=no-user-gesture-required',
          // The app's origin is plain http on a public address: camera, microphone and the service worker
          // need a secure context.
          `--unsafely-treat-insecure-origin-as-secure=${ORIGIN}`,
        ],
      });
      browsers.push(browser);
      return browser;
    },
    async startApi(env = {}) {
      const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
      const child = spawn(
        'ip',
        ['netns', 'exec', ns.pub, process.execPath, '--import', 'tsx', 'api/src/server.ts'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            NODE_ENV: 'production',
            // Production requires the key that encrypts buyers' PANs (any 32 bytes will do here).
            PAN_ENCRYPTION_KEY: 'e2'.repeat(32),
            HOST: PUBLIC_IP,
            PORT: String(API_PORT),
            PUBLIC_ORIGIN: `http://${PUBLIC_IP}:${API_PORT}`,
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            // The demo shops and accounts, asked for by name as production requires, with this run's password.
            SEED_DEMO: 'true',
            SEED_DEMO_PASSWORD: DEMO_PASSWORD,
            LOG_LEVEL: 'warn',
            // No balancer is in front of the lab's API: its stop need not wait for one to notice.
            SHUTDOWN_DRAIN_MS: '0',
            // UDP first; TLS on 443 for networks that drop UDP.
            TURN_URLS: `turn:${PUBLIC_IP}:${TURN_PORT}?transport=udp,turns:${PUBLIC_IP}:${TURNS_PORT}?transport=tcp`,
            TURN_SECRET: turnSecret,
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.api = child;
      collect(child, 'api');
      const deadline = Date.now() + 120_000;
      // The API answers only inside the lab: ask from pub itself.
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the API exited early:\n${output}`);
        const probe = spawnSync('ip', [
          'netns',
          'exec',
          ns.pub,
          process.execPath,
          '-e',
          `fetch('${ORIGIN}/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`,
        ]);
        if (probe.status === 0) return;
        if (Date.now() > deadline) throw new Error(`the API did not start in time:\n${output}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    },
    async stopApi() {
      const child = children.api;
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
    async startRelay() {
      const child = spawn('ip', ['netns', 'exec', ns.pub, 'turnserver', '-c', turnConf], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.relay = child;
      collect(child, 'coturn');
      const deadline = Date.now() + 15_000;
      while (!/listener opened on|Total General servers/.test(output)) {
        if (child.exitCode !== null) throw new Error(`coturn exited:\n${output}`);
        if (Date.now() > deadline) throw new Error(`coturn did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stopRelay() {
      const child = children.relay;
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
    customerLink(up) {
      ipn(ns.natA, 'link', 'set', 'lan', up ? 'up' : 'down');
    },
    customerUdpBlocked(blocked) {
      spawnSync('ip', ['netns', 'exec', ns.natA, 'nft', 'delete', 'table', 'inet', 'nagai_noudp']);
      if (!blocked) return;
      run(
        'ip',
        ['netns', 'exec', ns.natA, 'nft', '-f', '-'],
        `table inet nagai_noudp {
  chain forward {
    type filter hook forward priority -20; policy accept;
    meta l4proto udp drop
  }
}
`,
      );
    },
    customerLoss(percent) {
      // In the customer's NAT: every packet it forwards, both ways, drops with this chance.
      spawnSync('ip', ['netns', 'exec', ns.natA, 'nft', 'delete', 'table', 'inet', 'nagai_loss']);
      if (percent <= 0) return;
      run(
        'ip',
        ['netns', 'exec', ns.natA, 'nft', '-f', '-'],
        `table inet nagai_loss {
  chain forward {
    type filter hook forward priority -10; policy accept;
    numgen random mod 1000 < ${Math.round(percent * 10)} drop
  }
}
`,
      );
    },
    customerRate(kbit) {
      rate(
        [
          [ns.hostA, 'eth0'],
          [ns.natA, 'lan'],
        ],
        kbit,
      );
    },
    guestRate(kbit) {
      rate(
        [
          [ns.hostC, 'eth0'],
          [ns.natC, 'lan'],
        ],
        kbit,
      );
    },
    async customerDelay(ms) {
      const hop = children.hop;
      if (hop && hop.exitCode === null) {
        hop.kill('SIGKILL');
        await new Promise((r) => hop.once('exit', r));
      }
      children.hop = undefined;
      if (ms <= 0) {
        if (spawnSync('ip', ['-n', ns.wanA, 'link', 'show', 'br0']).status !== 0) {
          ipn(ns.wanA, 'link', 'add', 'br0', 'type', 'bridge');
          for (const p of ['a0', 'a1']) ipn(ns.wanA, 'link', 'set', p, 'master', 'br0', 'up');
          ipn(ns.wanA, 'link', 'set', 'br0', 'up');
        }
        return;
      }
      // The kernel bridge gives way to a userspace hop that holds each frame for `ms`.
      spawnSync('ip', ['-n', ns.wanA, 'link', 'del', 'br0']);
      for (const [n, dev] of [
        [ns.hostA, 'eth0'],
        [ns.natA, 'lan'],
        [ns.wanA, 'a0'],
        [ns.wanA, 'a1'],
      ] as const) {
        spawnSync('ip', [
          'netns',
          'exec',
          n,
          'ethtool',
          '-K',
          dev,
          'tx',
          'off',
          'rx',
          'off',
          'tso',
          'off',
          'gso',
          'off',
          'gro',
          'off',
        ]);
      }
      for (const p of ['a0', 'a1']) ipn(ns.wanA, 'link', 'set', p, 'up');
      const child = spawn(
        'ip',
        [
          'netns',
          'exec',
          ns.wanA,
          'python3',
          path.join(import.meta.dirname, 'delay-hop.py'),
          'a0',
          'a1',
          String(ms),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.hop = child;
      collect(child, 'hop');
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on('data', (d: Buffer) => {
          if (d.toString().includes('ready')) resolve();
        });
        child.once('exit', () => reject(new Error(`the delay hop exited:\n${output}`)));
      });
    },
    logs: () => output,
    down: teardown,
  };
  return lab;
}
