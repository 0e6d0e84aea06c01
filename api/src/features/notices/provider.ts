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

/** A notice to send: by SMS (with India's DLT identifiers) or by WhatsApp (an approved template, or text). */
export interface OutgoingMessage {
  /** The person's number, E.164 ("+919876543210"); WhatsApp's address is made from it. */
  to: string;
  channel: 'sms' | 'whatsapp';
  body: string;
  /** SMS: the DLT content template the body is registered as. */
  dltTemplateId?: string;
  /** WhatsApp: the approved template (Twilio Content SID) and its numbered variables. */
  contentSid?: string;
  contentVariables?: Record<string, string>;
}

/** A message the provider holds (sent or queued). */
export interface SentMessage {
  sid: string;
  to: string;
  body: string;
  createdAt: Date;
}

/** Twilio's address of a number on a channel. */
export const addressOf = (to: string, channel: 'sms' | 'whatsapp') =>
  channel === 'whatsapp' ? `whatsapp:${to}` : to;

/** Twilio Verify (codes) and Messaging (notices), through the `twilio` package. */
export interface SmsProvider {
  /** Sends a one-time code; answers the verification's sid. */
  startVerification(to: string, channel: 'sms' | 'whatsapp', locale: 'en' | 'ta'): Promise<string>;
  /** Checks a code: approved, wrong, or ended (no pending verification: expired or too many tries). */
  checkVerification(to: string, code: string): Promise<CheckResult>;
  /** Sends a notice; answers the message's sid. */
  sendMessage(message: OutgoingMessage): Promise<string>;
  /** The messages sent to a number on a channel since a moment, newest first (the recovery of a lost send). */
  recentMessages(to: string, channel: 'sms' | 'whatsapp', since: Date): Promise<SentMessage[]>;
  /** The channels notices can go by: SMS, and WhatsApp when a WhatsApp sender is configured. */
  noticeChannels(): ('sms' | 'whatsapp')[];
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
  whatsappFrom: string | undefined;
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

function twilioProvider(
  whereP: Promise<Where>,
  timeoutMs: number,
  dlt: Config['sms']['dlt'],
  whatsapp: boolean,
): SmsProvider {
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
    async sendMessage(message) {
      const { client, accountSid, messagingServiceSid, whatsappFrom } = await ready;
      const data: Record<string, string> = { To: addressOf(message.to, message.channel) };
      if (messagingServiceSid) data.MessagingServiceSid = messagingServiceSid;
      if (message.channel === 'whatsapp') {
        if (!whatsappFrom) throw new SmsError('send message: no WhatsApp sender', undefined, undefined);
        data.From = whatsappFrom;
        // Outside a conversation the person started in the last 24 hours, WhatsApp delivers only approved
        // templates: the Content SID and its variables; the text alone serves the sandbox and the double.
        if (message.contentSid) {
          data.ContentSid = message.contentSid;
          data.ContentVariables = JSON.stringify(message.contentVariables ?? {});
        } else data.Body = message.body;
      } else {
        data.Body = message.body;
        // India's DLT: the registered header as the sender, the principal entity and the content template.
        // The package's typed options have no fields for them, so the form is posted through its client.
        if (dlt.senderId) data.From = dlt.senderId;
        else if (!messagingServiceSid) data.From = 'Nagai';
        if (dlt.entityId) data.DltEntityId = dlt.entityId;
        if (message.dltTemplateId) data.DltTemplateId = message.dltTemplateId;
      }
      const m = (await call('send message', () =>
        client.api.v2010.create({
          uri: `/Accounts/${accountSid}/Messages.json`,
          method: 'post',
          data,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        }),
      )) as { sid: string };
      return m.sid;
    },
    async recentMessages(to, channel, since) {
      const { client } = await ready;
      // By number only, newest first: a message still queued has no date_sent, so Twilio's DateSent filter
      // would hide it; the time is compared here on date_created.
      const list = await call('list messages', () =>
        client.messages.list({ to: addressOf(to, channel), limit: 50 }),
      );
      return list
        .map((m) => ({ sid: m.sid, to: m.to, body: m.body ?? '', createdAt: m.dateCreated }))
        .filter((m) => m.createdAt.getTime() >= since.getTime());
    },
    noticeChannels: () => (whatsapp ? ['sms', 'whatsapp'] : ['sms']),
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
export function createSmsProvider(
  config: Config,
  logger: Logger,
  clock?: { now(): Date },
): SmsProvider | undefined {
  const { twilio: settings, useDouble, timeoutMs, dlt } = config.sms;
  if (settings) return twilioProvider(Promise.resolve(settings), timeoutMs, dlt, !!settings.whatsappFrom);
  if (!useDouble) return undefined;
  const accountSid = 'AC' + crypto.randomBytes(16).toString('hex');
  const authToken = crypto.randomBytes(16).toString('hex');
  const verifyServiceSid = 'VA' + crypto.randomBytes(16).toString('hex');
  const started = startTwilioDouble({
    accountSid,
    authToken,
    verifyServiceSid,
    host: config.host,
    // The double keeps the app's time (tests and demos run the clock ahead), as Twilio keeps the real one.
    now: clock ? () => clock.now().getTime() : undefined,
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
      // The number of Twilio's WhatsApp sandbox, as a development setup would use.
      whatsappFrom: 'whatsapp:+14155238886',
      verifyUrl: double.url,
      apiUrl: double.url,
      double,
    };
  });
  return twilioProvider(started, timeoutMs, dlt, true);
}
