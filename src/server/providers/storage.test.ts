import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../config.ts';
import { storedFiles } from '../db/schema.ts';
import { testEnv } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { type LocalS3, startLocalS3 } from '../test/s3.ts';
import type { FileStore } from './file-store.ts';
import {
  createAvatarStorage,
  createDatabaseFileStore,
  createFileStore,
  type StorageLog,
} from './storage.ts';
import { createS3FileStore } from './storage-s3.ts';

const database = testDatabasePerFile();
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.close();
});

/** Every byte value, so no encoding on the way (text, JSON, hex) can pass unnoticed. */
const binary = () =>
  Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(64)]);
const uniqueKey = () => `test/${randomBytes(8).toString('hex')}.bin`;

function opened(store: FileStore): FileStore {
  onTestFinished(() => store.close());
  return store;
}

const kinds = [
  ['database', () => createDatabaseFileStore(database().db)],
  ['S3 (a local s3rver)', () => createS3FileStore(s3.config)],
] as const;

describe.each(kinds)('the %s file store', (_kind, make) => {
  it('gives back the bytes and type it was given, until the file is deleted', async () => {
    const store = opened(make());
    const key = uniqueKey();
    const body = binary();
    await store.put(key, { body, contentType: 'image/webp' });

    const stored = await store.get(key);
    expect(stored?.contentType).toBe('image/webp');
    expect(stored?.body.equals(body)).toBe(true);

    await store.delete(key);
    expect(await store.get(key)).toBeNull();
  });

  it('answers null for a key it never had, and deleting one is no error', async () => {
    const store = opened(make());
    const key = uniqueKey();
    expect(await store.get(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('keeps files where another instance of the store reads them', async () => {
    const writer = opened(make());
    const reader = opened(make());
    const key = uniqueKey();
    const body = binary();
    await writer.put(key, { body, contentType: 'image/webp' });
    expect((await reader.get(key))?.body.equals(body)).toBe(true);
    await reader.delete(key);
    expect(await writer.get(key)).toBeNull();
  });
});

describe('where files go', () => {
  it('to the stored_files table without S3_* variables', async () => {
    const store = opened(await createFileStore(loadConfig(testEnv()), database().db));
    expect(store.kind).toBe('database');
    const key = uniqueKey();
    await store.put(key, { body: binary(), contentType: 'image/webp' });
    const rows = await database().db.select().from(storedFiles).where(eq(storedFiles.key, key));
    expect(rows).toHaveLength(1);
  });

  it('to the bucket, and not the database, with S3_* variables', async () => {
    const config = loadConfig(testEnv(s3.env));
    const store = opened(await createFileStore(config, database().db));
    expect(store.kind).toBe('s3');
    const key = uniqueKey();
    const body = binary();
    await store.put(key, { body, contentType: 'image/webp' });

    const rows = await database().db.select().from(storedFiles).where(eq(storedFiles.key, key));
    expect(rows).toHaveLength(0);
    const direct = opened(createS3FileStore(s3.config));
    expect((await direct.get(key))?.body.equals(body)).toBe(true);
  });

  it('a missing bucket is an error, not a missing file', async () => {
    const store = opened(createS3FileStore({ ...s3.config, bucket: 'no-such-bucket' }));
    await expect(store.get(uniqueKey())).rejects.toThrow();
  });
});

/** A port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

function collectingLog() {
  const warnings: { details: object; message: string }[] = [];
  const log: StorageLog = { warn: (details, message) => warnings.push({ details, message }) };
  return { log, warnings };
}

describe.each(kinds)('profile photos on the %s store', (_kind, make) => {
  async function legacyDirectory() {
    const directory = await mkdtemp(path.join(tmpdir(), 'pluckers-legacy-avatars-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    return directory;
  }

  it('are saved under a fresh /uploads/avatars/<32 hex>.webp URL, read back and removed', async () => {
    const { log, warnings } = collectingLog();
    const avatars = createAvatarStorage(opened(make()), { log });
    const webp = binary();
    const url = await avatars.save(webp);
    expect(url).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/);
    expect(await avatars.save(webp)).not.toBe(url);

    const name = url.slice('/uploads/avatars/'.length);
    const file = await avatars.read(name);
    expect(file?.contentType).toBe('image/webp');
    expect(file?.body.equals(webp)).toBe(true);

    await avatars.remove(url);
    expect(await avatars.read(name)).toBeNull();
    expect(warnings).toEqual([]);
  });

  it('only ever read or remove names the server makes', async () => {
    const store = opened(make());
    const avatars = createAvatarStorage(store, { log: collectingLog().log });
    const url = await avatars.save(binary());
    const name = url.slice('/uploads/avatars/'.length);

    for (const bad of ['../x.webp', name.toUpperCase(), `${name}.png`, '', 'a.webp'])
      expect(await avatars.read(bad)).toBeNull();
    for (const other of [
      null,
      `https://elsewhere.example${url}`,
      `/uploads/avatars/../${name}`,
      `/uploads/other/${name}`,
    ])
      await avatars.remove(other);
    expect(await avatars.read(name)).not.toBeNull();
  });

  it('still serves, and deletes, photos kept in DATA_DIR before the shared store', async () => {
    const directory = await legacyDirectory();
    const avatars = createAvatarStorage(opened(make()), {
      legacyDirectory: directory,
      log: collectingLog().log,
    });
    const name = `${randomBytes(16).toString('hex')}.webp`;
    const webp = binary();
    await mkdir(directory, { recursive: true });
    await writeFile(path.join(directory, name), webp);

    expect((await avatars.read(name))?.body.equals(webp)).toBe(true);
    await avatars.remove(`/uploads/avatars/${name}`);
    expect(await readdir(directory)).toEqual([]);
    expect(await avatars.read(name)).toBeNull();
  });
});

describe('a store that cannot be reached', () => {
  it('fails the upload, and a replaced photo left behind is logged rather than failing the change', async () => {
    const store = opened(
      createS3FileStore({ ...s3.config, endpoint: `http://127.0.0.1:${await closedPort()}` }),
    );
    const { log, warnings } = collectingLog();
    const avatars = createAvatarStorage(store, { log });
    await expect(avatars.save(binary())).rejects.toThrow();

    const url = `/uploads/avatars/${randomBytes(16).toString('hex')}.webp`;
    await expect(avatars.remove(url)).resolves.toBeUndefined();
    expect(warnings).toMatchObject([
      { message: 'could not delete a replaced profile photo', details: { url } },
    ]);
  });
});
