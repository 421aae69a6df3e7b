import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const AVATAR_NAME = /^[a-f0-9]{32}\.webp$/;

/** Uploaded files live under DATA_DIR/uploads with server-made names only. */
export function createAvatarStorage(dataDir: string) {
  const directory = path.resolve(dataDir, 'uploads', 'avatars');
  return {
    directory,
    urlPrefix: '/uploads/avatars/',
    isValidName: (name: string) => AVATAR_NAME.test(name),
    async save(webp: Buffer): Promise<string> {
      await mkdir(directory, { recursive: true });
      const name = `${randomBytes(16).toString('hex')}.webp`;
      await writeFile(path.join(directory, name), webp, { flag: 'wx' });
      return `/uploads/avatars/${name}`;
    },
    /** Removes a file saved by `save`, given its public URL; anything else is ignored. */
    async remove(url: string | null): Promise<void> {
      const name = url?.startsWith('/uploads/avatars/')
        ? url.slice('/uploads/avatars/'.length)
        : null;
      if (name && AVATAR_NAME.test(name)) await rm(path.join(directory, name), { force: true });
    },
  };
}

export type AvatarStorage = ReturnType<typeof createAvatarStorage>;
