/**
 * `npm start`: builds the web app when it is missing or older than its sources, then runs the
 * server (which applies migrations and seeds on its own).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildWeb } from './build-web.ts';

const STAMP = path.resolve('dist/web/build-stamp.json');
const WEB_INPUTS = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'];

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

const builtAt = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const sourcesChanged = WEB_INPUTS.some((input) => newestMtime(path.resolve(input)) > builtAt);
if (builtAt === 0 || sourcesChanged) {
  console.info(builtAt === 0 ? 'Building the web app…' : 'Web sources changed, rebuilding…');
  await buildWeb();
}
await import('../src/server/main.ts');
