import { readFile } from 'node:fs/promises';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../../src/server/test/smtp.ts';
import { type Player, registerPlayer } from './accounts.ts';
import { type OpenPageOptions, PageTracker } from './browser.ts';
import type { RunningServer } from './server.ts';
import { leaseServer, releaseServer } from './server-pool.ts';

const LOG_TAIL = 4_000;

export interface E2E {
  readonly server: Pick<RunningServer, 'url'>;
  /** The file's test SMTP server, where its server sends every e-mail (`mail: true`). */
  readonly mail: TestSmtpServer;
  /**
   * Opens `path` of the app in a fresh browser context (no storage carried between pages); a
   * full URL opens that page instead (the web app served from another origin).
   */
  open(path: string, options?: OpenPageOptions): Promise<Page>;
  /** A verified player of this file's server (accounts.ts `registerPlayer`; needs `mail: true`). */
  registerPlayer(name: string, options?: { fullname?: string; email?: string }): Promise<Player>;
}

export interface E2ESuiteOptions {
  /**
   * The run's shared server (global-setup.ts: the operator bootstrapped, no mail) instead of one
   * of the file's own, for files that only read what the seed and the operator make. Files that
   * create data or need other settings lease their own from the run's warm servers.
   */
  shared?: boolean;
  /** Starts a test SMTP server for the file and points the file's server at it (SMTP_URL). */
  mail?: boolean;
  /**
   * Extra server environment (ADMIN_EMAIL, JOB_POLL_MS…), computed in the file's beforeAll so it
   * can point at helpers (a fake push service) started there.
   */
  env?: () => Record<string, string> | Promise<Record<string, string>>;
}

interface SuiteServer {
  url: string;
  output(): Promise<string>;
  stop(): Promise<void>;
}

/** The shared server of global-setup.ts: never stopped here; its log is read from its file. */
function sharedServer(): SuiteServer {
  const { url, logFile } = inject('sharedServer');
  return {
    url,
    output: () => readFile(logFile, 'utf8').catch(() => ''),
    stop: async () => {},
  };
}

/** A warm server of the run's pool (server-pool.ts) on a fresh copy of the data template. */
async function ownServer(env: Record<string, string>): Promise<SuiteServer> {
  const pool = inject('e2eServerPool');
  const leased = await leaseServer(pool, {
    ...inject('beaconEnv'),
    // A file may serve its own copy of the build (WEB_DIST), e.g. to change it mid-test.
    WEB_DIST: inject('webDist'),
    ...env,
  });
  return {
    url: leased.url,
    output: () => readFile(leased.logFile, 'utf8').catch(() => ''),
    stop: () => releaseServer(pool, leased.lease),
  };
}

/**
 * A real server and a browser for the test file: a server leased for the file (or the run's
 * shared one) and a connection to the run's Chromium (global-setup.ts), each test's pages in contexts
 * of their own. Pages are closed after each test, which fails when a page logged a console error
 * or threw. A failing test also prints the tail of the server's log.
 */
export function e2eSuite(options: E2ESuiteOptions = {}): E2E {
  if (options.shared && (options.mail || options.env)) {
    throw new Error('e2eSuite: the shared server has fixed settings; start an own one instead');
  }
  let server: SuiteServer | undefined;
  let browser: Browser | undefined;
  let smtp: TestSmtpServer | undefined;
  const pages = new PageTracker(() => {
    if (!browser) throw new Error('the browser is not connected');
    return browser;
  });

  const startSuiteServer = async (): Promise<SuiteServer> => {
    if (options.shared) return sharedServer();
    if (options.mail) smtp = await startSmtpServer();
    const extraEnv = (await options.env?.()) ?? {};
    return ownServer(smtp ? { SMTP_URL: smtp.url, ...extraEnv } : extraEnv);
  };

  beforeAll(async () => {
    const [started, connected] = await Promise.allSettled([
      startSuiteServer(),
      chromium.connect(inject('chromiumEndpoint')),
    ]);
    if (started.status === 'fulfilled') server = started.value;
    if (connected.status === 'fulfilled') browser = connected.value;
    if (started.status === 'rejected') throw started.reason;
    if (connected.status === 'rejected') throw connected.reason;
  });

  afterAll(async () => {
    // Closing a connected browser closes this file's contexts and disconnects; Chromium stays.
    await Promise.all([browser?.close(), server?.stop()]);
    await smtp?.close();
  });

  beforeEach(({ onTestFailed }) => {
    onTestFailed(async () => {
      const log = (await server?.output())?.trim();
      if (log) console.info(`Server log (last ${LOG_TAIL} characters):\n${log.slice(-LOG_TAIL)}`);
    });
  });

  afterEach(async () => {
    await pages.closeAll();
  });

  const running = (): SuiteServer => {
    if (!server) throw new Error('the server is not running');
    return server;
  };
  const mail = (): TestSmtpServer => {
    if (!smtp) throw new Error('the SMTP server is not running (e2eSuite({ mail: true }))');
    return smtp;
  };

  return {
    get server() {
      return { url: running().url };
    },
    get mail() {
      return mail();
    },
    async open(path, openOptions) {
      const page = await pages.newPage(openOptions);
      await page.goto(/^https?:\/\//.test(path) ? path : `${running().url}${path}`);
      return page;
    },
    registerPlayer(name, playerOptions) {
      return registerPlayer(running().url, mail(), name, playerOptions);
    },
  };
}
