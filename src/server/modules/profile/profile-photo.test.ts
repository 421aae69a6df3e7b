import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { storedFiles } from '../../db/schema.ts';
import { createDatabaseFileStore } from '../../providers/storage.ts';
import { createS3FileStore } from '../../providers/storage-s3.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { type LocalS3, startLocalS3 } from '../../test/s3.ts';
import { photoStatus, pngOf, servedPhoto, uploadPhoto, webpOf } from './test-fixtures.ts';

/** Photos live in a store every instance shares, never in one DATA_DIR. */
const database = testDatabasePerFile();
const PASSWORD = 'Correct-Horse-Battery';
let s3: LocalS3;
let passwordHash: string;
beforeAll(async () => {
  [s3, passwordHash] = await Promise.all([startLocalS3(), testPasswordHash(PASSWORD)]);
});
afterAll(async () => {
  await s3?.close();
});

async function setUp(
  env: Record<string, string> = {},
  options: { profilePhoto?: string; diskFiles?: Record<string, Buffer> } = {},
) {
  // Our own DATA_DIR, to see what lands in it.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-photo-'));
  onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
  const user = await createUser(database().db, {
    passwordHash,
    profilePhoto: options.profilePhoto ?? null,
  });
  for (const [name, body] of Object.entries(options.diskFiles ?? {})) {
    await mkdir(path.join(dataDir, 'uploads', 'avatars'), { recursive: true });
    await writeFile(path.join(dataDir, 'uploads', 'avatars', name), body);
  }
  const app = await buildTestApp(database(), { DATA_DIR: dataDir, ...env });
  return { app, dataDir, user, headers: await bearerFor(app, user) };
}

const newName = () => `${randomBytes(16).toString('hex')}.webp`;

const keyOf = (url: string) => `avatars/${url.slice('/uploads/avatars/'.length)}`;

async function rowsFor(url: string) {
  return database()
    .db.select()
    .from(storedFiles)
    .where(eq(storedFiles.key, keyOf(url)));
}

function bucket() {
  const store = createS3FileStore(s3.config);
  onTestFinished(() => store.close());
  return store;
}

describe('profile photos without S3_* variables', () => {
  it('are kept in the database and served from it with the usual headers', async () => {
    const { app, dataDir, headers } = await setUp();
    const url = await uploadPhoto(app, headers, await pngOf(10));

    const [row] = await rowsFor(url);
    expect(row?.contentType).toBe('image/webp');
    expect((await servedPhoto(app, url)).equals(row?.body ?? Buffer.alloc(0))).toBe(true);
    expect(existsSync(path.join(dataDir, 'uploads'))).toBe(false);
  });

  it('replacing the photo deletes the old one', async () => {
    const { app, headers } = await setUp();
    const first = await uploadPhoto(app, headers, await pngOf(20));
    const second = await uploadPhoto(app, headers, await pngOf(30));

    expect(await photoStatus(app, first)).toBe(404);
    expect(await rowsFor(first)).toEqual([]);
    await servedPhoto(app, second);
    expect(await rowsFor(second)).toHaveLength(1);
  });

  it('deleting the account deletes its photo', async () => {
    const { app, headers } = await setUp();
    const url = await uploadPhoto(app, headers, await pngOf(40));
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers,
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await photoStatus(app, url)).toBe(404);
    expect(await rowsFor(url)).toEqual([]);
  });

  it('a name the server never made is a 404, whatever it looks like', async () => {
    const { app } = await setUp();
    for (const name of [
      newName(),
      'nothing.webp',
      '..%2F..%2Fjwt-secret',
      `${randomBytes(16).toString('hex').toUpperCase()}.webp`,
    ])
      expect(await photoStatus(app, `/uploads/avatars/${name}`), name).toBe(404);
  });
});

describe('profile photos with S3_* variables', () => {
  it('are put in the bucket, not the database, and served by the app', async () => {
    const { app, dataDir, headers } = await setUp(s3.env);
    const url = await uploadPhoto(app, headers, await pngOf(50));

    const object = await bucket().get(keyOf(url));
    expect(object?.contentType).toBe('image/webp');
    expect((await servedPhoto(app, url)).equals(object?.body ?? Buffer.alloc(0))).toBe(true);
    expect(await rowsFor(url)).toEqual([]);
    expect(existsSync(path.join(dataDir, 'uploads'))).toBe(false);
  });

  it('replacing the photo, or deleting the account, deletes the old object', async () => {
    const { app, headers } = await setUp(s3.env);
    const first = await uploadPhoto(app, headers, await pngOf(60));
    const second = await uploadPhoto(app, headers, await pngOf(70));
    expect(await bucket().get(keyOf(first))).toBeNull();
    expect(await photoStatus(app, first)).toBe(404);
    await servedPhoto(app, second);

    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers,
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await bucket().get(keyOf(second))).toBeNull();
    expect(await photoStatus(app, second)).toBe(404);
  });
});

describe('profile photos saved in DATA_DIR before the shared store', () => {
  it.each([
    ['the database', false],
    ['S3', true],
  ] as const)(
    'are copied into the shared store at start-up when an account shows them (%s)',
    async (_store, withS3) => {
      const [shown, orphan] = [newName(), newName()];
      const [webp, orphanWebp] = await Promise.all([webpOf(80), webpOf(85)]);
      const { app, dataDir } = await setUp(withS3 ? s3.env : {}, {
        profilePhoto: `/uploads/avatars/${shown}`,
        diskFiles: { [shown]: webp, [orphan]: orphanWebp },
      });
      await app.background.idle();
      const store = withS3 ? bucket() : createDatabaseFileStore(database().db);

      expect((await store.get(`avatars/${shown}`))?.body.equals(webp)).toBe(true);
      expect(await store.get(`avatars/${orphan}`)).toBeNull();
      // Nothing on disk is deleted by the copy.
      expect(existsSync(path.join(dataDir, 'uploads', 'avatars', orphan))).toBe(true);
      await rm(path.join(dataDir, 'uploads', 'avatars', shown));
      expect((await servedPhoto(app, `/uploads/avatars/${shown}`)).equals(webp)).toBe(true);
    },
  );

  it.each([
    ['the database', false],
    ['S3', true],
  ] as const)(
    'are still served by the instance that has them, and deleted from disk when replaced (%s)',
    async (_store, withS3) => {
      const name = newName();
      const oldUrl = `/uploads/avatars/${name}`;
      const { app, dataDir, headers } = await setUp(withS3 ? s3.env : {}, {
        profilePhoto: oldUrl,
      });
      // Written after start-up, so only the fallback can serve it.
      const oldFile = path.join(dataDir, 'uploads', 'avatars', name);
      await mkdir(path.dirname(oldFile), { recursive: true });
      const webp = await webpOf(80);
      await writeFile(oldFile, webp);

      expect((await servedPhoto(app, oldUrl)).equals(webp)).toBe(true);
      const newUrl = await uploadPhoto(app, headers, await pngOf(90));
      expect(existsSync(oldFile)).toBe(false);
      expect(await photoStatus(app, oldUrl)).toBe(404);
      await servedPhoto(app, newUrl);
    },
  );
});
