import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { preferMemoryTempDir } from './src/test/memory-temp-dir.ts';
import { WEB_WAIT_MS } from './src/web/test/wait.ts';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Races need real connections, so *.postgres.test.ts files join the server run only against
// PostgreSQL; left out (not skipped) on the embedded database.
const postgresOnlyTests = process.env.TEST_DATABASE_URL ? [] : ['**/*.postgres.test.ts'];

preferMemoryTempDir();

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  test: {
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by each file's content and the configuration): a rerun of the edit–test loop skips
    // most of the transforming.
    experimental: { fsModuleCache: true },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/shared/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['src/test/fail-on-console-error.ts'],
          // Property tests run a hundred cases; beside the browser tests on a loaded machine
          // the default 5 s is not enough (no test here waits on time).
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...postgresOnlyTests],
          environment: 'node',
          globalSetup: ['src/server/test/global-setup.ts'],
          setupFiles: ['src/test/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files of a worker share its module cache: the server's modules (Fastify, Drizzle,
          // PGlite…) are imported once per worker, not once per file, which measured 42% less
          // CPU. Safe because server tests keep no state in modules but the worker's database
          // (test/database.ts), which files share as they share PostgreSQL: they make unique data,
          // build their own apps, and none mocks modules or stubs globals.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // The run's database template, then the pool of server processes the files lease.
          globalSetup: ['src/server/test/global-setup.ts', 'src/test/server-pool.ts'],
          setupFiles: [
            'src/web/test/fresh-file.ts',
            'src/test/fail-on-console-error.ts',
            'src/web/test/setup.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: { poll: { timeout: WEB_WAIT_MS } },
          // A worker's files share one happy-dom window and module cache (a fresh worker per
          // file cost more CPU than the tests); the first setup file gives each file a fresh page
          // and the app's modules evaluated afresh (src/web/test/fresh-file.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          setupFiles: ['src/test/fail-on-console-error.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // As long as a Playwright step may take (e2e/support/browser.ts): a page that takes
          // over its prerendered HTML can need more than the default second on a loaded machine.
          expect: { poll: { timeout: 20_000 } },
          // Two files at a time: a file spends most of its time waiting on Chromium and its
          // server, and they share the run's Chromium and warm servers (e2e/support).
          maxWorkers: 2,
          // A worker's files share its module cache, so Playwright and the support modules are
          // imported once per worker; the support modules key what they remember by server URL.
          isolate: false,
        },
      },
    ],
  },
});
