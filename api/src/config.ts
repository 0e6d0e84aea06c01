import { z } from 'zod';
import { HOLD_HOURS_DEFAULT } from '../contract/call-selling';
import { DEMO_PASSWORD } from './seeds/demo-accounts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./.data'),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DB_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).default(3000),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  SEED_DEMO: bool.optional(),
  SEED_DEMO_PASSWORD: z.string().min(8, 'at least 8 characters').optional(),
  ADMIN_SIGNUP_CODE: z.string().min(1).optional(),
  TRUST_PROXY: bool.default(false),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  REGISTRATION_LIMIT_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(500),
  LOGIN_FREE_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_DELAY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(1),
  LOGIN_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  LOGIN_FAILURES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(1000),
  PASSWORD_CHANGE_ATTEMPTS_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  CALL_INITIATE_LIMIT_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).default(5),
  SEARCH_LIMIT_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  UPLOAD_LIMIT_PER_USER_PER_HOUR: z.coerce.number().int().min(1).default(300),
  UNPAID_ORDERS_MAX_PER_CUSTOMER: z.coerce.number().int().min(1).max(1_000_000).default(3),
  UNPAID_ORDER_HOLD_MINUTES: z.coerce.number().int().min(1).max(43_200).default(1440),
  UNPAID_UNITS_MAX_PER_PRODUCT: z.coerce.number().int().min(1).max(1_000_000).default(5),
  UNPAID_UNITS_MAX_PER_SHOP: z.coerce.number().int().min(1).max(1_000_000).default(5),
  UNPAID_LAPSES_FREE: z.coerce.number().int().min(1).max(1000).default(2),
  UNPAID_LAPSE_WAIT_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  HOLD_HOURS: z.coerce.number().int().min(1).max(720).default(HOLD_HOURS_DEFAULT),
  CALLBACK_REQUESTS_PER_SHOP_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(3),
  BOOKINGS_PER_CUSTOMER_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(6),
  BOOKINGS_PER_CUSTOMER_PER_SHOP_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(3),
  ICE_SERVERS_LIMIT_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
  HOLDS_MAX_PER_CUSTOMER_PER_30_DAYS: z.coerce.number().int().min(1).max(100_000).default(20),
  RAZORPAY_KEY_ID: z.string().min(1).optional(),
  RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
  RAZORPAY_API_URL: z.string().url().default('https://api.razorpay.com'),
  RAZORPAY_CHECKOUT_URL: z.string().url().default('https://checkout.razorpay.com/v1/checkout.js'),
  RAZORPAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  PAYMENT_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  PAYOUT_RETURN_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  PLATFORM_COMMISSION_PERCENT: z.coerce.number().min(0).max(100).default(0),
  PAN_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  PUSH_ENDPOINT_HOSTS: z.string().optional(),
  /** Test only: the server's clock runs this far ahead (browser tests of scheduled work); refused in production. */
  CLOCK_OFFSET_MS: z.coerce.number().int().min(-31_536_000_000).max(31_536_000_000).default(0),
  PUBLIC_ORIGIN: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  CALL_RING_TIMEOUT_MS: z.coerce.number().int().min(100).default(30000),
  EVENT_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  VIDEO_PROVIDER: z.enum(['p2p', 'twilio']).optional(),
  ICE_SERVERS: z.string().optional(),
  TURN_URLS: z.string().optional(),
  TURN_SECRET: z.string().min(16).optional(),
  TURN_CREDENTIAL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_API_KEY_SID: z.string().optional(),
  TWILIO_API_KEY_SECRET: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
  TWILIO_VERIFY_SERVICE_SID: z.string().min(1).optional(),
  TWILIO_MESSAGING_SERVICE_SID: z.string().min(1).optional(),
  TWILIO_WHATSAPP_FROM: z
    .string()
    .regex(/^whatsapp:[+][1-9][0-9]{6,14}$/, 'a WhatsApp sender such as whatsapp:+919876543210')
    .optional(),
  WHATSAPP_CONTENT_SIDS: z.string().optional(),
  TWILIO_VERIFY_URL: z.string().url().default('https://verify.twilio.com'),
  TWILIO_API_URL: z.string().url().default('https://api.twilio.com'),
  TWILIO_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  MOBILE_CODES_PER_NUMBER_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  MOBILE_CODES_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(60),
  NOTICES_DAILY_CAP: z.coerce.number().int().min(1).max(1000).default(10),
  SMS_DLT_ENTITY_ID: z.string().min(1).optional(),
  SMS_DLT_SENDER_ID: z.string().min(1).optional(),
  SMS_DLT_TEMPLATE_IDS: z.string().optional(),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().optional(),
  STATIC_DIR: z.string().default('./dist'),
  SSR: bool.default(true),
  SSR_DIR: z.string().default('./dist-ssr'),
  SSR_MAX_RENDERS: z.coerce.number().int().min(1).max(1000).default(8),
  MEDIA_ALLOW_PRIVATE_URLS: bool.default(false),
  CATALOG_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).optional(),
  CATALOG_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(64),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
});

export type Env = z.infer<typeof EnvSchema>;

/** The server's whole configuration, parsed once from the environment. */
export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  db: { poolMax: number; connectionTimeoutMs: number; statementTimeoutMs: number };
  /** Load the demo data into an empty database at start (SEED_DEMO; in production only when set to true). */
  seedDemo: boolean;
  /**
   * The password every demo account gets (SEED_DEMO_PASSWORD; outside production the published DEMO_PASSWORD by
   * default). Undefined in production unless set: each demo account then gets a fresh random password, printed
   * once at start. The published password is refused in production.
   */
  demoPassword: string | undefined;
  adminSignupCode: string | undefined;
  trustProxy: boolean;
  /** Behind TRUST_PROXY, the client address is this many entries from the right of X-Forwarded-For. */
  trustedProxyHops: number;
  /** Abuse limits (see README's configuration table and docs/security.md). */
  limits: Limits;
  /** Unpaid orders: how many a customer may hold open, and how long their stock stays reserved. */
  unpaidOrders: {
    maxPerCustomer: number;
    holdMs: number;
    /** Units of one product (with counted stock) a customer may have in open unpaid orders. */
    maxUnitsPerProduct: number;
    /**
     * Units of one shop's products (with counted stock) a customer may have in open unpaid orders, all products
     * together: pieces of one unit each are most of a catalogue, so a cap per product alone freezes nothing.
     */
    maxUnitsPerShop: number;
    /** Lapses (online orders cancelled unpaid at their deadline) in 24 h before checkouts wait… */
    freeLapses: number;
    /** …this long after the latest, doubled for each further lapse (at most a day). */
    lapseWaitMs: number;
  };
  /** How long a piece held in a call stays reserved for the customer (HOLD_HOURS), in ms. */
  productHoldMs: number;
  /** Holds a customer may take in 30 days (HOLDS_MAX_PER_CUSTOMER_PER_30_DAYS). */
  holdsPerCustomerPer30Days: number;
  /** Call-back requests and bookings a customer may make in 24 hours (withdrawn and cancelled ones count). */
  schedule: { callbacksPerShopPerDay: number; bookingsPerDay: number; bookingsPerShopPerDay: number };
  /** Payments (issue #24, docs/product-rules.md "Payments"). */
  payments: PaymentsConfig;
  /** Mobile sign-in codes and notices by SMS (issue #37, docs/operations.md "SMS and WhatsApp"). */
  sms: SmsConfig;
  /** Hosts a push subscription's endpoint may point at (`*.` prefix: any subdomain; `host:port`: that port). */
  pushEndpointHosts: string[];
  /** CLOCK_OFFSET_MS: how far ahead the server's clock runs (0 outside tests; never set in production). */
  clockOffsetMs: number;
  publicOrigin: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  sessionTtlDays: number;
  callRingTimeoutMs: number;
  /** How often an open event stream sends a heartbeat (and its session is checked). */
  eventStreamHeartbeatMs: number;
  video: {
    provider: 'p2p' | 'twilio';
    iceServers: unknown[];
    /** Our own relay (coturn with use-auth-secret): per-participant credentials are minted per call. */
    turn?: { urls: string[]; secret: string; ttlSeconds: number };
    twilio?: { accountSid: string; apiKeySid: string; apiKeySecret: string };
  };
  vapid?: { publicKey: string; privateKey: string; subject: string };
  staticDir: string;
  /** The server renderer of the catalogue pages (`vite build --ssr`); undefined: the app shell only. */
  ssrDir: string | undefined;
  /** Pages rendered at once; a request beyond that gets the shell (a render costs tens of ms of CPU). */
  ssrMaxRenders: number;
  /** Let image URLs point at loopback/private addresses (local development only; an SSRF risk otherwise). */
  mediaAllowPrivateUrls: boolean;
  /** Public catalogue answers served from memory for this long (0: off; off by default in tests). */
  catalogCache: { ttlMs: number; maxBytes: number };
  /** Prometheus metrics: a separate listener (port, host) and/or a token for GET /metrics; none by default. */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /** On SIGTERM, how long readiness fails (and requests are still served) before the process stops listening. */
  shutdownDrainMs: number;
}

export interface PaymentsConfig {
  /** Razorpay with real keys (live or test mode); undefined: the test double outside production, else none. */
  razorpay?: {
    keyId: string;
    keySecret: string;
    webhookSecret: string;
    apiUrl: string;
    checkoutUrl: string;
    timeoutMs: number;
  };
  /** No keys outside production: the app starts the Razorpay test double (api/src/doubles/razorpay-double.ts). */
  useDouble: boolean;
  /** Online orders not paid this long after checkout are cancelled and their stock returns. */
  windowMs: number;
  /** PLATFORM_COMMISSION_PERCENT in hundredths of a percent (2.5% → 250). */
  commissionBasisPoints: number;
  /** A paid order is paid out to its shop only once delivered and this long after (PAYOUT_RETURN_WINDOW_DAYS). */
  returnWindowMs: number;
  /** The AES-256-GCM key that encrypts buyers' PANs at rest. */
  panKey: Buffer;
  timeoutMs: number;
}

/** The development key for PANs (never accepted in production, where PAN_ENCRYPTION_KEY is required). */
const DEVELOPMENT_PAN_KEY = 'd3c0de5eeded0f0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081';

function paymentsConfig(e: Env): PaymentsConfig {
  const keys = [e.RAZORPAY_KEY_ID, e.RAZORPAY_KEY_SECRET, e.RAZORPAY_WEBHOOK_SECRET];
  if (keys.some(Boolean) && !keys.every(Boolean)) {
    throw new Error(
      'Invalid environment:\nRAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET: set all three or none',
    );
  }
  const production = e.NODE_ENV === 'production';
  if (production && !e.PAN_ENCRYPTION_KEY) {
    throw new Error(
      'Invalid environment:\nPAN_ENCRYPTION_KEY: required in production (64 hexadecimal characters)',
    );
  }
  if (production && e.PAN_ENCRYPTION_KEY?.toLowerCase() === DEVELOPMENT_PAN_KEY) {
    throw new Error(
      'Invalid environment:\nPAN_ENCRYPTION_KEY: the development key cannot be used in production',
    );
  }
  return {
    razorpay: e.RAZORPAY_KEY_ID
      ? {
          keyId: e.RAZORPAY_KEY_ID,
          keySecret: e.RAZORPAY_KEY_SECRET!,
          webhookSecret: e.RAZORPAY_WEBHOOK_SECRET!,
          apiUrl: e.RAZORPAY_API_URL,
          checkoutUrl: e.RAZORPAY_CHECKOUT_URL,
          timeoutMs: e.RAZORPAY_TIMEOUT_MS,
        }
      : undefined,
    // Production never runs the double: without keys it offers cash on delivery only.
    useDouble: !e.RAZORPAY_KEY_ID && !production,
    windowMs: e.PAYMENT_WINDOW_MINUTES * 60_000,
    commissionBasisPoints: Math.round(e.PLATFORM_COMMISSION_PERCENT * 100),
    returnWindowMs: e.PAYOUT_RETURN_WINDOW_DAYS * 86_400_000,
    panKey: Buffer.from(e.PAN_ENCRYPTION_KEY ?? DEVELOPMENT_PAN_KEY, 'hex'),
    timeoutMs: e.RAZORPAY_TIMEOUT_MS,
  };
}

export interface SmsConfig {
  /** Twilio Verify (codes) and Messaging (notices); undefined: the test double outside production, else none. */
  twilio?: {
    accountSid: string;
    authToken: string;
    verifyServiceSid: string;
    messagingServiceSid: string | undefined;
    /** The WhatsApp sender of notices ("whatsapp:+91…"); without it notices go by SMS only. */
    whatsappFrom: string | undefined;
    verifyUrl: string;
    apiUrl: string;
  };
  /** No Twilio settings outside production: the app starts api/src/doubles/twilio-double.ts. */
  useDouble: boolean;
  timeoutMs: number;
  codesPerNumberPerHour: number;
  codesPerIpPerHour: number;
  /** Notices one person gets at most per day (their local day). */
  noticesDailyCap: number;
  /** India's DLT registration: the principal entity, the sender (header) and each template's id. */
  dlt: { entityId: string | undefined; senderId: string | undefined; templateIds: Record<string, string> };
  /** WhatsApp's approved message templates (Twilio Content SIDs, "HX…") by "<notice>.<en|ta>". */
  whatsappContentSids: Record<string, string>;
}

/** A JSON object of strings from an environment variable, or a readable error. */
function stringMap(value: string | undefined, name: string, what: string): Record<string, string> {
  if (!value) return {};
  try {
    const v: unknown = JSON.parse(value);
    if (
      !v ||
      typeof v !== 'object' ||
      Array.isArray(v) ||
      Object.values(v).some((x) => typeof x !== 'string')
    )
      throw new Error('not an object of strings');
    return v as Record<string, string>;
  } catch {
    throw new Error(`Invalid environment:\n${name}: a JSON object from "<notice>.<en|ta>" to ${what}`);
  }
}

function smsConfig(e: Env): SmsConfig {
  const production = e.NODE_ENV === 'production';
  const configured = !!(e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_VERIFY_SERVICE_SID);
  const templateIds = stringMap(e.SMS_DLT_TEMPLATE_IDS, 'SMS_DLT_TEMPLATE_IDS', 'the DLT template id');
  const whatsappContentSids = stringMap(
    e.WHATSAPP_CONTENT_SIDS,
    'WHATSAPP_CONTENT_SIDS',
    "the WhatsApp template's Content SID",
  );
  return {
    twilio: configured
      ? {
          accountSid: e.TWILIO_ACCOUNT_SID!,
          authToken: e.TWILIO_AUTH_TOKEN!,
          verifyServiceSid: e.TWILIO_VERIFY_SERVICE_SID!,
          messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID,
          whatsappFrom: e.TWILIO_WHATSAPP_FROM,
          verifyUrl: e.TWILIO_VERIFY_URL,
          apiUrl: e.TWILIO_API_URL,
        }
      : undefined,
    // Production never runs the double: without Twilio it offers e-mail sign-in only.
    useDouble: !configured && !production,
    timeoutMs: e.TWILIO_TIMEOUT_MS,
    codesPerNumberPerHour: e.MOBILE_CODES_PER_NUMBER_PER_HOUR,
    codesPerIpPerHour: e.MOBILE_CODES_PER_IP_PER_HOUR,
    noticesDailyCap: e.NOTICES_DAILY_CAP,
    dlt: { entityId: e.SMS_DLT_ENTITY_ID, senderId: e.SMS_DLT_SENDER_ID, templateIds },
    whatsappContentSids,
  };
}

export interface Limits {
  registrationPerIpPerHour: number;
  /** Failed logins per account and address before each further attempt has to wait. */
  loginFreeAttempts: number;
  /** The first wait after the free attempts; it doubles with every further failure, up to loginDelayMaxMs. */
  loginDelayBaseMs: number;
  loginDelayMaxMs: number;
  /** A loose outer bound per address across all accounts (a carrier NAT holds thousands of customers). */
  loginFailuresPerIpPerHour: number;
  passwordChangeAttemptsPerUser: number;
  callInitiatePerUserPerMinute: number;
  searchPerIpPerMinute: number;
  uploadsPerUserPerHour: number;
  /** Answers of GET /_api/video/ice-servers per user per minute (each mints relay credentials). */
  iceServersPerUserPerMinute: number;
}

/** The push services browsers subscribe with: Chrome/Edge/Samsung (FCM), Firefox, Safari, Windows (WNS). */
export const DEFAULT_PUSH_ENDPOINT_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  const twilio =
    e.TWILIO_ACCOUNT_SID && e.TWILIO_API_KEY_SID && e.TWILIO_API_KEY_SECRET
      ? {
          accountSid: e.TWILIO_ACCOUNT_SID,
          apiKeySid: e.TWILIO_API_KEY_SID,
          apiKeySecret: e.TWILIO_API_KEY_SECRET,
        }
      : undefined;
  let iceServers: unknown[] = [];
  if (e.ICE_SERVERS) {
    try {
      const v: unknown = JSON.parse(e.ICE_SERVERS);
      if (!Array.isArray(v)) throw new Error('not an array');
      iceServers = v;
    } catch {
      throw new Error('Invalid environment:\nICE_SERVERS: must be a JSON array of RTCIceServer objects');
    }
  }
  const turnUrls = (e.TURN_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (turnUrls.some((u) => !/^turns?:[^\s]+$/.test(u))) {
    throw new Error('Invalid environment:\nTURN_URLS: a comma-separated list of turn: or turns: URLs');
  }
  if (turnUrls.length > 0 && !e.TURN_SECRET) {
    throw new Error('Invalid environment:\nTURN_SECRET: required with TURN_URLS (at least 16 characters)');
  }
  const turn =
    turnUrls.length > 0 && e.TURN_SECRET
      ? { urls: turnUrls, secret: e.TURN_SECRET, ttlSeconds: e.TURN_CREDENTIAL_TTL_SECONDS }
      : undefined;
  if (e.NODE_ENV === 'production' && e.SEED_DEMO_PASSWORD === DEMO_PASSWORD) {
    throw new Error(
      'Invalid environment:\nSEED_DEMO_PASSWORD: the published demo password cannot be used in production',
    );
  }
  if (e.NODE_ENV === 'production' && e.CLOCK_OFFSET_MS !== 0) {
    throw new Error('Invalid environment:\nCLOCK_OFFSET_MS: a test setting, refused in production');
  }
  const pushHosts = e.PUSH_ENDPOINT_HOSTS
    ? e.PUSH_ENDPOINT_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : DEFAULT_PUSH_ENDPOINT_HOSTS;
  if (pushHosts.some((h) => !/^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/.test(h))) {
    throw new Error(
      'Invalid environment:\nPUSH_ENDPOINT_HOSTS: comma-separated host names (*.example.com for subdomains, host:port for a port)',
    );
  }
  const config: Config = {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    db: {
      poolMax: e.DB_POOL_MAX,
      connectionTimeoutMs: e.DB_CONNECTION_TIMEOUT_MS,
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    },
    // Development on the embedded database seeds an empty database by default; PostgreSQL and production only
    // when asked by name (docs/security.md, "Demo accounts in production").
    seedDemo: e.SEED_DEMO ?? (!e.DATABASE_URL && e.NODE_ENV !== 'production'),
    demoPassword: e.SEED_DEMO_PASSWORD ?? (e.NODE_ENV === 'production' ? undefined : DEMO_PASSWORD),
    adminSignupCode: e.ADMIN_SIGNUP_CODE,
    trustProxy: e.TRUST_PROXY,
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    limits: {
      registrationPerIpPerHour: e.REGISTRATION_LIMIT_PER_IP_PER_HOUR,
      loginFreeAttempts: e.LOGIN_FREE_ATTEMPTS,
      loginDelayBaseMs: e.LOGIN_DELAY_BASE_SECONDS * 1000,
      loginDelayMaxMs: Math.max(e.LOGIN_DELAY_BASE_SECONDS, e.LOGIN_DELAY_MAX_SECONDS) * 1000,
      loginFailuresPerIpPerHour: e.LOGIN_FAILURES_PER_IP_PER_HOUR,
      passwordChangeAttemptsPerUser: e.PASSWORD_CHANGE_ATTEMPTS_PER_USER,
      callInitiatePerUserPerMinute: e.CALL_INITIATE_LIMIT_PER_USER_PER_MINUTE,
      searchPerIpPerMinute: e.SEARCH_LIMIT_PER_IP_PER_MINUTE,
      uploadsPerUserPerHour: e.UPLOAD_LIMIT_PER_USER_PER_HOUR,
      iceServersPerUserPerMinute: e.ICE_SERVERS_LIMIT_PER_USER_PER_MINUTE,
    },
    unpaidOrders: {
      maxPerCustomer: e.UNPAID_ORDERS_MAX_PER_CUSTOMER,
      holdMs: e.UNPAID_ORDER_HOLD_MINUTES * 60_000,
      maxUnitsPerProduct: e.UNPAID_UNITS_MAX_PER_PRODUCT,
      maxUnitsPerShop: e.UNPAID_UNITS_MAX_PER_SHOP,
      freeLapses: e.UNPAID_LAPSES_FREE,
      lapseWaitMs: e.UNPAID_LAPSE_WAIT_MINUTES * 60_000,
    },
    productHoldMs: e.HOLD_HOURS * 3_600_000,
    holdsPerCustomerPer30Days: e.HOLDS_MAX_PER_CUSTOMER_PER_30_DAYS,
    schedule: {
      callbacksPerShopPerDay: e.CALLBACK_REQUESTS_PER_SHOP_PER_DAY,
      bookingsPerDay: e.BOOKINGS_PER_CUSTOMER_PER_DAY,
      bookingsPerShopPerDay: e.BOOKINGS_PER_CUSTOMER_PER_SHOP_PER_DAY,
    },
    payments: paymentsConfig(e),
    sms: smsConfig(e),
    pushEndpointHosts: pushHosts,
    clockOffsetMs: e.CLOCK_OFFSET_MS,
    publicOrigin: e.PUBLIC_ORIGIN,
    logLevel: e.LOG_LEVEL,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    callRingTimeoutMs: e.CALL_RING_TIMEOUT_MS,
    eventStreamHeartbeatMs: e.EVENT_STREAM_HEARTBEAT_MS,
    video: { provider: e.VIDEO_PROVIDER ?? (twilio ? 'twilio' : 'p2p'), iceServers, turn, twilio },
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? {
            publicKey: e.VAPID_PUBLIC_KEY,
            privateKey: e.VAPID_PRIVATE_KEY,
            subject: e.VAPID_SUBJECT ?? 'mailto:support@nagai.test',
          }
        : undefined,
    staticDir: e.STATIC_DIR,
    ssrDir: e.SSR ? e.SSR_DIR : undefined,
    ssrMaxRenders: e.SSR_MAX_RENDERS,
    mediaAllowPrivateUrls: e.MEDIA_ALLOW_PRIVATE_URLS,
    catalogCache: {
      ttlMs: e.CATALOG_CACHE_TTL_MS ?? (e.NODE_ENV === 'test' ? 0 : 5000),
      maxBytes: e.CATALOG_CACHE_MAX_MB * 1024 * 1024,
    },
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
  };
  return { ...config, ...overrides };
}

/**
 * What the server process needs beyond a valid configuration: in production, PUBLIC_ORIGIN, the address people
 * reach the site at. Canonical links, og:url, sitemap.xml and robots.txt (cached for an hour) name the site by it,
 * never by a request's Host header (docs/security.md).
 */
export function checkServerConfig(config: Config): void {
  if (config.env === 'production' && !config.publicOrigin) {
    throw new Error(
      'Invalid environment:\nPUBLIC_ORIGIN: required in production (the address people reach the site at, for example https://nagai.in)',
    );
  }
}
