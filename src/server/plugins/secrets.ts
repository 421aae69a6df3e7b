import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * jwt signs tokens and keys code hashes; sandbox signs the built-in sandbox's webhooks;
     * kycHash keys the hashes of BVNs and NINs (its own key: rotating the JWT secret must not
     * make every verified identity look new).
     */
    secrets: { jwt: Uint8Array; sandbox: Uint8Array; kycHash: Uint8Array };
  }
}

/**
 * The configured secret, or one generated on first start and kept in DATA_DIR/<fileName> so it
 * survives restarts (JWT_SECRET: tokens; KYC_HASH_KEY: identity hashes).
 */
async function loadSecret(
  config: AppConfig,
  configured: string | undefined,
  fileName: string,
): Promise<string> {
  if (configured) return configured;
  const file = path.resolve(config.dataDir, fileName);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(config.dataDir, { recursive: true });
  // 'wx' so two processes starting together never overwrite each other's secret.
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return (await readFile(file, 'utf8')).trim();
}

export default fp<{ config: AppConfig }>(
  async function secretsPlugin(app: FastifyInstance, { config }) {
    const secret = await loadSecret(config, config.jwtSecret, 'jwt-secret');
    const jwt = new TextEncoder().encode(secret);
    const sandbox = createHmac('sha256', secret).update('sandbox-webhooks').digest();
    const kycHash = new TextEncoder().encode(
      await loadSecret(config, config.kyc.hashKey, 'kyc-hash-key'),
    );
    app.decorate('secrets', { jwt, sandbox, kycHash });
  },
  { name: 'secrets' },
);
