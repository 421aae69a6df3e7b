import type { TestProject } from 'vitest/node';
import { startFakeBeacon } from '../../src/server/test/fake-beacon.ts';
import { ensureWebBuild, findChromium, snapshotWebBuild } from './prepare.ts';
import { createDataTemplate } from './server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium binary every browser test drives (never a downloaded one). */
    chromiumPath: string;
    /** A DATA_DIR the real server initialised; each test file's server starts on a copy. */
    dataTemplate: string;
    /** A private copy of dist/web that the test servers serve (WEB_DIST). */
    webDist: string;
  }
}

/**
 * Runs once before the browser tests: finds Chromium, builds the web app when dist/web is
 * missing or older than its sources (so the real server serves what the sources say), and has
 * the real server create, migrate and seed a database for the test files to start from.
 */
export default async function setup(project: TestProject) {
  project.provide('chromiumPath', findChromium());
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  };
  try {
    // Draws in the browser tests wait for a beacon round like real ones: this stand-in signs it.
    const beacon = await startFakeBeacon();
    cleanups.push(beacon.close);
    project.provide('beaconEnv', beacon.env);
    const [web, template] = await Promise.allSettled([
      ensureWebBuild().then(snapshotWebBuild),
      createDataTemplate(),
    ]);
    if (web.status === 'fulfilled') cleanups.push(web.value.remove);
    if (template.status === 'fulfilled') cleanups.push(template.value.remove);
    if (web.status === 'rejected') throw web.reason;
    if (template.status === 'rejected') throw template.reason;
    project.provide('webDist', web.value.dir);
    project.provide('dataTemplate', template.value.dir);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
