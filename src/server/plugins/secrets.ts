import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import webpush from 'web-push';
import type { AppConfig } from '../config.ts';
import { serverSecrets } from '../db/schema.ts';

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
 * survives restarts (JWT_SECRET: tokens; KYC_HASH_KEY: identity hashes). Only the embedded
 * database's single instance generates them: on PostgreSQL config.ts requires both.
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

/**
 * The key named `name` from the database, where the first instance to start writes it (from
 * `fileName` in its DATA_DIR if an earlier version generated one there, so an upgraded server
 * keeps it; else a new one) and every other instance reads that one.
 */
async function sharedInDatabase(
  app: FastifyInstance,
  config: AppConfig,
  name: string,
  fileName: string,
  generate: () => string,
): Promise<string> {
  const [kept] = await app.db
    .select({ value: serverSecrets.value })
    .from(serverSecrets)
    .where(eq(serverSecrets.name, name));
  if (kept) return kept.value;
  const fromDataDir = await readFile(path.resolve(config.dataDir, fileName), 'utf8').then(
    (text) => text.trim(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    },
  );
  await app.db
    .insert(serverSecrets)
    .values({ name, value: fromDataDir ?? generate() })
    .onConflictDoNothing();
  const [written] = await app.db
    .select({ value: serverSecrets.value })
    .from(serverSecrets)
    .where(eq(serverSecrets.name, name));
  if (!written) throw new Error(`server secret ${name} was not kept`);
  return written.value;
}

export default fp<{ config: AppConfig }>(
  async function secretsPlugin(app: FastifyInstance, { config }) {
    const secret = await loadSecret(config, config.jwtSecret, 'jwt-secret');
    const jwt = new TextEncoder().encode(secret);
    const sandbox = createHmac('sha256', secret).update('sandbox-webhooks').digest();
    const kycHash = new TextEncoder().encode(
      await loadSecret(config, config.kyc.hashKey, 'kyc-hash-key'),
    );
    // One pair for the life of the deployment, the same on every instance: a new public key
    // would orphan every subscription.
    const vapid =
      config.vapid ??
      (JSON.parse(
        await sharedInDatabase(app, config, 'vapid-keys', 'vapid-keys.json', () =>
          JSON.stringify(webpush.generateVAPIDKeys()),
        ),
      ) as { publicKey: string; privateKey: string });
    app.decorate('secrets', { jwt, sandbox, kycHash, vapid });
  },
  { name: 'secrets', dependencies: ['database'] },
);
