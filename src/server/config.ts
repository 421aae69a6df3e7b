import { isIP } from 'node:net';
import { z } from 'zod';
import { type BeaconChain, QUICKNET } from '../shared/beacon.ts';

const booleanFromEnv = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((value) => value === 'true' || value === '1');

/** Secrets that every instance must share, and why (config refuses to start without them). */
const SHARED_SECRETS = [
  ['JWT_SECRET', 'a token signed by one instance must verify on the others'],
  [
    'KYC_HASH_KEY',
    'one BVN or NIN must hash alike on every instance (an existing DATA_DIR/kyc-hash-key holds the value to keep)',
  ],
] as const;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce
    .number({ error: 'PORT must be a number' })
    .int('PORT must be a whole number')
    .min(0, 'PORT must be between 0 and 65535')
    .max(65535, 'PORT must be between 0 and 65535')
    .default(3000),
  PUBLIC_URL: z.url({ error: 'PUBLIC_URL must be a URL such as https://pluckers.ng' }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(
      /^postgres(ql)?:\/\//,
      'DATABASE_DIRECT_URL must start with postgres:// or postgresql://',
    )
    .optional(),
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: 'DATABASE_POOL_SIZE must be a number of connections' })
    .int('DATABASE_POOL_SIZE must be a whole number')
    .min(1, 'DATABASE_POOL_SIZE must be at least 1')
    .max(500, 'DATABASE_POOL_SIZE must be at most 500')
    .default(20),
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  SMTP_URL: z.url({ error: 'SMTP_URL must be a URL such as smtp://user:pass@host:587' }).optional(),
  MAIL_FROM: z.string().default('Pluckers <no-reply@localhost>'),
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{87}$/,
      'VAPID_PUBLIC_KEY must be a base64url P-256 public key (87 characters)',
    )
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(
      /^[A-Za-z0-9_-]{43}$/,
      'VAPID_PRIVATE_KEY must be a base64url P-256 private key (43 characters)',
    )
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(
      /^(mailto:|https:\/\/)\S+$/,
      'VAPID_SUBJECT must be a mailto: address or an https:// URL',
    )
    .optional(),
  PUSH_SERVICE_HOSTS: z.string().optional(),
  PUSH_ALLOW_LOCAL_ENDPOINTS: booleanFromEnv('PUSH_ALLOW_LOCAL_ENDPOINTS').default(false),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z
    .url({ error: 'GOOGLE_ISSUER must be a URL' })
    .default('https://accounts.google.com'),
  ADMIN_EMAIL: z.email({ error: 'ADMIN_EMAIL must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
  SEED_DEMO: booleanFromEnv('SEED_DEMO').default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default('dist/web'),
  PAYSTACK_SECRET_KEY: z.string().optional(),
  PAYSTACK_BASE_URL: z
    .url({ error: 'PAYSTACK_BASE_URL must be a URL' })
    .default('https://api.paystack.co'),
  TRANSACTPAY_PUBLIC_KEY: z.string().optional(),
  TRANSACTPAY_SECRET_KEY: z.string().optional(),
  TRANSACTPAY_ENCRYPTION_KEY: z.string().optional(),
  TRANSACTPAY_BASE_URL: z
    .url({ error: 'TRANSACTPAY_BASE_URL must be a URL' })
    .default('https://payment-api-service.transactpay.ai'),
  FLUTTERWAVE_SECRET_KEY: z.string().optional(),
  /** The "secret hash" of Flutterwave's dashboard, which it sends back in `verif-hash`. */
  FLUTTERWAVE_WEBHOOK_HASH: z.string().optional(),
  FLUTTERWAVE_BASE_URL: z
    .url({ error: 'FLUTTERWAVE_BASE_URL must be a URL' })
    .default('https://api.flutterwave.com'),
  JOB_POLL_MS: z.coerce
    .number({ error: 'JOB_POLL_MS must be a number of milliseconds' })
    .int('JOB_POLL_MS must be a whole number')
    .min(0, 'JOB_POLL_MS must be 0 (off) or more')
    .default(10_000),
  PAYMENTS_SANDBOX: booleanFromEnv('PAYMENTS_SANDBOX').optional(),
  BEACON_URL: z
    .url({ protocol: /^https?$/, error: 'BEACON_URL must be an http(s) URL' })
    .default('https://api.drand.sh'),
  BEACON_CHAIN_HASH: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'BEACON_CHAIN_HASH must be 64 lower-case hex digits')
    .optional(),
  BEACON_PUBLIC_KEY: z
    .string()
    .regex(/^[0-9a-f]{192}$/, 'BEACON_PUBLIC_KEY must be a 96-byte G2 key in hex')
    .optional(),
  BEACON_GENESIS_TIME: z.coerce
    .number({ error: 'BEACON_GENESIS_TIME must be a number of Unix seconds' })
    .int('BEACON_GENESIS_TIME must be a whole number')
    .min(0, 'BEACON_GENESIS_TIME must be 0 or more')
    .optional(),
  BEACON_PERIOD: z.coerce
    .number({ error: 'BEACON_PERIOD must be a number of seconds' })
    .int('BEACON_PERIOD must be a whole number')
    .min(1, 'BEACON_PERIOD must be at least 1')
    .optional(),
  /** Dojah (https://api.dojah.io): the app's AppId and its secret key, sent as Authorization. */
  KYC_APP_ID: z.string().optional(),
  KYC_SECRET_KEY: z.string().optional(),
  KYC_BASE_URL: z.url({ error: 'KYC_BASE_URL must be a URL' }).default('https://api.dojah.io'),
  KYC_SANDBOX: booleanFromEnv('KYC_SANDBOX').optional(),
  KYC_SANDBOX_IN_PRODUCTION: booleanFromEnv('KYC_SANDBOX_IN_PRODUCTION').default(false),
  KYC_HASH_KEY: z.string().min(32, 'KYC_HASH_KEY must be at least 32 characters').optional(),
  PAYMENTS_SANDBOX_IN_PRODUCTION: booleanFromEnv('PAYMENTS_SANDBOX_IN_PRODUCTION').default(false),
  TRUST_PROXY: z.string().optional(),
  CORS_ORIGINS: z.string().optional(),
  RATE_LIMIT_MAX: z.coerce
    .number({ error: 'RATE_LIMIT_MAX must be a number of requests' })
    .int('RATE_LIMIT_MAX must be a whole number')
    .min(1, 'RATE_LIMIT_MAX must be at least 1')
    .default(600),
  SHUTDOWN_DELAY_MS: z.coerce
    .number({ error: 'SHUTDOWN_DELAY_MS must be a number of milliseconds' })
    .int('SHUTDOWN_DELAY_MS must be a whole number')
    .min(0, 'SHUTDOWN_DELAY_MS must be 0 or more')
    .max(120_000, 'SHUTDOWN_DELAY_MS must be at most 120000')
    .optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ error: 'SHUTDOWN_TIMEOUT_MS must be a number of milliseconds' })
    .int('SHUTDOWN_TIMEOUT_MS must be a whole number')
    .min(1, 'SHUTDOWN_TIMEOUT_MS must be at least 1')
    .default(10_000),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens',
    )
    .optional(),
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error: 'S3_ENDPOINT must be an http(s) URL such as http://127.0.0.1:9000',
    })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'S3_REGION must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv('S3_FORCE_PATH_STYLE').optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
    .optional(),
  METRICS_PORT: z.coerce
    .number({ error: 'METRICS_PORT must be a number' })
    .int('METRICS_PORT must be a whole number')
    .min(0, 'METRICS_PORT must be between 0 and 65535')
    .max(65535, 'METRICS_PORT must be between 0 and 65535')
    .optional(),
});

export type Env = z.input<typeof envSchema>;
/** Every variable the server reads (docs/configuration.md). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  databaseUrl: string | undefined;
  /**
   * Set when `databaseUrl` goes through a transaction pooler (PgBouncer): PostgreSQL itself, for
   * what needs a session of its own (the LISTEN connection, the migration lock, the readiness
   * probe). Unset, `databaseUrl` carries those too.
   */
  databaseDirectUrl: string | undefined;
  /**
   * PostgreSQL connections this instance may open for queries (two more are its own: change
   * notifications and the readiness probe). Instances × (pool + 2) must fit max_connections.
   */
  databasePoolSize: number;
  dataDir: string;
  jwtSecret: string | undefined;
  /**
   * Web Push (VAPID): the configured key pair (both or neither; unset, one is generated once and
   * kept in DATA_DIR) and the contact push services may write to.
   */
  vapid: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string;
  /**
   * Where pushes may be posted: https endpoints on these push services' host names (`*.suffix`
   * for any name under it), resolving to public addresses. `allowLocalEndpoints` also accepts
   * loopback, for the tests' local push service; production refuses it.
   */
  push: { serviceHosts: string[]; allowLocalEndpoints: boolean };
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  logLevel: string;
  webDist: string;
  /**
   * The worker's fallback tick (it wakes on queued jobs and on deadlines anyway); 0 turns the
   * worker off (tests drive jobs themselves).
   */
  jobPollMs: number;
  /** Requests per minute one client address may make to /api (load tests raise it). */
  rateLimitMax: number;
  /**
   * Which reverse proxies' X-Forwarded-For is believed (Fastify's `trustProxy`): false trusts
   * nothing and uses the socket address; a number trusts that many hops; a list trusts those
   * addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  /**
   * Origins (`https://app.example.ng`) whose pages may call the API from the browser; empty, only
   * pages this server serves may.
   */
  corsOrigins: string[];
  /**
   * On SIGTERM, how long the server keeps serving while /api/health/ready answers 503, so a
   * load balancer can take it out of rotation before the listener closes.
   */
  shutdownDelayMs: number;
  /** After that delay, how long in-flight requests and the running job tick may take. */
  shutdownTimeoutMs: number;
  /**
   * The payments sandbox, one switch for the whole server: on, every method (and payouts) runs
   * on this server's own test checkout; off, a method without credentials is unavailable.
   */
  paymentsSandbox: boolean;
  /** The public randomness beacon draws wait for (drand quicknet unless overridden). */
  beacon: { url: string; chain: BeaconChain };
  /**
   * Identity checks (KYC tier 2): Dojah live, the built-in sandbox (documented test numbers,
   * no provider called), or unavailable. hashKey keys the stored hashes of BVNs and NINs.
   */
  kyc: {
    mode: 'live' | 'sandbox' | 'unavailable';
    appId: string;
    secretKey: string;
    baseUrl: string;
    hashKey: string | undefined;
  };
  flutterwave: { secretKey: string; webhookHash: string; baseUrl: string } | undefined;
  paystack: { secretKey: string; baseUrl: string } | undefined;
  /**
   * S3-compatible object storage for uploaded files; unset, they are kept in the database.
   * Either way every instance serves the same files.
   */
  s3: S3Config | undefined;
  transactpay:
    | { publicKey: string; secretKey: string; encryptionKey: string; baseUrl: string }
    | undefined;
  /**
   * Where `GET /metrics` is served: on `port`, a listener of its own (not behind the public
   * balancer), else on the main port; with `token`, only to `Authorization: Bearer <token>`.
   * Neither set: nowhere.
   */
  metrics: { token: string | undefined; port: number | undefined };
}

export interface S3Config {
  bucket: string;
  /** Unset: AWS S3 itself. */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key`. */
  forcePathStyle: boolean;
}

export class ConfigError extends Error {}

const TRUST_PROXY_MESSAGE =
  'TRUST_PROXY must be a hop count (e.g. 1) or a comma-separated list of proxy addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)';
/** Ranges proxy-addr (Fastify's trustProxy) knows by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `true` (trust any X-Forwarded-For) is refused on purpose: behind no proxy, or a proxy that
 * appends rather than replaces, it lets every client choose its own address and so its own
 * rate-limit budget.
 */
function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (value === undefined) return false;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops > 10) throw new ConfigError(`Invalid TRUST_PROXY: ${TRUST_PROXY_MESSAGE}`);
    return hops === 0 ? false : hops;
  }
  const entries = trimmed
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0 || !entries.every(isAddressOrRange))
    throw new ConfigError(`Invalid TRUST_PROXY: ${TRUST_PROXY_MESSAGE}`);
  return entries;
}

const CORS_ORIGINS_MESSAGE =
  'CORS_ORIGINS must be a comma-separated list of origins such as https://app.example.ng (scheme, host and port if not the default; no path)';

/**
 * Browsers send `Origin` as scheme://host[:port] and the allow-list is compared with it as a
 * string, so an entry with a path, a default port or capitals could never match: refused here
 * rather than silently allowing nothing. `*` is refused too: any site could then have its
 * visitors' browsers call the API and read the answers, each from the visitor's own address
 * and so with the visitor's rate-limit budget.
 */
function parseCorsOrigins(value: string | undefined): string[] {
  if (value === undefined) return [];
  const entries = value
    .split(',')
    .map((entry) => entry.trim().replace(/\/$/, ''))
    .filter(Boolean);
  const isOrigin = (entry: string) => {
    if (!URL.canParse(entry)) return false;
    const url = new URL(entry);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === entry;
  };
  if (entries.length === 0 || !entries.every(isOrigin))
    throw new ConfigError(`Invalid CORS_ORIGINS: ${CORS_ORIGINS_MESSAGE}`);
  return [...new Set(entries)];
}

const TRANSACTPAY_KEYS = [
  'TRANSACTPAY_PUBLIC_KEY',
  'TRANSACTPAY_SECRET_KEY',
  'TRANSACTPAY_ENCRYPTION_KEY',
] as const;

const FLUTTERWAVE_KEYS = ['FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_WEBHOOK_HASH'] as const;

const S3_REQUIRED = ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_OPTIONAL = ['S3_ENDPOINT', 'S3_REGION', 'S3_FORCE_PATH_STYLE'] as const;

/**
 * Any S3_* variable asks for object storage, so a missing one is a mistake to stop on rather
 * than a reason to fall back quietly to the database: photos would land there while the
 * operator believes they are in the bucket.
 */
function parseS3(
  e: z.output<typeof envSchema>,
  present: Record<string, string | undefined>,
): S3Config | undefined {
  const asked = [...S3_REQUIRED, ...S3_OPTIONAL].some((name) => present[name] !== undefined);
  if (!asked) return undefined;
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secret } = e;
  if (!bucket || !accessKeyId || !secret)
    throw new ConfigError(
      `Invalid ${S3_REQUIRED.find((name) => !e[name])}: set ${S3_REQUIRED.join(', ')} together (and S3_ENDPOINT for storage other than AWS), or no S3_* variable at all`,
    );
  return {
    bucket,
    endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
    region: e.S3_REGION,
    accessKeyId,
    secretAccessKey: secret,
    // Self-hosted servers (MinIO, Garage, SeaweedFS…) rarely have a DNS name per bucket.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
  };
}

/**
 * Sandbox money must never meet live money: with any live key the sandbox cannot be switched
 * on, and a production server only runs it when told twice. Unset, it is on only where nothing
 * is configured and the server is not in production (a developer's machine, the tests).
 */
function decidePaymentsSandbox(e: z.output<typeof envSchema>): boolean {
  const liveKeys = [
    ...(e.PAYSTACK_SECRET_KEY ? ['PAYSTACK_SECRET_KEY'] : []),
    ...TRANSACTPAY_KEYS.filter((name) => e[name]),
    ...FLUTTERWAVE_KEYS.filter((name) => e[name]),
  ];
  if (e.PAYMENTS_SANDBOX === true && liveKeys.length > 0)
    throw new ConfigError(
      `Invalid PAYMENTS_SANDBOX: the sandbox cannot run next to live payment keys (${liveKeys.join(', ')}); unset one or the other`,
    );
  const sandbox = e.PAYMENTS_SANDBOX ?? (liveKeys.length === 0 && e.NODE_ENV !== 'production');
  if (sandbox && e.NODE_ENV === 'production' && !e.PAYMENTS_SANDBOX_IN_PRODUCTION)
    throw new ConfigError(
      'Invalid PAYMENTS_SANDBOX: the payments sandbox (test money) is refused with NODE_ENV=production; set PAYMENTS_SANDBOX_IN_PRODUCTION=true to force it',
    );
  return sandbox;
}

const KYC_KEYS = ['KYC_APP_ID', 'KYC_SECRET_KEY'] as const;

/**
 * The same two switches as the payments sandbox: invented identities must never verify a real
 * account next to live keys, and a production server only runs the sandbox when told twice.
 */
function decideKyc(e: z.output<typeof envSchema>): AppConfig['kyc'] {
  const keys = KYC_KEYS.filter((name) => e[name]);
  if (keys.length === 1)
    throw new ConfigError(
      `Invalid ${KYC_KEYS.find((name) => !e[name])}: set ${KYC_KEYS.join(', ')} together, or neither`,
    );
  const live = keys.length === 2;
  if (e.KYC_SANDBOX === true && live)
    throw new ConfigError(
      'Invalid KYC_SANDBOX: the identity sandbox cannot run next to live KYC keys (KYC_APP_ID, KYC_SECRET_KEY); unset one or the other',
    );
  const sandbox = e.KYC_SANDBOX ?? (!live && e.NODE_ENV !== 'production');
  if (sandbox && e.NODE_ENV === 'production' && !e.KYC_SANDBOX_IN_PRODUCTION)
    throw new ConfigError(
      'Invalid KYC_SANDBOX: the identity sandbox (test identities) is refused with NODE_ENV=production; set KYC_SANDBOX_IN_PRODUCTION=true to force it',
    );
  return {
    mode: live ? 'live' : sandbox ? 'sandbox' : 'unavailable',
    appId: e.KYC_APP_ID ?? '',
    secretKey: e.KYC_SECRET_KEY ?? '',
    baseUrl: e.KYC_BASE_URL.replace(/\/$/, ''),
    hashKey: e.KYC_HASH_KEY,
  };
}

/** The push services browsers subscribe with: Chrome's FCM, Firefox's, Safari's, Edge's WNS. */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  '*.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

const PUSH_SERVICE_HOSTS_MESSAGE =
  'PUSH_SERVICE_HOSTS must be a comma-separated list of host names, each optionally starting with *. for any name under it (e.g. fcm.googleapis.com,*.push.services.mozilla.com)';
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function parsePushServiceHosts(value: string | undefined): string[] {
  if (value === undefined) return [...DEFAULT_PUSH_SERVICE_HOSTS];
  const entries = value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  // An address is not a push service's name; a bare `*` or `*.ng` would let in nearly anything.
  const valid = (entry: string) => {
    const name = entry.startsWith('*.') ? entry.slice(2) : entry;
    return (
      HOST_NAME.test(name) &&
      isIP(name) === 0 &&
      !/^[0-9.]+$/.test(name) &&
      (entry === name || name.includes('.'))
    );
  };
  if (entries.length === 0 || !entries.every(valid))
    throw new ConfigError(`Invalid PUSH_SERVICE_HOSTS: ${PUSH_SERVICE_HOSTS_MESSAGE}`);
  return [...new Set(entries)];
}

/** Push services want a contact: the sender's address unless VAPID_SUBJECT says otherwise. */
function vapidSubjectOf(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

/** Reads the environment; a bad value throws a ConfigError naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings mean "unset" so `FOO= npm start` behaves like no FOO at all.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid ${variable}: ${issue?.message ?? 'bad value'}`);
  }
  const e = parsed.data;
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid ADMIN_EMAIL/ADMIN_PASSWORD: set both or neither');
  }
  // Two of the three keys is a half-configured provider, not an absent one.
  const transactpayKeys = TRANSACTPAY_KEYS.filter((name) => e[name]);
  if (transactpayKeys.length > 0 && transactpayKeys.length < TRANSACTPAY_KEYS.length)
    throw new ConfigError(
      `Invalid ${TRANSACTPAY_KEYS.find((name) => !e[name])}: set ${TRANSACTPAY_KEYS.join(', ')} together, or none of them`,
    );
  // Without the hash no webhook could be believed, and without the key none verified.
  const flutterwaveKeys = FLUTTERWAVE_KEYS.filter((name) => e[name]);
  if (flutterwaveKeys.length === 1)
    throw new ConfigError(
      `Invalid ${FLUTTERWAVE_KEYS.find((name) => !e[name])}: set ${FLUTTERWAVE_KEYS.join(', ')} together, or neither`,
    );
  const paymentsSandbox = decidePaymentsSandbox(e);
  const beacon = { url: e.BEACON_URL.replace(/\/$/, ''), chain: parseBeaconChain(e) };
  const kyc = decideKyc(e);
  const s3 = parseS3(e, present);
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY))
    throw new ConfigError(
      `Invalid ${e.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'}: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together, or neither`,
    );
  // The local push service stand-in is on this machine: a live server must never post there.
  if (e.PUSH_ALLOW_LOCAL_ENDPOINTS && e.NODE_ENV === 'production')
    throw new ConfigError(
      "Invalid PUSH_ALLOW_LOCAL_ENDPOINTS: push endpoints on this machine (the tests' local push service) are refused with NODE_ENV=production",
    );
  // On PostgreSQL any number of instances may share the database, each with a DATA_DIR of its
  // own: a key generated into one DATA_DIR would differ from the next instance's. These two
  // guard data kept in the database (tokens' signatures, the BVN/NIN hashes), so they cannot
  // live in it either: they must come from the environment, the same on every instance.
  if (e.DATABASE_URL) {
    for (const [name, why] of SHARED_SECRETS)
      if (!e[name])
        throw new ConfigError(
          `Invalid ${name}: set ${name} (32+ characters) when DATABASE_URL is set, the same on every instance: ${why}`,
        );
  }
  // The direct URL is the pooled one's way around a transaction pooler: alone it bypasses
  // nothing, and the same address twice would take the session work through the pooler.
  if (e.DATABASE_DIRECT_URL && !e.DATABASE_URL)
    throw new ConfigError(
      'Invalid DATABASE_DIRECT_URL: set it only with DATABASE_URL (the pooled address it bypasses)',
    );
  if (e.DATABASE_DIRECT_URL && e.DATABASE_DIRECT_URL === e.DATABASE_URL)
    throw new ConfigError(
      'Invalid DATABASE_DIRECT_URL: it must reach PostgreSQL itself, not the same address as DATABASE_URL (leave it unset when DATABASE_URL is direct)',
    );
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new ConfigError('Invalid METRICS_PORT: METRICS_PORT must differ from PORT');
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir: e.DATA_DIR,
    jwtSecret: e.JWT_SECRET,
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: e.VAPID_SUBJECT ?? vapidSubjectOf(e.MAIL_FROM),
    push: {
      serviceHosts: parsePushServiceHosts(e.PUSH_SERVICE_HOSTS),
      allowLocalEndpoints: e.PUSH_ALLOW_LOCAL_ENDPOINTS,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuer: e.GOOGLE_ISSUER,
          }
        : undefined,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }
        : undefined,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    jobPollMs: e.JOB_POLL_MS,
    rateLimitMax: e.RATE_LIMIT_MAX,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
    // Tests stop servers all the time and have no balancer to wait for.
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS ?? (e.NODE_ENV === 'test' ? 0 : 2_000),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    paymentsSandbox,
    beacon,
    kyc,
    flutterwave:
      e.FLUTTERWAVE_SECRET_KEY && e.FLUTTERWAVE_WEBHOOK_HASH
        ? {
            secretKey: e.FLUTTERWAVE_SECRET_KEY,
            webhookHash: e.FLUTTERWAVE_WEBHOOK_HASH,
            baseUrl: e.FLUTTERWAVE_BASE_URL,
          }
        : undefined,
    paystack: e.PAYSTACK_SECRET_KEY
      ? { secretKey: e.PAYSTACK_SECRET_KEY, baseUrl: e.PAYSTACK_BASE_URL }
      : undefined,
    s3,
    transactpay:
      e.TRANSACTPAY_PUBLIC_KEY && e.TRANSACTPAY_SECRET_KEY && e.TRANSACTPAY_ENCRYPTION_KEY
        ? {
            publicKey: e.TRANSACTPAY_PUBLIC_KEY,
            secretKey: e.TRANSACTPAY_SECRET_KEY,
            encryptionKey: e.TRANSACTPAY_ENCRYPTION_KEY,
            baseUrl: e.TRANSACTPAY_BASE_URL,
          }
        : undefined,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
  };
}

const BEACON_CHAIN_VARIABLES = [
  'BEACON_CHAIN_HASH',
  'BEACON_PUBLIC_KEY',
  'BEACON_GENESIS_TIME',
  'BEACON_PERIOD',
] as const;

/** Another drand chain (or a test beacon) is described completely, or quicknet is used. */
function parseBeaconChain(e: z.output<typeof envSchema>): BeaconChain {
  const given = BEACON_CHAIN_VARIABLES.filter((name) => e[name] !== undefined);
  if (given.length === 0) return QUICKNET;
  if (given.length < BEACON_CHAIN_VARIABLES.length)
    throw new ConfigError(
      `Invalid ${BEACON_CHAIN_VARIABLES.find((name) => e[name] === undefined)}: set ${BEACON_CHAIN_VARIABLES.join(', ')} together, or none of them (drand quicknet)`,
    );
  return {
    hash: e.BEACON_CHAIN_HASH as string,
    publicKey: e.BEACON_PUBLIC_KEY as string,
    genesisTime: e.BEACON_GENESIS_TIME as number,
    period: e.BEACON_PERIOD as number,
  };
}
