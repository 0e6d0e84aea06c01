import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * TEST DOUBLE for a browser push service (the one edge we cannot reach from here): a local https server
 * that verifies the VAPID authorisation and decrypts aes128gcm payloads (RFC 8291) like a browser would.
 */
export interface ReceivedPush {
  subscriptionId: string;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  payload: unknown;
  receivedAt: number;
}

export interface FakeSubscriber {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: crypto.ECDH;
  authSecret: Buffer;
}

const b64url = (b: Buffer) => b.toString('base64url');

function makeCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-push-'));
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyPath,
      '-out',
      certPath,
    ],
    { stdio: 'ignore' },
  );
  const result = { key: fs.readFileSync(keyPath, 'utf8'), cert: fs.readFileSync(certPath, 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

function verifyVapid(header: string | undefined, endpointOrigin: string): ReceivedPush['vapid'] {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`bad Authorization header: ${header}`);
  const [, jwt, k] = m;
  const [h, p, s] = jwt.split('.');
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string };
  if (head.alg !== 'ES256') throw new Error('VAPID JWT is not ES256');
  const point = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
    aud: string;
    sub: string;
    exp: number;
  };
  if (claims.aud !== endpointOrigin) throw new Error(`VAPID aud ${claims.aud} is not ${endpointOrigin}`);
  if (claims.exp * 1000 < Date.now() || claims.exp * 1000 > Date.now() + 24 * 3600 * 1000 + 60_000) {
    throw new Error('VAPID exp out of range');
  }
  return { ...claims, publicKey: k };
}

/** Decrypts an aes128gcm Web Push body for the subscriber (RFC 8188 + RFC 8291). */
export function decryptAes128gcm(body: Buffer, sub: FakeSubscriber): Buffer {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  if (ciphertext.length > rs) throw new Error('multi-record payloads are not expected');
  const uaPublic = sub.ecdh.getPublicKey();
  const ecdhSecret = sub.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', ecdhSecret, sub.authSecret, keyInfo, 32));
  const cek = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16),
  );
  const nonce = Buffer.from(
    crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12),
  );
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with a 0x02 delimiter followed by zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('bad padding delimiter');
  return padded.subarray(0, end);
}

export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  readonly errors: string[] = [];
  /** Status to answer per subscription id (default 201). */
  readonly answer = new Map<string, number>();
  private server!: https.Server;
  private subscribers = new Map<string, FakeSubscriber>();
  private waiters: (() => void)[] = [];
  origin = '';
  agent!: https.Agent;
  /** The self-signed certificate (PEM) the receiver serves, for clients in other processes to trust. */
  certPem = '';
  /** Called with each push once it has been verified and decrypted (e.g. to hand it on to a browser). */
  onPush?: (push: ReceivedPush) => void;

  async start(): Promise<void> {
    const { key, cert } = makeCertificate();
    this.certPem = cert;
    this.agent = new https.Agent({ ca: cert, keepAlive: false });
    this.server = https.createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = (req.url ?? '').replace(/^\/push\//, '');
        const sub = this.subscribers.get(id);
        try {
          if (!sub) throw new Error(`unknown subscription ${id}`);
          if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
          const vapid = verifyVapid(req.headers.authorization, this.origin);
          const payload = JSON.parse(
            decryptAes128gcm(Buffer.concat(chunks), sub).toString('utf8'),
          ) as unknown;
          const push: ReceivedPush = {
            subscriptionId: id,
            ttl: Number(req.headers.ttl),
            urgency: req.headers.urgency as string | undefined,
            topic: req.headers.topic as string | undefined,
            vapid,
            payload,
            receivedAt: Date.now(),
          };
          this.received.push(push);
          this.onPush?.(push);
        } catch (err) {
          this.errors.push((err as Error).message);
        }
        res.statusCode = this.answer.get(id) ?? 201;
        res.end();
        for (const w of this.waiters.splice(0)) w();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * Writes the certificate to a PEM file and returns its path: a server in another process trusts the
   * receiver through NODE_EXTRA_CA_CERTS=<path> (the caller removes the file).
   */
  writeCertificate(
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-push-ca-')), 'cert.pem'),
  ): string {
    if (!this.certPem) throw new Error('start the receiver first');
    fs.writeFileSync(file, this.certPem);
    return file;
  }

  /** A browser-like subscriber: its own P-256 key pair and auth secret, and an endpoint on this service. */
  subscriber(): FakeSubscriber {
    const id = crypto.randomBytes(8).toString('hex');
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const authSecret = crypto.randomBytes(16);
    const sub: FakeSubscriber = {
      id,
      endpoint: `${this.origin}/push/${id}`,
      keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(authSecret) },
      ecdh,
      authSecret,
    };
    this.subscribers.set(id, sub);
    return sub;
  }

  /** Resolves once at least `count` requests have arrived (or rejects after the timeout). */
  async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length + this.errors.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.received.length} pushes arrived`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
