import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { nodeArgsFor } from '../../scripts/build-server.ts';
import { ConfigError, loadConfig } from './config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('uses the defaults of README.md#configuration on an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      nodeEnv: 'development',
      host: '0.0.0.0',
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: './data',
      jwtSecret: undefined,
      smtpUrl: undefined,
      mailFrom: 'Pluckers <no-reply@localhost>',
      google: undefined,
      admin: undefined,
      seedDemo: true,
      logLevel: 'info',
      webDist: 'dist/web',
      jobPollMs: 10_000,
      rateLimitMax: 600,
      databasePoolSize: 20,
    });
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', DATABASE_URL: '', JWT_SECRET: '', SEED_DEMO: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.jwtSecret).toBeUndefined();
    expect(config.seedDemo).toBe(true);
  });

  it('reads the port and derives PUBLIC_URL from it, without a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080' }).port).toBe(8080);
    expect(loadConfig({ PUBLIC_URL: 'https://pluckers.ng/' }).publicUrl).toBe(
      'https://pluckers.ng',
    );
  });

  it('names PORT when it is not a number', () => {
    const message = configError({ PORT: 'abc' });
    expect(message).toContain('PORT');
    expect(message).toMatch(/PORT must be a number/);
    expect(message).not.toContain('\n');
  });

  it('refuses a port out of range or with decimals', () => {
    expect(configError({ PORT: '70000' })).toMatch(/PORT must be between 0 and 65535/);
    expect(configError({ PORT: '-1' })).toMatch(/PORT must be between 0 and 65535/);
    expect(configError({ PORT: '80.5' })).toMatch(/PORT must be a whole number/);
  });

  it('parses SEED_DEMO as true/false/1/0 and refuses anything else', () => {
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(configError({ SEED_DEMO: 'yes' })).toBe(
      'Invalid SEED_DEMO: SEED_DEMO must be true or false',
    );
  });

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together or not at all', () => {
    expect(configError({ ADMIN_EMAIL: 'ops@pluckers.ng' })).toMatch(/ADMIN_EMAIL\/ADMIN_PASSWORD/);
    expect(configError({ ADMIN_PASSWORD: 'long-enough-secret' })).toMatch(
      /ADMIN_EMAIL\/ADMIN_PASSWORD/,
    );
    expect(
      loadConfig({ ADMIN_EMAIL: 'ops@pluckers.ng', ADMIN_PASSWORD: 'long-enough-secret' }).admin,
    ).toEqual({
      email: 'ops@pluckers.ng',
      password: 'long-enough-secret',
    });
    expect(
      configError({ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long-enough-secret' }),
    ).toMatch(/ADMIN_EMAIL must be an e-mail address/);
    expect(configError({ ADMIN_EMAIL: 'ops@pluckers.ng', ADMIN_PASSWORD: 'short' })).toMatch(
      /ADMIN_PASSWORD must be at least 8 characters/,
    );
  });

  it('names the other variables it checks', () => {
    expect(configError({ DATABASE_URL: 'mysql://x' })).toMatch(/^Invalid DATABASE_URL: /);
    expect(configError({ JWT_SECRET: 'too-short' })).toMatch(/^Invalid JWT_SECRET: /);
    expect(configError({ PUBLIC_URL: 'not a url' })).toMatch(/^Invalid PUBLIC_URL: /);
    expect(configError({ LOG_LEVEL: 'loud' })).toMatch(/^Invalid LOG_LEVEL: /);
  });

  it('on PostgreSQL, refuses to start without the secrets every instance must share', () => {
    const databaseUrl = 'postgres://pluckers@db:5432/pluckers';
    const secret = 'x'.repeat(32);
    expect(configError({ DATABASE_URL: databaseUrl, KYC_HASH_KEY: secret })).toBe(
      'Invalid JWT_SECRET: set JWT_SECRET (32+ characters) when DATABASE_URL is set, the same on every instance: a token signed by one instance must verify on the others',
    );
    expect(configError({ DATABASE_URL: databaseUrl, JWT_SECRET: secret })).toMatch(
      /^Invalid KYC_HASH_KEY: set KYC_HASH_KEY \(32\+ characters\) when DATABASE_URL is set, the same on every instance: one BVN or NIN must hash alike/,
    );
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      JWT_SECRET: secret,
      KYC_HASH_KEY: secret,
    });
    expect(config.jwtSecret).toBe(secret);
    expect(config.kyc.hashKey).toBe(secret);
    // The embedded database has one instance and one DATA_DIR: both are generated there.
    expect(loadConfig({}).jwtSecret).toBeUndefined();
  });

  it('reads DATABASE_DIRECT_URL only beside a different DATABASE_URL (a transaction pooler)', () => {
    const secrets = { JWT_SECRET: 'x'.repeat(32), KYC_HASH_KEY: 'y'.repeat(32) };
    const pooled = 'postgres://pluckers@pgbouncer:6432/pluckers';
    const direct = 'postgres://pluckers@postgres:5432/pluckers';
    expect(loadConfig({ DATABASE_URL: pooled, ...secrets }).databaseDirectUrl).toBeUndefined();
    expect(
      loadConfig({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct, ...secrets }),
    ).toMatchObject({ databaseUrl: pooled, databaseDirectUrl: direct });
    expect(configError({ DATABASE_DIRECT_URL: direct })).toBe(
      'Invalid DATABASE_DIRECT_URL: set it only with DATABASE_URL (the pooled address it bypasses)',
    );
    expect(configError({ DATABASE_URL: direct, DATABASE_DIRECT_URL: direct, ...secrets })).toMatch(
      /^Invalid DATABASE_DIRECT_URL: it must reach PostgreSQL itself, not the same address as DATABASE_URL/,
    );
    expect(
      configError({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: 'mysql://x', ...secrets }),
    ).toBe(
      'Invalid DATABASE_DIRECT_URL: DATABASE_DIRECT_URL must start with postgres:// or postgresql://',
    );
  });

  it('trusts no proxy by default and reads TRUST_PROXY as a hop count or a list of ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.local', '1.2.3', '99'])
      expect(configError({ TRUST_PROXY: bad })).toMatch(
        /^Invalid TRUST_PROXY: TRUST_PROXY must be/,
      );
  });

  it('allows no other origin by default and reads CORS_ORIGINS as a list of origins', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({
        CORS_ORIGINS: 'https://app.example.ng, http://localhost:5173/,https://app.example.ng',
      }).corsOrigins,
    ).toEqual(['https://app.example.ng', 'http://localhost:5173']);
    for (const bad of [
      '*',
      'app.example.ng',
      'https://app.example.ng/play',
      'https://app.example.ng:443',
      'https://App.example.ng',
      'https://app.example.ng?x=1',
      'ftp://files.example.ng',
      ',',
    ]) {
      const message = configError({ CORS_ORIGINS: bad });
      expect(message).toMatch(/^Invalid CORS_ORIGINS: CORS_ORIGINS must be a comma-separated list/);
      expect(message).not.toContain('\n');
    }
  });

  it('waits 2 s for the load balancer on shutdown, except in tests, and reads both shutdown times', () => {
    expect(loadConfig({})).toMatchObject({ shutdownDelayMs: 2_000, shutdownTimeoutMs: 10_000 });
    expect(loadConfig({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'false' }).shutdownDelayMs).toBe(
      2_000,
    );
    expect(loadConfig({ NODE_ENV: 'test' }).shutdownDelayMs).toBe(0);
    expect(
      loadConfig({ NODE_ENV: 'test', SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '30000' }),
    ).toMatchObject({ shutdownDelayMs: 1_500, shutdownTimeoutMs: 30_000 });
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '0' }).shutdownDelayMs).toBe(0);
    expect(configError({ SHUTDOWN_DELAY_MS: 'soon' })).toBe(
      'Invalid SHUTDOWN_DELAY_MS: SHUTDOWN_DELAY_MS must be a number of milliseconds',
    );
    expect(configError({ SHUTDOWN_DELAY_MS: '-1' })).toMatch(/SHUTDOWN_DELAY_MS must be 0 or more/);
    expect(configError({ SHUTDOWN_TIMEOUT_MS: '0' })).toMatch(
      /SHUTDOWN_TIMEOUT_MS must be at least 1/,
    );
  });

  it('keeps Google login off until both client id and secret are set', () => {
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id' }).google).toBeUndefined();
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).google).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
    });
  });
});

describe('S3_* (object storage for uploads)', () => {
  const complete = {
    S3_BUCKET: 'pluckers-photos',
    S3_ACCESS_KEY_ID: 'key-id',
    S3_SECRET_ACCESS_KEY: 'secret',
  };

  it('keeps uploads in the database when no S3_* variable is set', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: '', S3_ENDPOINT: '' }).s3).toBeUndefined();
  });

  it('uses AWS S3 with virtual-hosted URLs unless S3_ENDPOINT names another server', () => {
    expect(loadConfig(complete).s3).toEqual({
      bucket: 'pluckers-photos',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: 'key-id',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    expect(
      loadConfig({ ...complete, S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_REGION: 'auto' }).s3,
    ).toMatchObject({ endpoint: 'http://127.0.0.1:9000', region: 'auto', forcePathStyle: true });
    expect(
      loadConfig({
        ...complete,
        S3_ENDPOINT: 'https://s3.example.ng',
        S3_FORCE_PATH_STYLE: 'false',
      }).s3?.forcePathStyle,
    ).toBe(false);
  });

  it('refuses a partial configuration with one line naming what is missing', () => {
    const { S3_BUCKET: _bucket, ...noBucket } = complete;
    const { S3_SECRET_ACCESS_KEY: _secret, ...noSecret } = complete;
    expect(configError(noBucket)).toBe(
      'Invalid S3_BUCKET: set S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY together (and S3_ENDPOINT for storage other than AWS), or no S3_* variable at all',
    );
    expect(configError(noSecret)).toMatch(/^Invalid S3_SECRET_ACCESS_KEY: set S3_BUCKET/);
    expect(configError({ S3_BUCKET: 'photos' })).toMatch(/^Invalid S3_ACCESS_KEY_ID: /);
    expect(configError({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(/^Invalid S3_BUCKET: /);
    expect(configError({ S3_FORCE_PATH_STYLE: 'true' })).toMatch(/^Invalid S3_BUCKET: /);
    for (const message of [configError(noBucket), configError({ S3_REGION: 'eu-west-1' })])
      expect(message).not.toContain('\n');
  });

  it('refuses bad values, naming the variable', () => {
    expect(configError({ ...complete, S3_BUCKET: 'Photos_Bucket' })).toMatch(
      /^Invalid S3_BUCKET: S3_BUCKET must be a bucket name/,
    );
    expect(configError({ ...complete, S3_ENDPOINT: 'minio:9000' })).toMatch(
      /^Invalid S3_ENDPOINT: S3_ENDPOINT must be an http\(s\) URL/,
    );
    expect(configError({ ...complete, S3_ENDPOINT: 'ftp://files.example.ng' })).toMatch(
      /^Invalid S3_ENDPOINT: /,
    );
    expect(configError({ ...complete, S3_REGION: 'EU West' })).toMatch(/^Invalid S3_REGION: /);
    expect(configError({ ...complete, S3_FORCE_PATH_STYLE: 'yes' })).toBe(
      'Invalid S3_FORCE_PATH_STYLE: S3_FORCE_PATH_STYLE must be true or false',
    );
  });
});

describe('start-up with a bad environment', () => {
  it('PORT=abc exits with code 1 and one stderr line saying PORT must be a number', async () => {
    const child = spawn(process.execPath, nodeArgsFor(inject('serverMain')), {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: 'abc' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT must be a number/);
  });
});
