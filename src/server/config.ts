import { z } from 'zod';

const booleanFromEnv = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((value) => value === 'true' || value === '1');

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
  DATA_DIR: z.string().min(1, 'DATA_DIR must not be empty').default('./data'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  SMTP_URL: z.url({ error: 'SMTP_URL must be a URL such as smtp://user:pass@host:587' }).optional(),
  MAIL_FROM: z.string().default('Pluckers <no-reply@localhost>'),
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
  JOB_POLL_MS: z.coerce
    .number({ error: 'JOB_POLL_MS must be a number of milliseconds' })
    .int('JOB_POLL_MS must be a whole number')
    .min(0, 'JOB_POLL_MS must be 0 (off) or more')
    .default(1000),
  RATE_LIMIT_MAX: z.coerce
    .number({ error: 'RATE_LIMIT_MAX must be a number of requests' })
    .int('RATE_LIMIT_MAX must be a whole number')
    .min(1, 'RATE_LIMIT_MAX must be at least 1')
    .default(600),
});

export type Env = z.input<typeof envSchema>;

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  logLevel: string;
  webDist: string;
  /** Background worker tick; 0 turns the worker off (tests drive jobs themselves). */
  jobPollMs: number;
  /** Requests per minute one client address may make to /api (load tests raise it). */
  rateLimitMax: number;
  paystack: { secretKey: string; baseUrl: string } | undefined;
  transactpay:
    | { publicKey: string; secretKey: string; encryptionKey: string; baseUrl: string }
    | undefined;
}

export class ConfigError extends Error {}

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
  return {
    nodeEnv: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    jwtSecret: e.JWT_SECRET,
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
    paystack: e.PAYSTACK_SECRET_KEY
      ? { secretKey: e.PAYSTACK_SECRET_KEY, baseUrl: e.PAYSTACK_BASE_URL }
      : undefined,
    transactpay:
      e.TRANSACTPAY_PUBLIC_KEY && e.TRANSACTPAY_SECRET_KEY && e.TRANSACTPAY_ENCRYPTION_KEY
        ? {
            publicKey: e.TRANSACTPAY_PUBLIC_KEY,
            secretKey: e.TRANSACTPAY_SECRET_KEY,
            encryptionKey: e.TRANSACTPAY_ENCRYPTION_KEY,
            baseUrl: e.TRANSACTPAY_BASE_URL,
          }
        : undefined,
  };
}
