import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { buildServerForRun } from '../../scripts/build-server.ts';
import { startFakeBeacon } from '../../src/server/test/fake-beacon.ts';
import { enrolledOperatorSecret, OPERATOR_ENV, operatorToken } from './accounts.ts';
import { PLAYWRIGHT_CHROMIUM_ARGS } from './browser.ts';
import { ensureWebBuild, findChromium, snapshotWebBuild } from './prepare.ts';
import { createDataTemplate, startServer } from './server.ts';
import { startServerPool } from './server-pool.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium (never a downloaded one), for `chromium.connect`. */
    chromiumEndpoint: string;
    /** A DATA_DIR the real server initialised; each test file's server starts on a copy. */
    dataTemplate: string;
    /** A private copy of dist/web that the test servers serve (WEB_DIST). */
    webDist: string;
    /** The server files share with `e2eSuite({ shared: true })`, and the file its log goes to. */
    sharedServer: { url: string; logFile: string };
    /** The authenticator secret the shared server's operator was enrolled with, here. */
    sharedOperatorSecret: string;
    /** Where files lease a warm server of their own (server-pool.ts). */
    e2eServerPool: string;
  }
}

/**
 * Runs once before the browser tests: launches Chromium (each file connects to it rather than
 * starting its own), builds the server, and the web app when dist/web is missing or older than
 * its sources (so the real server serves what the sources say), has the real server create,
 * migrate and seed a database for the test files to start from, starts the server read-only
 * files share and the pool of warm servers the other files lease.
 */
export default async function setup(project: TestProject) {
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  };
  const settled = async <T>(
    steps: Promise<T>[],
    cleanupOf: (value: T) => () => Promise<void>,
  ): Promise<T[]> => {
    const results = await Promise.allSettled(steps);
    for (const result of results)
      if (result.status === 'fulfilled') cleanups.push(cleanupOf(result.value));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return results.map((result) => (result as PromiseFulfilledResult<T>).value);
  };
  try {
    const chromiumServer = await chromium.launchServer({
      executablePath: findChromium(),
      args: PLAYWRIGHT_CHROMIUM_ARGS,
      headless: true,
    });
    cleanups.push(() => chromiumServer.close());
    project.provide('chromiumEndpoint', chromiumServer.wsEndpoint());
    // Draws in the browser tests wait for a beacon round like real ones: this stand-in signs it.
    const beacon = await startFakeBeacon();
    cleanups.push(beacon.close);
    project.provide('beaconEnv', beacon.env);
    const server = await buildServerForRun();
    cleanups.push(server.remove);
    project.provide('serverMain', server.main);
    const [web, template] = await settled<{ dir: string; remove(): Promise<void> }>(
      [ensureWebBuild().then(snapshotWebBuild), createDataTemplate(server.main)],
      (made) => made.remove,
    );
    if (!web || !template) throw new Error('the web build or the data template is missing');
    project.provide('webDist', web.dir);
    project.provide('dataTemplate', template.dir);

    const logDir = await mkdtemp(path.join(tmpdir(), 'pluckers-e2e-log-'));
    cleanups.push(() => rm(logDir, { recursive: true, force: true }));
    const pool = await startServerPool({ template: template.dir, logDir });
    cleanups.push(pool.stop);
    project.provide('e2eServerPool', pool.url);
    const logFile = path.join(logDir, 'shared-server.log');
    const shared = await startServer({
      serverMain: server.main,
      template: template.dir,
      env: { ...beacon.env, WEB_DIST: web.dir, ...OPERATOR_ENV },
      logFile,
    });
    cleanups.push(shared.stop);
    project.provide('sharedServer', { url: shared.url, logFile });
    // Enrolled once here, before the files run: files logging in at once must not each start
    // an enrolment (each start replaces the secret the other is about to confirm).
    await operatorToken(shared.url);
    const secret = enrolledOperatorSecret(shared.url);
    if (!secret) throw new Error("the shared server's operator was not enrolled");
    project.provide('sharedOperatorSecret', secret);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
