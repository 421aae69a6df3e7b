import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildWeb } from '../../scripts/build-web.ts';
import { webBuildState } from '../../scripts/web-build-state.ts';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** CHROMIUM_PATH, else Debian's /usr/bin/chromium; a clear message when neither exists. */
export function findChromium(env: Record<string, string | undefined> = process.env): string {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new Error(`CHROMIUM_PATH is set to ${configured}, but no file exists there.`);
  }
  if (existsSync(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;
  throw new Error(
    'The browser tests need Chromium and found none at /usr/bin/chromium. Install it ' +
      '(Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to its executable.',
  );
}

/** Builds dist/web when it is missing or older than its sources (the rule `npm start` uses). */
export async function ensureWebBuild(): Promise<void> {
  const state = webBuildState();
  if (state === 'fresh') return;
  console.info(
    state === 'missing' ? 'e2e: building the web app…' : 'e2e: web sources changed, rebuilding…',
  );
  await buildWeb();
}

/**
 * Copies dist/web to a temporary directory for the test servers to serve, so a rebuild during
 * the run (`npm run build` in another terminal) cannot pull files from under the open pages.
 */
export async function snapshotWebBuild(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pluckers-e2e-web-'));
  await cp(path.resolve('dist/web'), dir, { recursive: true });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
