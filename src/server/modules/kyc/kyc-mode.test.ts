import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';

/** The identity sandbox follows the payments sandbox's rules (config.ts). */
const keys = { KYC_APP_ID: 'app-id', KYC_SECRET_KEY: 'secret' };
const modeOf = (env: Record<string, string>) => loadConfig(env).kyc.mode;

describe('KYC mode', () => {
  it('is the sandbox only without keys and outside production', () => {
    expect(modeOf({})).toBe('sandbox');
    expect(modeOf({ NODE_ENV: 'test' })).toBe('sandbox');
    expect(modeOf(keys)).toBe('live');
    expect(modeOf({ NODE_ENV: 'production' })).toBe('unavailable');
    expect(modeOf({ KYC_SANDBOX: 'false' })).toBe('unavailable');
  });

  it('refuses the sandbox next to live keys, and in production unless forced', () => {
    expect(() => loadConfig({ ...keys, KYC_SANDBOX: 'true' })).toThrow(
      /^Invalid KYC_SANDBOX: the identity sandbox cannot run next to live KYC keys/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', KYC_SANDBOX: 'true' })).toThrow(ConfigError);
    expect(
      modeOf({ NODE_ENV: 'production', KYC_SANDBOX: 'true', KYC_SANDBOX_IN_PRODUCTION: 'true' }),
    ).toBe('sandbox');
  });

  it('wants both keys or neither, and a long hash key', () => {
    expect(() => loadConfig({ KYC_APP_ID: 'app-id' })).toThrow(
      'Invalid KYC_SECRET_KEY: set KYC_APP_ID, KYC_SECRET_KEY together, or neither',
    );
    expect(() => loadConfig({ KYC_HASH_KEY: 'short' })).toThrow(
      'Invalid KYC_HASH_KEY: KYC_HASH_KEY must be at least 32 characters',
    );
    expect(loadConfig({ ...keys, KYC_BASE_URL: 'http://127.0.0.1:9/' }).kyc.baseUrl).toBe(
      'http://127.0.0.1:9',
    );
  });
});
