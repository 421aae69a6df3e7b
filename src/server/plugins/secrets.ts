import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import webpush from 'web-push';
import type { AppConfig } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * jwt signs tokens and keys code hashes; sandbox signs the built-in sandbox's webhooks;
     * kycHash keys the hashes of BVNs and NINs (its own key: rotating the JWT secret must not
     * make every verified identity look new).
     */
    secrets: {
      jwt: Uint8Array;
      sandbox: Uint8Array;
      kycHash: Uint8Array;
      /** Web Push's VAPID key pair (base64url): browsers subscribe with the public key. */
      vapid: { publicKey: string; privateKey: string };
    };
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
  generate: () => string = () => randomBytes(48).toString('base64url'),
): Promise<string> {
  if (configured) return configured;
  const file = path.resolve(config.dataDir, fileName);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = generate();
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
    // One pair for the life of the deployment: a new public key would orphan every subscription.
    const vapid =
      config.vapid ??
      (JSON.parse(
        await loadSecret(config, undefined, 'vapid-keys.json', () =>
          JSON.stringify(webpush.generateVAPIDKeys()),
        ),
      ) as { publicKey: string; privateKey: string });
    app.decorate('secrets', { jwt, sandbox, kycHash, vapid });
  },
  { name: 'secrets' },
);
