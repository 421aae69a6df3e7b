import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Flags for a quiet, sandbox-free headless Chromium that never phones home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long one step (a wait, a click) may take before it fails with Playwright's message. */
const STEP_TIMEOUT_MS = 20_000;

/** A common Android phone width and a laptop. */
export const VIEWPORTS = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
export const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as ViewportName[];

/**
 * Playwright's own `--disable-features` list (playwright-core's chromiumSwitches). Chromium
 * keeps only the last `--disable-features` it is given, so a launch that turns off more features
 * has to repeat these; support/browser.test.ts fails when Playwright's list grows.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The flags for a Chromium that Playwright drives, one new window per browser context. Full
 * Chromium loads two WebUI pages of the address bar's popup into every new window, which no
 * headless page ever shows: they cost more Chromium CPU than a context and a small page of its
 * own (bench/RESULTS.md, the test suite's section).
 */
export const PLAYWRIGHT_CHROMIUM_ARGS = [
  ...CHROMIUM_ARGS,
  `--disable-features=${[
    ...PLAYWRIGHT_DISABLED_FEATURES,
    'WebUIOmniboxPopup',
    'WebUIOmniboxAimPopup',
  ].join(',')}`,
];

/** Launches the system Chromium (playwright-core never downloads one). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: PLAYWRIGHT_CHROMIUM_ARGS,
    headless: true,
  });
}

export interface OpenPageOptions {
  viewport?: ViewportName;
  /** Console errors a test expects; any other console error or page error fails the test. */
  allowConsoleErrors?: RegExp[];
  /** Logs the page in: stored as localStorage `authToken` before any of the app's scripts run. */
  authToken?: string;
  /**
   * Lets the app's service worker run (e2e/installable-app.test.ts). Off by default: other
   * tests stub requests with page.route, which a worker answering from its cache would bypass.
   */
  serviceWorkers?: boolean;
}

/**
 * Pages opened during a test. Every console error and uncaught page error is recorded, and
 * `closeAll` reports them after the test so a noisy page fails it even when its assertions pass.
 */
export class PageTracker {
  private contexts: BrowserContext[] = [];
  private problems: string[] = [];

  constructor(private readonly browser: () => Browser) {}

  async newPage(options: OpenPageOptions = {}): Promise<Page> {
    const viewportName = options.viewport ?? 'mobile';
    const mobile = viewportName === 'mobile';
    const context = await this.browser().newContext({
      viewport: VIEWPORTS[viewportName],
      isMobile: mobile,
      hasTouch: mobile,
      deviceScaleFactor: 1,
      locale: 'en-NG',
      timezoneId: 'Africa/Lagos',
      // Decorative loops (a live game's pulsing dot, spinners) redraw every frame for as long as
      // a page is open, which in software rendering cost about 0.1 s of CPU a second; no test is
      // about motion, and the app's reduced-motion rules run each animation once.
      reducedMotion: 'reduce',
      serviceWorkers: options.serviceWorkers ? 'allow' : 'block',
    });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    this.contexts.push(context);
    if (options.authToken) {
      await context.addInitScript((token) => {
        if (!localStorage.getItem('authToken')) localStorage.setItem('authToken', token);
      }, options.authToken);
    }
    const page = await context.newPage();
    const allowed = options.allowConsoleErrors ?? [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (allowed.some((pattern) => pattern.test(text))) return;
      const where = message.location().url;
      this.problems.push(`console error on ${page.url()}: ${text}${where ? ` (${where})` : ''}`);
    });
    page.on('pageerror', (error) => {
      this.problems.push(`uncaught error on ${page.url()}: ${error.stack ?? error.message}`);
    });
    return page;
  }

  /** Closes every page of the test; throws when any of them logged an error. */
  async closeAll(): Promise<void> {
    const contexts = this.contexts;
    const problems = this.problems;
    this.contexts = [];
    this.problems = [];
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    if (problems.length > 0) {
      throw new Error(`The page reported ${problems.length} error(s):\n${problems.join('\n')}`);
    }
  }
}

/**
 * Resolves once React has taken over a prerendered form (LiveForm marks it `data-live`). Before
 * that the page is the build's HTML: a press on submit is held until then, so a test that means
 * to see the form's own checks at work, not the held press, waits for this first.
 */
export async function waitForLiveForm(page: Page): Promise<void> {
  await page.locator('form[data-live]').first().waitFor({ state: 'attached' });
}

/** Resolves once the screen has rendered: a top heading is visible and web fonts are in. */
export async function waitForScreen(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor({ state: 'visible' });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}
