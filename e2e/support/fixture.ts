import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { launchChromium, type OpenPageOptions, PageTracker } from './browser.ts';
import { type RunningServer, startServer } from './server.ts';

const LOG_TAIL = 4_000;

export interface E2E {
  readonly server: RunningServer;
  /**
   * Opens `path` of the app in a fresh browser context (no storage carried between pages); a
   * full URL opens that page instead (the web app served from another origin).
   */
  open(path: string, options?: OpenPageOptions): Promise<Page>;
}

export interface E2ESuiteOptions {
  /**
   * Extra server environment (SMTP_URL, ADMIN_EMAIL…), computed in the file's beforeAll so it
   * can point at helpers (a test SMTP server) started there.
   */
  env?: () => Record<string, string> | Promise<Record<string, string>>;
}

/**
 * One real server and one Chromium for the whole test file; pages are closed after each test,
 * which fails when a page logged a console error or threw. A failing test also prints the tail
 * of the server's log.
 */
export function e2eSuite(options: E2ESuiteOptions = {}): E2E {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const pages = new PageTracker(() => {
    if (!browser) throw new Error('the browser is not running');
    return browser;
  });

  beforeAll(async () => {
    const extraEnv = (await options.env?.()) ?? {};
    const [startedServer, launched] = await Promise.allSettled([
      startServer({
        template: inject('dataTemplate'),
        // A file may serve its own copy of the build (WEB_DIST), e.g. to change it mid-test.
        env: { ...inject('beaconEnv'), WEB_DIST: inject('webDist'), ...extraEnv },
      }),
      launchChromium(inject('chromiumPath')),
    ]);
    if (startedServer.status === 'fulfilled') server = startedServer.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (startedServer.status === 'rejected') throw startedServer.reason;
    if (launched.status === 'rejected') throw launched.reason;
  });

  afterAll(async () => {
    await Promise.all([browser?.close(), server?.stop()]);
  });

  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      const log = server?.output().trim();
      if (log) console.info(`Server log (last ${LOG_TAIL} characters):\n${log.slice(-LOG_TAIL)}`);
    });
  });

  afterEach(async () => {
    await pages.closeAll();
  });

  return {
    get server() {
      if (!server) throw new Error('the server is not running');
      return server;
    },
    async open(path, options) {
      if (!server) throw new Error('the server is not running');
      const page = await pages.newPage(options);
      await page.goto(/^https?:\/\//.test(path) ? path : `${server.url}${path}`);
      return page;
    },
  };
}
