import { z } from 'zod';

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
  ADMIN_SIGNUP_CODE: z.string().min(1).optional(),
  TRUST_PROXY: bool.default(false),
  PUBLIC_ORIGIN: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  CALL_RING_TIMEOUT_MS: z.coerce.number().int().min(100).default(30000),
  VIDEO_PROVIDER: z.enum(['p2p', 'twilio']).optional(),
  ICE_SERVERS: z.string().optional(),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_API_KEY_SID: z.string().optional(),
  TWILIO_API_KEY_SECRET: z.string().optional(),
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
  seedDemo: boolean;
  adminSignupCode: string | undefined;
  trustProxy: boolean;
  publicOrigin: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  sessionTtlDays: number;
  callRingTimeoutMs: number;
  video: {
    provider: 'p2p' | 'twilio';
    iceServers: unknown[];
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
}

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
    // Embedded mode seeds an empty database by default; PostgreSQL only when asked.
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    adminSignupCode: e.ADMIN_SIGNUP_CODE,
    trustProxy: e.TRUST_PROXY,
    publicOrigin: e.PUBLIC_ORIGIN,
    logLevel: e.LOG_LEVEL,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    callRingTimeoutMs: e.CALL_RING_TIMEOUT_MS,
    video: { provider: e.VIDEO_PROVIDER ?? (twilio ? 'twilio' : 'p2p'), iceServers, twilio },
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
  };
  return { ...config, ...overrides };
}
