import crypto from 'node:crypto';
import type { Logger } from 'pino';
import twilio from 'twilio';
import type { Config } from '../../config';
import { startTwilioDouble, type TwilioDouble } from '../../doubles/twilio-double';

/** A provider's refusal or failure; `retryable` when the message was certainly not accepted. */
export class SmsError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: number | undefined,
  ) {
    super(message);
  }
}

export type CheckResult = 'approved' | 'wrong' | 'ended';

/** Twilio Verify (codes) and Messaging (notices), through the `twilio` package. */
export interface SmsProvider {
  /** Sends a one-time code; answers the verification's sid. */
  startVerification(to: string, channel: 'sms' | 'whatsapp', locale: 'en' | 'ta'): Promise<string>;
  /** Checks a code: approved, wrong, or ended (no pending verification: expired or too many tries). */
  checkVerification(to: string, code: string): Promise<CheckResult>;
  /** Sends a text; answers the message's sid. */
  sendMessage(to: string, body: string): Promise<string>;
  /** Checks an inbound webhook's X-Twilio-Signature against the URL and its form parameters. */
  validWebhook(signature: string, url: string, params: Record<string, string>): boolean;
  /** The test double, when the app started one (development and tests only). */
  double(): Promise<TwilioDouble | undefined>;
  close(): Promise<void>;
}

interface Where {
  accountSid: string;
  authToken: string;
  verifyServiceSid: string;
  messagingServiceSid: string | undefined;
  verifyUrl: string;
  apiUrl: string;
  double?: TwilioDouble;
}

/**
 * The package's HTTP client with Twilio's hosts replaced by TWILIO_VERIFY_URL and TWILIO_API_URL (or the
 * double's address): everything else (auth, form encoding, errors) is the package's own.
 */
function rewritingClient(where: Where, timeoutMs: number): twilio.RequestClient {
  const client = new twilio.RequestClient({ timeout: timeoutMs, keepAlive: true });
  const request = client.request.bind(client);
  client.request = ((opts: Parameters<typeof request>[0]) => {
    const uri = opts.uri
      .replace(/^https:\/\/verify\.twilio\.com/, where.verifyUrl.replace(/\/$/, ''))
      .replace(/^https:\/\/api\.twilio\.com/, where.apiUrl.replace(/\/$/, ''));
    return request({ ...opts, uri });
  }) as typeof client.request;
  return client;
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { status?: number; code?: number; message?: string };
    throw new SmsError(`${what}: ${e.message ?? 'failed'}`, e.status, e.code);
  }
}

function twilioProvider(whereP: Promise<Where>, timeoutMs: number): SmsProvider {
  // The webhook check is synchronous: the settings once known (at once with Twilio, the double once started).
  let settled: Where | undefined;
  whereP.then(
    (w) => {
      settled = w;
    },
    () => undefined,
  );
  const ready = whereP.then((w) => ({
    ...w,
    client: twilio(w.accountSid, w.authToken, {
      accountSid: w.accountSid,
      httpClient: rewritingClient(w, timeoutMs),
      autoRetry: false,
    }),
  }));
  ready.catch(() => undefined);
  return {
    async startVerification(to, channel, locale) {
      const { client, verifyServiceSid } = await ready;
      const v = await call('send code', () =>
        client.verify.v2.services(verifyServiceSid).verifications.create({ to, channel, locale }),
      );
      return v.sid;
    },
    async checkVerification(to, code) {
      const { client, verifyServiceSid } = await ready;
      try {
        const v = await client.verify.v2.services(verifyServiceSid).verificationChecks.create({ to, code });
        return v.status === 'approved' ? 'approved' : 'wrong';
      } catch (err) {
        const e = err as { status?: number; code?: number; message?: string };
        // 20404: no pending verification (expired, approved or cancelled); 60202: too many checks.
        if (e.status === 404 || e.code === 20404 || e.code === 60202) return 'ended';
        throw new SmsError(`check code: ${e.message ?? 'failed'}`, e.status, e.code);
      }
    },
    async sendMessage(to, body) {
      const { client, messagingServiceSid } = await ready;
      const m = await call('send message', () =>
        client.messages.create(
          messagingServiceSid ? { to, body, messagingServiceSid } : { to, body, from: 'Nagai' },
        ),
      );
      return m.sid;
    },
    validWebhook(signature, url, params) {
      const token = settled?.authToken;
      return !!token && twilio.validateRequest(token, signature, url, params);
    },
    double: async () => (await ready).double,
    async close() {
      const w = await ready.catch(() => undefined);
      await w?.double?.close();
    },
  };
}

/**
 * The app's SMS provider: Twilio with the configured settings; without them outside production, the test
 * double, started here on a free port with credentials of its own (its codes are logged); in production
 * without them, none (e-mail sign-in only, no notices).
 */
export function createSmsProvider(config: Config, logger: Logger): SmsProvider | undefined {
  const { twilio: settings, useDouble, timeoutMs } = config.sms;
  if (settings) return twilioProvider(Promise.resolve(settings), timeoutMs);
  if (!useDouble) return undefined;
  const accountSid = 'AC' + crypto.randomBytes(16).toString('hex');
  const authToken = crypto.randomBytes(16).toString('hex');
  const verifyServiceSid = 'VA' + crypto.randomBytes(16).toString('hex');
  const started = startTwilioDouble({
    accountSid,
    authToken,
    verifyServiceSid,
    host: config.host,
    onCode: (to, code, channel) =>
      logger.info({ to, code, channel }, 'test SMS: the Twilio test double sent a sign-in code'),
  }).then((double) => {
    logger.info(
      { url: double.url },
      'test SMS: the Twilio test double is serving (its page lists the codes)',
    );
    return {
      accountSid,
      authToken,
      verifyServiceSid,
      messagingServiceSid: 'MG' + crypto.randomBytes(16).toString('hex'),
      verifyUrl: double.url,
      apiUrl: double.url,
      double,
    };
  });
  return twilioProvider(started, timeoutMs);
}
