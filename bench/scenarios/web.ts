import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, PLAYWRIGHT_CHROMIUM_ARGS } from '../../e2e/support/browser.ts';
import {
  buildWeb,
  gzipSize,
  type Manifest,
  readManifest,
  screenBudgets,
} from '../../scripts/build-web.ts';
import { webBuildState } from '../../scripts/web-build-state.ts';
import { STORAGE_KEYS } from '../../src/shared/constants.ts';
import { chromiumPath } from '../lib/chromium.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { startPlainFiles } from '../lib/plain-files.ts';
import { ROOT } from '../lib/server.ts';
import { median, round } from '../lib/stats.ts';
import { measureDataCost, REPEAT_VISIT_BUDGET_BYTES } from './data-cost.ts';
import type { ReadServer } from './read.ts';

const kb = (bytes: number) => round(bytes / 1024, 1);

/**
 * Builds dist/web when missing or stale; returns the build's error (an over-budget build still
 * leaves a manifest to measure), or null.
 */
export async function ensureBuilt(options: RunOptions): Promise<string | null> {
  const state = webBuildState();
  if (state === 'fresh') return null;
  options.log(`web: dist/web is ${state}, building it`);
  try {
    await buildWeb();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function screenSizes(manifest: Manifest) {
  const sizes: Array<{ screen: string; limit: number; jsBytes: number; cssBytes: number }> = [];
  for (const budget of screenBudgets(manifest)) {
    let jsBytes = 0;
    const css = new Set<string>();
    for (const key of budget.chunks) {
      const chunk = manifest[key];
      if (!chunk) continue;
      jsBytes += await gzipSize(chunk.file);
      for (const file of chunk.css ?? []) css.add(file);
    }
    let cssBytes = 0;
    for (const file of css) cssBytes += await gzipSize(file);
    sizes.push({ screen: budget.screen, limit: budget.limit, jsBytes, cssBytes });
  }
  return sizes;
}

interface PageAudit {
  screen: string;
  /** Where the app came from: the real server, or its build as plain files. */
  host: 'server' | 'plain files';
  tool: 'lighthouse' | 'playwright';
  performance?: number;
  accessibility?: number;
  bestPractices?: number;
  fcpMs?: number;
  lcpMs: number;
  cls?: number;
  tbtMs?: number;
  totalBytes: number;
  /** Lighthouse only: the page it ended on, and what it warned about, per round. */
  finalUrl?: string;
  rounds?: number;
  /** Lighthouse only, one per round: the score, the blocking time, the 1-minute load average. */
  performanceByRound?: number[];
  tbtByRound?: number[];
  loadAverages?: number[];
  warnings?: string[];
}

/** Lighthouse rounds per page; each figure is the median of them. */
const LIGHTHOUSE_ROUNDS = 5;
/** The plain files' score may lead the server's by at most this many points. */
const PLAIN_FILES_GAP = 3;
/** The budget for the first paint and the largest one, on the real server. */
const PAINT_BUDGET_MS = 1_000;

/** Puts the player's token into the origin's localStorage and empties the HTTP cache. */
async function logIn(cdpUrl: string, origin: string, token: string): Promise<void> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    // A same-origin URL that loads no asset, so nothing of the app gets cached.
    await page.goto(`${origin}/api/health`);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [STORAGE_KEYS.token, token],
    );
    const session = await context.newCDPSession(page);
    await session.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    await browser.close();
  }
}

interface TraceEvent {
  name: string;
  ph?: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { documentLoaderURL?: string } };
}

/**
 * What a page load cost Chromium's renderers, from Lighthouse's trace: how many renderer
 * processes there were (one more when the page is put in a browsing context group of its
 * own) and the CPU time of the page's main thread, which, unlike the tasks' wall time that
 * Lighthouse's blocking time is built from, leaves out the time other processes of a crowded
 * machine held the core.
 */
function rendererCost(events: TraceEvent[]) {
  const mainThreads = new Map<number, number>();
  for (const event of events)
    if (event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      mainThreads.set(event.pid, event.tid);
  const page = events.find(
    (event) =>
      event.name === 'navigationStart' && event.args?.data?.documentLoaderURL?.startsWith('http'),
  )?.pid;
  const pageThread = page === undefined ? undefined : mainThreads.get(page);
  const tasks = events.filter(
    (event) =>
      event.pid === page &&
      event.tid === pageThread &&
      event.ph === 'X' &&
      (event.name === 'RunTask' || event.name === 'ThreadControllerImpl::RunTask'),
  );
  return {
    renderers: mainThreads.size,
    mainThreadCpuMs: tasks.reduce((sum, event) => sum + (event.tdur ?? 0), 0) / 1000,
    mainThreadWallMs: tasks.reduce((sum, event) => sum + (event.dur ?? 0), 0) / 1000,
  };
}

/** Each round's full report, kept so a figure over budget can be explained (LCP element, chains). */
const LIGHTHOUSE_REPORTS_DIR = path.join(ROOT, 'bench/results/lighthouse');

/** Where the tab is before Lighthouse navigates it to the page. */
export type StartPage = 'another site' | 'about:blank';

let anotherSiteUrl: Promise<string> | undefined;

/**
 * A page of another site (`localhost`, where the pages are audited on 127.0.0.1) for Lighthouse
 * to start from, as a player arrives from a link elsewhere. Lighthouse's own start, about:blank,
 * is a document whose renderer Chromium reuses for the page unless the page must go to a
 * browsing context group of its own (Cross-Origin-Opener-Policy): then it alone pays a new
 * renderer's start-up, which a player arriving from another site pays either way (site
 * isolation gives the page a new process). bench/RESULTS.md fix 22 has the measurements.
 */
function anotherSite(): Promise<string> {
  anotherSiteUrl ??= new Promise((resolve) => {
    const server = http.createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>Another site</title><p>A link to Pluckers.</p>'),
    );
    server.unref();
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://localhost:${(server.address() as AddressInfo).port}/`),
    );
  });
  return anotherSiteUrl;
}

/**
 * One Lighthouse run of `screen` at `origin`, in a Chromium of its own, starting from
 * `from`. `provided` throttling runs it as the machine is, instead of Lighthouse's simulated
 * slow 4G and 4× slower CPU.
 */
export async function lighthouseOnce(
  origin: string,
  screen: string,
  token: string,
  reportName: string,
  { throttling = 'simulate', from = 'another site' }: LighthouseOptions = {},
) {
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: CHROMIUM_ARGS,
  });
  try {
    const loggedIn = screen === '/Home';
    if (loggedIn) await logIn(`http://127.0.0.1:${chrome.port}`, origin, token);
    const result = await lighthouse(`${origin}${screen}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      throttlingMethod: throttling,
      blankPage: from === 'about:blank' ? 'about:blank' : await anotherSite(),
      // Keeps the token set above; the cache was emptied by hand instead.
      disableStorageReset: loggedIn,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${screen}`);
    const { lhr } = result;
    await mkdir(LIGHTHOUSE_REPORTS_DIR, { recursive: true });
    await writeFile(path.join(LIGHTHOUSE_REPORTS_DIR, `${reportName}.json`), JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const failing = Object.values(lhr.audits)
      .filter(
        (audit) =>
          audit.score !== null &&
          audit.score < 1 &&
          audit.scoreDisplayMode === 'binary' &&
          audit.id !== 'is-crawlable',
      )
      .map((audit) => audit.id);
    // Where the blocking time came from: the main thread's long tasks, by the script Chromium
    // attributed each to (or "unattributable": the browser's own work, such as a new renderer).
    const longTasks = (
      (lhr.audits['long-tasks']?.details as { items?: Array<Record<string, unknown>> } | undefined)
        ?.items ?? []
    ).map((item) => ({
      url: String(item.url ?? ''),
      startTime: Number(item.startTime ?? 0),
      duration: Number(item.duration ?? 0),
    }));
    return {
      ...rendererCost(result.artifacts.Trace.traceEvents as unknown as TraceEvent[]),
      longTasks,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      cls: metric('cumulative-layout-shift'),
      tbtMs: metric('total-blocking-time'),
      totalBytes: metric('total-byte-weight'),
      finalUrl: lhr.finalDisplayedUrl,
      warnings: [...lhr.runWarnings, ...failing.map((id) => `failing audit: ${id}`)],
    };
  } finally {
    chrome.kill();
  }
}

type LighthouseRun = Awaited<ReturnType<typeof lighthouseOnce>>;

export interface LighthouseOptions {
  throttling?: 'simulate' | 'provided';
  from?: StartPage;
}

/** One round, run again once when Chromium's trace came back incomplete. */
export function lighthouseRound(
  origin: string,
  screen: string,
  token: string,
  reportName: string,
  log: (line: string) => void,
  options: LighthouseOptions = {},
): Promise<LighthouseRun> {
  return lighthouseOnce(origin, screen, token, reportName, options).catch((error: unknown) => {
    // Lighthouse's own advice when Chromium's trace came back incomplete (seen on a busy
    // machine): that round measured nothing, so it is run once more.
    if (!(error instanceof Error && /\(NO_[A-Z_]+\)/.test(error.message))) throw error;
    log(`web: ${error.message}; ${reportName} run again`);
    return lighthouseOnce(origin, screen, token, reportName, options);
  });
}

/**
 * /login and Home on each host, LIGHTHOUSE_ROUNDS runs each, the median of every figure. The
 * hosts take turns within each round, so a change in the machine's load (other sessions)
 * falls on both alike rather than on whichever ran first.
 */
async function lighthouseAudits(
  hosts: Array<{ host: PageAudit['host']; origin: string }>,
  token: string,
  log: (line: string) => void,
): Promise<PageAudit[]> {
  const screens = ['/login', '/Home'];
  const runs = new Map<string, LighthouseRun[]>();
  const loads = new Map<string, number[]>();
  for (let round = 1; round <= LIGHTHOUSE_ROUNDS; round++) {
    for (const screen of screens) {
      for (const { host, origin } of hosts) {
        const key = `${host} ${screen}`;
        log(`web: Lighthouse on ${screen} (${host}), round ${round} of ${LIGHTHOUSE_ROUNDS}`);
        const reportName = `${host.replace(' ', '-')}${screen.replace('/', '-')}-${round}`;
        loads.set(key, [...(loads.get(key) ?? []), os.loadavg()[0] ?? 0]);
        const run = await lighthouseRound(origin, screen, token, reportName, log);
        runs.set(key, [...(runs.get(key) ?? []), run]);
      }
    }
  }
  const audits: PageAudit[] = [];
  for (const { host } of hosts) {
    for (const screen of screens) {
      const pageRuns = runs.get(`${host} ${screen}`) ?? [];
      const mid = (pick: (run: LighthouseRun) => number) => median(pageRuns.map(pick));
      audits.push({
        screen,
        host,
        tool: 'lighthouse',
        performance: mid((run) => run.performance),
        accessibility: mid((run) => run.accessibility),
        bestPractices: mid((run) => run.bestPractices),
        fcpMs: mid((run) => run.fcpMs),
        lcpMs: mid((run) => run.lcpMs),
        cls: mid((run) => run.cls),
        tbtMs: mid((run) => run.tbtMs),
        totalBytes: mid((run) => run.totalBytes),
        // Every round must end on the page asked for; the first that does not is reported.
        finalUrl: pageRuns.find((run) => !run.finalUrl.toLowerCase().endsWith(screen.toLowerCase()))
          ?.finalUrl,
        rounds: pageRuns.length,
        performanceByRound: pageRuns.map((run) => run.performance),
        tbtByRound: pageRuns.map((run) => Math.round(run.tbtMs)),
        loadAverages: (loads.get(`${host} ${screen}`) ?? []).map((value) => round(value, 1)),
        warnings: [...new Set(pageRuns.flatMap((run) => run.warnings))],
      });
    }
  }
  return audits;
}

/** LCP and transferred bytes with Lighthouse-like mobile throttling, through CDP. */
async function playwrightAudits(server: ReadServer): Promise<PageAudit[]> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: PLAYWRIGHT_CHROMIUM_ARGS,
  });
  const audits: PageAudit[] = [];
  try {
    for (const screen of ['/login', '/Home']) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      if (screen === '/Home') {
        await page.goto(`${server.url}/api/health`);
        await page.evaluate(
          ([key, token]) => localStorage.setItem(key as string, token as string),
          [STORAGE_KEYS.token, server.token],
        );
      }
      const session = await context.newCDPSession(page);
      await session.send('Network.enable');
      await session.send('Network.clearBrowserCache');
      await session.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      let totalBytes = 0;
      session.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
        totalBytes += event.encodedDataLength;
      });
      await page.addInitScript(() => {
        const record = window as unknown as { __lcp: number };
        record.__lcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) record.__lcp = entry.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto(`${server.url}${screen}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(500);
      const lcpMs = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
      // 0 means Chromium reported no LCP entry at all (nothing painted that qualifies).
      audits.push({
        screen,
        host: 'server',
        tool: 'playwright',
        lcpMs: lcpMs || Number.NaN,
        totalBytes,
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return audits;
}

export async function runWebFigures(
  server: ReadServer,
  options: RunOptions,
  buildError: string | null,
): Promise<ScenarioResult> {
  const problems: string[] = [];
  const manifest = await readManifest();
  const sizes = await screenSizes(manifest);
  const figures: Figure[] = [];
  for (const size of sizes) {
    figures.push(
      {
        section: 'web',
        name: `${size.screen} JavaScript (gzip)`,
        value: kb(size.jsBytes),
        unit: 'KB',
        budget: `≤ ${kb(size.limit)} KB`,
        pass: size.jsBytes <= size.limit,
      },
      { section: 'web', name: `${size.screen} CSS (gzip)`, value: kb(size.cssBytes), unit: 'KB' },
    );
  }

  let audits: PageAudit[] = [];
  let lighthouseError: string | null = null;
  if (options.quick) {
    lighthouseError = 'skipped in --quick (a full run measures Lighthouse)';
  } else {
    const plain = await startPlainFiles('dist/web', server.url);
    try {
      audits = await lighthouseAudits(
        [
          { host: 'server', origin: server.url },
          { host: 'plain files', origin: plain.url },
        ],
        server.token,
        options.log,
      );
    } catch (error) {
      lighthouseError = error instanceof Error ? error.message : String(error);
      options.log(
        `web: Lighthouse could not run (${lighthouseError}); measuring with playwright-core`,
      );
    } finally {
      await plain.close();
    }
  }
  if (audits.length === 0) audits = await playwrightAudits(server);

  for (const audit of audits) {
    if (audit.screen === '/Home' && audit.finalUrl) {
      problems.push(
        `web: a logged-in Home audit (${audit.host}) ended on ${audit.finalUrl}, not on Home`,
      );
    }
    const screenName = audit.screen === '/Home' ? 'Home (logged in)' : audit.screen;
    // Budgets are the real server's; the plain files are there to compare with.
    const budgeted = audit.host === 'server';
    const name = budgeted ? screenName : `${screenName}, plain files`;
    const judged = (budget: string, pass: boolean) => (budgeted ? { budget, pass } : {});
    if (audit.tool === 'lighthouse') {
      const median = `median of ${audit.rounds} (${audit.performanceByRound?.join(', ')}; TBT ${audit.tbtByRound?.join(', ')} ms; load ${audit.loadAverages?.join(', ')})`;
      figures.push(
        {
          section: 'web',
          name: `${name} Lighthouse performance`,
          value: audit.performance ?? null,
          unit: '',
          ...judged('100', audit.performance === 100),
          note: median,
        },
        {
          section: 'web',
          name: `${name} Lighthouse accessibility`,
          value: audit.accessibility ?? null,
          unit: '',
          ...judged('100', audit.accessibility === 100),
        },
        {
          section: 'web',
          name: `${name} Lighthouse best practices`,
          value: audit.bestPractices ?? null,
          unit: '',
          ...judged('100', audit.bestPractices === 100),
        },
        {
          section: 'web',
          name: `${name} FCP (Lighthouse, simulated)`,
          value: round(audit.fcpMs ?? Number.NaN, 0),
          unit: 'ms',
          ...judged(
            `≤ ${PAINT_BUDGET_MS} ms`,
            (audit.fcpMs ?? Number.POSITIVE_INFINITY) <= PAINT_BUDGET_MS,
          ),
        },
        {
          section: 'web',
          name: `${name} LCP (Lighthouse, simulated)`,
          value: round(audit.lcpMs, 0),
          unit: 'ms',
          ...judged(`≤ ${PAINT_BUDGET_MS} ms`, audit.lcpMs <= PAINT_BUDGET_MS),
        },
        {
          section: 'web',
          name: `${name} CLS`,
          value: round(audit.cls ?? Number.NaN, 3),
          unit: '',
          ...judged('0', audit.cls === 0),
        },
        {
          section: 'web',
          name: `${name} total blocking time`,
          value: round(audit.tbtMs ?? Number.NaN, 0),
          unit: 'ms',
        },
      );
    } else {
      figures.push({
        section: 'web',
        name: `${name} LCP (playwright-core, throttled)`,
        value: round(audit.lcpMs, 0),
        unit: 'ms',
      });
    }
    figures.push({
      section: 'web',
      name: `${name} total bytes`,
      value: kb(audit.totalBytes),
      unit: 'KB',
    });
  }

  // The server's own part of the score: its row against the same build as plain files.
  for (const screen of ['/login', '/Home']) {
    const onServer = audits.find(
      (a) => a.tool === 'lighthouse' && a.host === 'server' && a.screen === screen,
    );
    const plain = audits.find((a) => a.host === 'plain files' && a.screen === screen);
    if (onServer?.performance === undefined || plain?.performance === undefined) continue;
    const gap = plain.performance - onServer.performance;
    figures.push({
      section: 'web',
      name: `${screen === '/Home' ? 'Home (logged in)' : screen} performance, plain files − server`,
      value: gap,
      unit: 'points',
      budget: `≤ ${PLAIN_FILES_GAP}`,
      pass: gap <= PLAIN_FILES_GAP,
    });
  }

  // What a player's data plan pays, service worker included.
  let dataCost: Awaited<ReturnType<typeof measureDataCost>> | null = null;
  try {
    options.log('web: bytes for a first visit, a repeat visit and one played game');
    dataCost = await measureDataCost(server);
    figures.push(
      {
        section: 'web',
        name: 'Home first visit, service worker installed (bytes sent)',
        value: kb(dataCost.firstVisitBytes),
        unit: 'KB',
      },
      {
        section: 'web',
        name: 'Home repeat visit (bytes sent)',
        value: kb(dataCost.repeatVisitBytes),
        unit: 'KB',
        budget: `< ${kb(REPEAT_VISIT_BUDGET_BYTES)} KB`,
        pass: dataCost.repeatVisitBytes < REPEAT_VISIT_BUDGET_BYTES,
      },
      {
        section: 'web',
        name: 'One played game (bytes sent)',
        value: dataCost.playedGameBytes === null ? null : kb(dataCost.playedGameBytes),
        unit: 'KB',
        ...(dataCost.playedGameNote ? { note: dataCost.playedGameNote } : {}),
      },
    );
  } catch (error) {
    problems.push(`web: the data cost could not be measured (${String(error)})`);
  }
  return {
    figures,
    details: {
      sizes,
      audits,
      dataCost,
      lighthouse: lighthouseError ? { ran: false, why: lighthouseError } : { ran: true },
      buildError,
    },
    problems,
  };
}
