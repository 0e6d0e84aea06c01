import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackHost } from './loopback';

/**
 * A TEST DOUBLE of Twilio Verify and Twilio Messaging: our own small HTTP server speaking the parts of their
 * APIs Nagai uses, so development (`npm start` without TWILIO_* settings) and the tests can sign in with a
 * mobile number and send notices without reaching Twilio. It never runs in production (startTwilioDouble
 * refuses when NODE_ENV is production, and the app starts it only without settings outside production).
 *
 * What it speaks, as Twilio does (HTTP Basic auth with the account SID or an API key SID and its secret,
 * form-encoded bodies, JSON answers with Twilio's field names and error shape `{ code, message, more_info,
 * status }`):
 * - POST /v2/Services/{ServiceSid}/Verifications (To, Channel sms|whatsapp, Locale): a six-digit code,
 *   valid 10 minutes, at most 5 checks (then Twilio's 60202 "Max check attempts reached").
 * - POST /v2/Services/{ServiceSid}/VerificationCheck (To, Code): status approved or pending; 404 (20404) when
 *   no verification is pending for the number.
 * - POST /2010-04-01/Accounts/{AccountSid}/Messages.json (To, Body, MessagingServiceSid or From): an SMS to
 *   "+91…", with India's DLT parameters (DltEntityId, DltTemplateId) kept as sent; or a WhatsApp message to
 *   "whatsapp:+91…" from a "whatsapp:" sender, with a Body or an approved template (ContentSid "HX…" and
 *   ContentVariables, a JSON object), refused as Twilio refuses a WhatsApp message without a WhatsApp sender
 *   (63007) or with variables that are not a JSON object (21656).
 * - GET /2010-04-01/Accounts/{AccountSid}/Messages.json (To, DateSent>, PageSize): the messages sent, newest
 *   first, in Twilio's page shape.
 * - an inbound message ("STOP") sent to the app's webhook, signed as Twilio signs (X-Twilio-Signature:
 *   base64 HMAC-SHA1 of the URL followed by the sorted parameters' names and values, with the auth token).
 *
 * The codes it sends show in the server log (the app logs `onCode`) and on its page (GET /), for
 * development only; tests read them with `lastCode(to)`.
 */

export interface TwilioDoubleOptions {
  accountSid: string;
  authToken: string;
  verifyServiceSid: string;
  /** The app's HOST: the double listens on it only when it is a loopback address, else on 127.0.0.1. */
  host?: string;
  port?: number;
  /** The double's clock (the app's, when the app started it); Date.now by default. */
  now?: () => number;
  /** Told of every code sent (the app logs it for development). */
  onCode?: (to: string, code: string, channel: string) => void;
}

export interface DoubleVerification {
  sid: string;
  to: string;
  channel: string;
  locale: string | null;
  code: string;
  status: 'pending' | 'approved' | 'canceled' | 'max_attempts_reached' | 'expired';
  checks: number;
  createdAt: number;
  /** Every time the code was sent (a new code, then each resend while it is pending), as Verify lists them. */
  sendAttempts: { time: number; channel: string }[];
}

export interface DoubleMessage {
  sid: string;
  /** "+91…" for an SMS, "whatsapp:+91…" for WhatsApp. */
  to: string;
  channel: 'sms' | 'whatsapp';
  from: string | null;
  messagingServiceSid: string | null;
  /** The text sent, or for a WhatsApp template its SID and variables as Twilio would show them. */
  body: string;
  contentSid: string | null;
  contentVariables: Record<string, string> | null;
  dltEntityId: string | null;
  dltTemplateId: string | null;
  createdAt: number;
}

/** An inbound message as the double delivered it to the app's webhook. */
export interface DoubleInbound {
  url: string;
  params: Record<string, string>;
  signature: string;
}

export interface TwilioDouble {
  readonly url: string;
  /** The address it listens on: always a loopback address (loopback.ts). */
  readonly address: string;
  readonly accountSid: string;
  readonly authToken: string;
  readonly verifyServiceSid: string;
  readonly verifications: DoubleVerification[];
  readonly messages: DoubleMessage[];
  /** The code of the newest verification sent to a number. */
  lastCode(to: string): string | undefined;
  /** The next call to a route ('POST verifications', 'POST checks', 'POST messages') answers a 500. */
  failNext(route: 'POST verifications' | 'POST checks' | 'POST messages'): void;
  /**
   * A slow provider: code sends (POST verifications) wait, unanswered, until the returned function is called.
   */
  holdVerifications(): () => void;
  /** The next message is taken (it counts as sent) but the connection drops before the answer. */
  dropNextMessage(): void;
  /** Where inbound messages go (the app's /webhooks/twilio/sms). */
  setInboundUrl(url: string): void;
  /** A person's reply, delivered to the app's webhook signed as Twilio signs; answers the app's status. */
  receive(from: string, body: string): Promise<number>;
  /** Every inbound message delivered, with its URL, form and signature, in order. */
  readonly inbound: DoubleInbound[];
  /** Sends a recorded inbound message again exactly as signed (a captured request replayed); its status. */
  redeliver(message: DoubleInbound): Promise<number>;
  close(): Promise<void>;
}

const CODE_VALID_MS = 10 * 60_000;
const MAX_CHECKS = 5;

const sid = (prefix: string) => prefix + crypto.randomBytes(16).toString('hex');

/** Twilio's request signature: HMAC-SHA1 over the URL and the sorted POST parameters (name then value). */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, k) => acc + k + params[k], url);
  return crypto.createHmac('sha1', authToken).update(Buffer.from(data, 'utf-8')).digest('base64');
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startTwilioDouble(opts: TwilioDoubleOptions): Promise<TwilioDouble> {
  if (process.env.NODE_ENV === 'production')
    throw new Error('The Twilio test double never runs in production');
  const verifications: DoubleVerification[] = [];
  const messages: DoubleMessage[] = [];
  const failing = new Set<string>();
  let held: Promise<void> | null = null;
  const now = opts.now ?? Date.now;
  let inboundUrl: string | undefined;
  const inbound: DoubleInbound[] = [];

  async function deliverInbound(message: DoubleInbound): Promise<number> {
    const res = await fetch(message.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': message.signature,
      },
      body: new URLSearchParams(message.params).toString(),
    });
    await res.arrayBuffer();
    return res.status;
  }

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, code: number, message: string) =>
    send(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

  const authorised = (req: http.IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return user === opts.accountSid && rest.join(':') === opts.authToken;
  };

  const current = (to: string) => {
    const at = now();
    for (let i = verifications.length - 1; i >= 0; i--) {
      const v = verifications[i];
      if (v.to !== to) continue;
      if (v.status === 'pending' && at - v.createdAt > CODE_VALID_MS) v.status = 'expired';
      return v.status === 'pending' ? v : undefined;
    }
    return undefined;
  };

  const verificationJson = (v: DoubleVerification) => ({
    sid: v.sid,
    service_sid: opts.verifyServiceSid,
    account_sid: opts.accountSid,
    to: v.to,
    channel: v.channel,
    status: v.status,
    valid: v.status === 'approved',
    lookup: {},
    amount: null,
    payee: null,
    send_code_attempts: v.sendAttempts.map((x) => ({
      time: new Date(x.time).toISOString(),
      channel: x.channel,
    })),
    date_created: new Date(v.createdAt).toISOString(),
    date_updated: new Date(now()).toISOString(),
    sna: null,
    url: `https://verify.twilio.com/v2/Services/${opts.verifyServiceSid}/Verifications/${v.sid}`,
  });

  const messageJson = (m: DoubleMessage) => ({
    sid: m.sid,
    account_sid: opts.accountSid,
    messaging_service_sid: m.messagingServiceSid,
    to: m.to,
    from: m.from,
    body: m.body,
    status: 'queued',
    num_segments: '1',
    direction: 'outbound-api',
    date_created: new Date(m.createdAt).toUTCString(),
    date_sent: new Date(m.createdAt).toUTCString(),
    date_updated: new Date(m.createdAt).toUTCString(),
    error_code: null,
    error_message: null,
    uri: `/2010-04-01/Accounts/${opts.accountSid}/Messages/${m.sid}.json`,
  });

  const page = () => {
    const rows = [...verifications]
      .reverse()
      .slice(0, 50)
      .map(
        (v) =>
          `<tr><td>${escapeHtml(v.to)}</td><td><strong>${v.code}</strong></td><td>${v.channel}</td><td>${v.status}</td><td>${new Date(v.createdAt).toISOString()}</td></tr>`,
      )
      .join('');
    const msgs = [...messages]
      .reverse()
      .slice(0, 50)
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.to)}</td><td>${m.channel}</td><td>${escapeHtml(m.body)}</td><td>${new Date(m.createdAt).toISOString()}</td></tr>`,
      )
      .join('');
    return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Twilio test double (development only)</title>
<h1>Twilio test double — development only</h1>
<p>Codes sent by the Verify double (newest first). Nothing here reaches a phone.</p>
<table border="1" cellpadding="4"><tr><th>To</th><th>Code</th><th>Channel</th><th>Status</th><th>Sent</th></tr>${rows}</table>
<h2>Messages</h2>
<table border="1" cellpadding="4"><tr><th>To</th><th>Channel</th><th>Body</th><th>Sent</th></tr>${msgs}</table></html>`;
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://double');
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(page());
        return;
      }
      // For tests in another process (the browser tests): what the double "sent" to a number, as JSON.
      if (req.method === 'GET' && url.pathname === '/_double/codes') {
        const to = url.searchParams.get('to') ?? '';
        return send(res, 200, { code: [...verifications].reverse().find((v) => v.to === to)?.code ?? null });
      }
      if (req.method === 'GET' && url.pathname === '/_double/messages') {
        const to = url.searchParams.get('to') ?? '';
        return send(res, 200, { messages: messages.filter((m) => m.to === to).map((m) => m.body) });
      }
      const list = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
      if (req.method === 'GET' && list) {
        if (!authorised(req)) return error(res, 401, 20003, 'Authenticate');
        if (list[1] !== opts.accountSid)
          return error(res, 404, 20404, 'The requested resource was not found');
        const to = url.searchParams.get('To');
        const after = url.searchParams.get('DateSent>');
        const since = after ? Date.parse(after) : 0;
        const size = Math.min(1000, Number(url.searchParams.get('PageSize') ?? 50) || 50);
        const found = [...messages]
          .reverse()
          .filter((m) => (!to || m.to === to) && m.createdAt >= since)
          .slice(0, size);
        return send(res, 200, {
          messages: found.map(messageJson),
          page: 0,
          page_size: size,
          start: 0,
          end: Math.max(0, found.length - 1),
          first_page_uri: `${url.pathname}${url.search}`,
          previous_page_uri: null,
          next_page_uri: null,
          uri: `${url.pathname}${url.search}`,
        });
      }
      if (req.method !== 'POST') return error(res, 404, 20404, 'The requested resource was not found');
      if (!authorised(req)) return error(res, 401, 20003, 'Authenticate');
      const form = new URLSearchParams(await readBody(req));
      const verify = /^\/v2\/Services\/([^/]+)\/(Verifications|VerificationCheck)$/.exec(url.pathname);
      const message = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(url.pathname);
      if (verify) {
        if (verify[1] !== opts.verifyServiceSid)
          return error(res, 404, 20404, 'The requested resource was not found');
        const to = form.get('To') ?? '';
        if (!/^\+[1-9][0-9]{6,14}$/.test(to)) return error(res, 400, 60200, 'Invalid parameter `To`');
        if (verify[2] === 'Verifications') {
          if (held) await held;
          if (failing.delete('POST verifications')) return error(res, 500, 20500, 'Internal Server Error');
          const channel = form.get('Channel') ?? '';
          if (channel !== 'sms' && channel !== 'whatsapp')
            return error(res, 400, 60200, 'Invalid parameter: Channel');
          // Like Verify: asking again while a code is pending sends the same code again.
          let v = current(to);
          if (!v) {
            v = {
              sid: sid('VE'),
              to,
              channel,
              locale: form.get('Locale'),
              code: String(crypto.randomInt(0, 1_000_000)).padStart(6, '0'),
              status: 'pending',
              checks: 0,
              createdAt: now(),
              sendAttempts: [],
            };
            verifications.push(v);
          }
          v.sendAttempts.push({ time: now(), channel });
          opts.onCode?.(to, v.code, channel);
          return send(res, 201, verificationJson(v));
        }
        if (failing.delete('POST checks')) return error(res, 500, 20500, 'Internal Server Error');
        const v = current(to);
        if (!v) return error(res, 404, 20404, 'The requested resource was not found');
        v.checks += 1;
        if (form.get('Code') === v.code) v.status = 'approved';
        else if (v.checks >= MAX_CHECKS) {
          v.status = 'max_attempts_reached';
          return error(res, 429, 60202, 'Max check attempts reached');
        }
        return send(res, 200, verificationJson(v));
      }
      if (message) {
        if (message[1] !== opts.accountSid)
          return error(res, 404, 20404, 'The requested resource was not found');
        if (failing.delete('POST messages')) return error(res, 500, 20500, 'Internal Server Error');
        const to = form.get('To') ?? '';
        const from = form.get('From');
        const whatsapp = to.startsWith('whatsapp:');
        if (!/^(whatsapp:)?\+[1-9][0-9]{6,14}$/.test(to))
          return error(res, 400, 21211, "The 'To' number is not a valid phone number.");
        if (whatsapp && !from?.startsWith('whatsapp:'))
          return error(res, 400, 63007, 'Twilio could not find a Channel with the specified From address');
        if (!from && !form.get('MessagingServiceSid'))
          return error(res, 400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required.");
        const contentSid = form.get('ContentSid');
        let contentVariables: Record<string, string> | null = null;
        if (contentSid) {
          if (!whatsapp || !/^HX[0-9a-f]{32}$/i.test(contentSid))
            return error(res, 400, 21655, 'The ContentSid is invalid.');
          try {
            const v: unknown = JSON.parse(form.get('ContentVariables') ?? '{}');
            if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
            contentVariables = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
          } catch {
            return error(res, 400, 21656, 'The ContentVariables Parameter is invalid.');
          }
        }
        const body =
          form.get('Body') ?? (contentSid ? `[${contentSid}] ${JSON.stringify(contentVariables)}` : '');
        if (!body) return error(res, 400, 21602, 'Message body is required.');
        const m: DoubleMessage = {
          sid: sid('SM'),
          to,
          channel: whatsapp ? 'whatsapp' : 'sms',
          from,
          messagingServiceSid: form.get('MessagingServiceSid'),
          body,
          contentSid,
          contentVariables,
          dltEntityId: form.get('DltEntityId'),
          dltTemplateId: form.get('DltTemplateId'),
          createdAt: now(),
        };
        messages.push(m);
        // Taken, then the connection is lost before the answer (as a timeout or a network failure looks).
        if (failing.delete('drop message')) {
          res.socket?.destroy();
          return;
        }
        return send(res, 201, messageJson(m));
      }
      return error(res, 404, 20404, 'The requested resource was not found');
    })().catch(() => {
      if (!res.headersSent) error(res, 500, 20500, 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, loopbackHost(opts.host), resolve));
  const { port, address } = server.address() as AddressInfo;

  return {
    address,
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    accountSid: opts.accountSid,
    authToken: opts.authToken,
    verifyServiceSid: opts.verifyServiceSid,
    verifications,
    messages,
    lastCode: (to) => [...verifications].reverse().find((v) => v.to === to)?.code,
    failNext: (route) => failing.add(route),
    holdVerifications: () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      held = gate;
      return () => {
        if (held === gate) held = null;
        release();
      };
    },
    dropNextMessage: () => failing.add('drop message'),
    setInboundUrl: (url) => {
      inboundUrl = url;
    },
    async receive(from, body) {
      if (!inboundUrl) throw new Error('no inbound URL set');
      const params = {
        MessageSid: sid('SM'),
        AccountSid: opts.accountSid,
        From: from,
        To: '+15005550006',
        Body: body,
      };
      const message = {
        url: inboundUrl,
        params,
        signature: twilioSignature(opts.authToken, inboundUrl, params),
      };
      inbound.push(message);
      return deliverInbound(message);
    },
    inbound,
    redeliver: deliverInbound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
