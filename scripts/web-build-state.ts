/**
 * Whether dist/web is missing or older than the sources it is built from. Shared by `npm start`
 * and the browser tests so both rebuild under the same rule.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const STAMP = 'dist/web/build-stamp.json';
const WEB_INPUTS = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'];

export type WebBuildState = 'missing' | 'stale' | 'fresh';

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** `root` is the repository root (the current directory by default). */
export function webBuildState(root = process.cwd()): WebBuildState {
  const stamp = path.resolve(root, STAMP);
  if (!existsSync(stamp)) return 'missing';
  const builtAt = statSync(stamp).mtimeMs;
  const changed = WEB_INPUTS.some((input) => newestMtime(path.resolve(root, input)) > builtAt);
  return changed ? 'stale' : 'fresh';
}
