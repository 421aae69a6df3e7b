import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * A program from a system package (HAProxy, PgBouncer): Debian installs them in /usr/sbin, often
 * not on a user's PATH. The environment variable `envName` names the binary outright; otherwise
 * the PATH, then /usr/sbin and /usr/local/{sbin,bin}. Null when none is found.
 */
export function findSystemBinary(name: string, envName: string): string | null {
  const named = process.env[envName];
  const candidates = named
    ? [named]
    : [
        ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, name)),
        ...['/usr/sbin', '/usr/local/sbin', '/usr/local/bin'].map((dir) => path.join(dir, name)),
      ];
  return candidates.find(isExecutable) ?? null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
