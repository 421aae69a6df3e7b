import { accessSync, constants, statfsSync } from 'node:fs';

const MEMORY_FILE_SYSTEM = '/dev/shm';
/** More than a run's test files hold at once (a server process's DATA_DIR is ~41 MB). */
const ROOM_NEEDED = 2 * 1024 ** 3;

/**
 * Points the run's temporary files (PGlite data directories, server processes' DATA_DIR,
 * uploads) at the machine's memory file system when it has one with room, unless TMPDIR says
 * where they go. On a disk file system every file a test makes and deletes costs the kernel an
 * inode, and a server process's DATA_DIR alone is a thousand-odd files (bench/RESULTS.md).
 * Called where Vitest reads its configuration, so the run's processes inherit it.
 */
export function preferMemoryTempDir(): void {
  if (process.env.TMPDIR) return;
  try {
    accessSync(MEMORY_FILE_SYSTEM, constants.W_OK);
    const { bavail, bsize } = statfsSync(MEMORY_FILE_SYSTEM);
    if (bavail * bsize >= ROOM_NEEDED) process.env.TMPDIR = MEMORY_FILE_SYSTEM;
  } catch {
    // No memory file system here (macOS, Windows): the system's temporary directory it is.
  }
}
