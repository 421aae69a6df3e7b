import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { storedFiles } from '../db/schema.ts';
import type { FileStore, StoredFile } from './file-store.ts';

/** The default: the `stored_files` table, which every instance on the database already shares. */
export function createDatabaseFileStore(db: Database): FileStore {
  return {
    kind: 'database',
    async put(key, { body, contentType }) {
      await db.insert(storedFiles).values({ key, contentType, body }).onConflictDoNothing();
    },
    async get(key) {
      const [row] = await db
        .select({ body: storedFiles.body, contentType: storedFiles.contentType })
        .from(storedFiles)
        .where(eq(storedFiles.key, key));
      return row ?? null;
    },
    async delete(key) {
      await db.delete(storedFiles).where(eq(storedFiles.key, key));
    },
    async close() {},
  };
}

/** S3 when configured, else the database. */
export async function createFileStore(config: AppConfig, db: Database): Promise<FileStore> {
  if (!config.s3) return createDatabaseFileStore(db);
  // Loaded only when used: the SDK is most of the server's dependencies by size and start-up.
  const { createS3FileStore } = await import('./storage-s3.ts');
  return createS3FileStore(config.s3);
}

const AVATAR_NAME = /^[a-f0-9]{32}\.webp$/;
const AVATAR_URL_PREFIX = '/uploads/avatars/';
const avatarKey = (name: string) => `avatars/${name}`;

export interface StorageLog {
  warn(details: object, message: string): void;
}

/**
 * Profile photos on a file store, under server-made names only; their public URLs
 * (`/uploads/avatars/<32 hex>.webp`) stay those of the files once kept in DATA_DIR.
 */
export function createAvatarStorage(
  store: FileStore,
  options: {
    /**
     * DATA_DIR/uploads/avatars, where photos were written before the shared store: still read
     * (by the instance that has them) and deleted from, never written.
     */
    legacyDirectory?: string;
    log: StorageLog;
  },
) {
  const { legacyDirectory, log } = options;
  const nameOf = (url: string | null) => {
    const name = url?.startsWith(AVATAR_URL_PREFIX) ? url.slice(AVATAR_URL_PREFIX.length) : null;
    return name && AVATAR_NAME.test(name) ? name : null;
  };
  return {
    async save(webp: Buffer): Promise<string> {
      const name = `${randomBytes(16).toString('hex')}.webp`;
      await store.put(avatarKey(name), { body: webp, contentType: 'image/webp' });
      return `${AVATAR_URL_PREFIX}${name}`;
    },
    async read(name: string): Promise<StoredFile | null> {
      if (!AVATAR_NAME.test(name)) return null;
      const stored = await store.get(avatarKey(name));
      if (stored || !legacyDirectory) return stored;
      const body = await readFile(path.join(legacyDirectory, name)).catch(() => null);
      return body && { body, contentType: 'image/webp' };
    },
    /** URLs of the photos in the legacy directory (none when there is none). */
    async legacyUrls(): Promise<string[]> {
      if (!legacyDirectory) return [];
      const names = await readdir(legacyDirectory).catch(() => []);
      return names.filter((name) => AVATAR_NAME.test(name)).map((name) => AVATAR_URL_PREFIX + name);
    },
    /**
     * Copies a photo from the legacy directory into the store unless the store has it already;
     * true when copied. The file stays on disk: nothing the player owns is deleted here.
     */
    async importLegacy(url: string): Promise<boolean> {
      const name = nameOf(url);
      if (!name || !legacyDirectory || (await store.get(avatarKey(name)))) return false;
      const body = await readFile(path.join(legacyDirectory, name)).catch(() => null);
      if (!body) return false;
      await store.put(avatarKey(name), { body, contentType: 'image/webp' });
      return true;
    },
    /**
     * Removes a photo saved by `save` (or an older one on disk), given its public URL; anything
     * else is ignored. By then the account no longer points at it, so a failure only leaves an
     * unreachable file behind: it is logged, not thrown, to keep the player's change a success.
     */
    async remove(url: string | null): Promise<void> {
      const name = nameOf(url);
      if (!name) return;
      try {
        await store.delete(avatarKey(name));
        if (legacyDirectory) await rm(path.join(legacyDirectory, name), { force: true });
      } catch (error) {
        log.warn({ err: error, url }, 'could not delete a replaced profile photo');
      }
    },
  };
}

export type AvatarStorage = ReturnType<typeof createAvatarStorage>;

/** DATA_DIR/uploads/avatars: where photos were kept before they moved to the shared store. */
export const legacyAvatarDirectory = (dataDir: string) =>
  path.resolve(dataDir, 'uploads', 'avatars');
