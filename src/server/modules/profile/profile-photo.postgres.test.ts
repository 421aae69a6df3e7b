import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import { type LocalS3, startLocalS3 } from '../../test/s3.ts';
import { photoStatus, pngOf, servedPhoto, uploadPhoto, webpOf } from './test-fixtures.ts';

/**
 * As it was measured: behind a load balancer, a photo uploaded to one instance
 * was a 404 on the others. Here two instances share only what production instances share: the
 * PostgreSQL database (each with its own pool) and, when configured, the bucket; each has its
 * own DATA_DIR.
 */
const database = testDatabasePerFile();
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.close();
});

async function instance(env: Record<string, string>) {
  const databaseUrl = inject('testDatabaseUrl');
  if (!databaseUrl) throw new Error('this file runs only against PostgreSQL (TEST_DATABASE_URL)');
  const database = await openDatabase({ databaseUrl, dataDir: '', poolSize: 4 });
  // Registered before the app's own clean-up, so it runs after the app has closed.
  onTestFinished(() => database.close());
  return buildTestApp(database, env);
}

describe.each([
  ['the database (no S3_* variables)', false],
  ['S3 (a local s3rver)', true],
] as const)('profile photos on %s, across two instances', (_store, withS3) => {
  it('an upload to one instance is served by the other, and a replacement reaches both', async () => {
    const env = withS3 ? s3.env : {};
    const [a, b] = await Promise.all([instance(env), instance(env)]);
    const user = await createUser(a.db);
    const [headersA, headersB] = await Promise.all([bearerFor(a, user), bearerFor(b, user)]);

    const first = await uploadPhoto(a, headersA, await pngOf(100));
    const fromB = await servedPhoto(b, first);
    expect(fromB.equals(await servedPhoto(a, first))).toBe(true);

    const second = await uploadPhoto(b, headersB, await pngOf(200));
    expect(await photoStatus(a, first)).toBe(404);
    expect(await photoStatus(b, first)).toBe(404);
    expect((await servedPhoto(a, second)).equals(await servedPhoto(b, second))).toBe(true);
  });

  it('a photo kept in one instance’s DATA_DIR before the upgrade is served by the other', async () => {
    const env = withS3 ? s3.env : {};
    const name = `${randomBytes(16).toString('hex')}.webp`;
    const webp = await webpOf(150);
    await createUser(database().db, { profilePhoto: `/uploads/avatars/${name}` });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-old-instance-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    await mkdir(path.join(dataDir, 'uploads', 'avatars'), { recursive: true });
    await writeFile(path.join(dataDir, 'uploads', 'avatars', name), webp);

    const [a, b] = await Promise.all([instance({ ...env, DATA_DIR: dataDir }), instance(env)]);
    await a.background.idle();
    expect((await servedPhoto(b, `/uploads/avatars/${name}`)).equals(webp)).toBe(true);
  });
});
