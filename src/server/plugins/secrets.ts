import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** jwt signs tokens and keys code hashes; sandbox signs the built-in sandbox's webhooks. */
    secrets: { jwt: Uint8Array; sandbox: Uint8Array };
  }
}

/** JWT_SECRET, or one generated on first start and kept in DATA_DIR so tokens survive restarts. */
async function loadJwtSecret(config: AppConfig): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.resolve(config.dataDir, 'jwt-secret');
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
    const secret = await loadJwtSecret(config);
    const jwt = new TextEncoder().encode(secret);
    const sandbox = createHmac('sha256', secret).update('sandbox-webhooks').digest();
    app.decorate('secrets', { jwt, sandbox });
  },
  { name: 'secrets' },
);
