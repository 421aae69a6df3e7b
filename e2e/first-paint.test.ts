import { SIGNUP_MESSAGES } from '@shared/messages.ts';
import { PRERENDERED_PAGES } from '@shared/prerendered-pages.ts';
import { describe, expect, it } from 'vitest';
import { operatorToken } from './support/accounts.ts';
import { VIEWPORT_NAMES } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

/**
 * The first response already shows the page. The HTML the server sends for each
 * prerendered path holds its visible text before any script runs; in the browser React adopts
 * that HTML (the hero element from the HTML is the one still shown once the player's data has
 * come in, and any hydration mismatch would be a console error, which fails the test); a
 * visitor without a session who opens the signed-in shell lands on /login.
 */
const e2e = e2eSuite({ shared: true });

async function servedHtml(path: string): Promise<string> {
  const response = await fetch(`${e2e.server.url}${path}`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The text inside #root of `html`, tags dropped. */
function rootText(html: string): string {
  const root = html.slice(html.indexOf('<div id="root"'), html.indexOf('<noscript>'));
  return root
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
}

const VISIBLE: Record<string, string[]> = {
  '/login': ['Welcome back, Plucker', 'Email', 'Password', 'Log in', 'Continue with Google'],
  '/Signup': ['Create your account'],
  '/ForgotPassword': ['Forgot your password?'],
  '/Terms': ['The rules of the house', 'You must be 18 or over to use Pluckers.'],
  '/Privacy': ['Your data, kept to what we need'],
  '/GameRules': ['How Pluckers games work'],
  '/SupportCenter': ['How can we help?'],
  '/Home': ['FEED YOUR WALLET', "Today's games", 'Trending Games', 'Leaderboard', 'Log out'],
};

const TITLES: Record<string, string> = {
  '/login': 'Log in · Pluckers',
  '/Signup': 'Sign up · Pluckers',
  '/ForgotPassword': 'Forgot your password · Pluckers',
  '/Terms': 'Terms · Pluckers',
  '/Privacy': 'Privacy · Pluckers',
  '/GameRules': 'Game rules · Pluckers',
  '/SupportCenter': 'Support · Pluckers',
  '/Home': 'Pluckers · Play to Earn',
};

describe('the HTML of each prerendered page shows it without JavaScript', () => {
  for (const page of PRERENDERED_PAGES) {
    it(`${page.path}`, async () => {
      const html = await servedHtml(page.path);
      const text = rootText(html);
      for (const expected of VISIBLE[page.path] ?? ['(no expectation)']) {
        expect(text, page.path).toContain(expected);
      }
      expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], page.path).toBe(
        TITLES[page.path] ?? '(no expectation)',
      );
    });
  }

  it('answers / with the signed-in shell and other app routes with the plain index.html', async () => {
    expect(rootText(await servedHtml('/'))).toContain('FEED YOUR WALLET');
    expect(rootText(await servedHtml('/Profile')).trim()).toBe('');
  });
});

describe('in the browser', () => {
  let token: string | undefined;

  for (const viewport of VIEWPORT_NAMES) {
    it(`Home (${viewport}): the prerendered hero is adopted and the player's balance comes in`, async () => {
      token ??= await operatorToken(e2e.server.url);
      const page = await e2e.open('/api/health', { viewport, authToken: token });
      // Taken once the HTML is parsed and before the app's module script runs.
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive') {
            (window as unknown as { heroFromHtml: Element | null }).heroFromHtml =
              document.getElementById('hero-title');
          }
        });
      });
      await page.goto(`${e2e.server.url}/Home`);
      await page.getByRole('link', { name: /^Balance ₦/ }).waitFor();
      expect(
        await page.evaluate(
          () =>
            (window as unknown as { heroFromHtml: Element | null }).heroFromHtml ===
              document.getElementById('hero-title') &&
            document.getElementById('hero-title') !== null,
        ),
      ).toBe(true);
    });

    it(`/login (${viewport}): the prerendered form is adopted and works`, async () => {
      const page = await e2e.open('/api/health', { viewport });
      await page.addInitScript(() => {
        document.addEventListener('readystatechange', () => {
          if (document.readyState === 'interactive') {
            (window as unknown as { formFromHtml: Element | null }).formFromHtml =
              document.querySelector('form');
          }
        });
      });
      await page.goto(`${e2e.server.url}/login`);
      // The fields take input once React has the page (Playwright waits for them to be enabled).
      await page.getByLabel('Email').fill('someone@players.test');
      await page.getByRole('button', { name: 'Log in' }).click();
      // The form's own check answers, with the e-mail typed kept: its handler is attached.
      await page.getByText(SIGNUP_MESSAGES.password).first().waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe('someone@players.test');
      expect(
        await page.evaluate(
          () =>
            (window as unknown as { formFromHtml: Element | null }).formFromHtml ===
            document.querySelector('form'),
        ),
      ).toBe(true);
    });
  }

  for (const viewport of VIEWPORT_NAMES) {
    it(`/login and Home (${viewport}): only the text font is fetched before the first paint`, async () => {
      token ??= await operatorToken(e2e.server.url);
      for (const path of ['/login', '/Home']) {
        const page = await e2e.open('/api/health', { viewport, authToken: token });
        await page.goto(`${e2e.server.url}${path}`);
        // The app's script starts once the whole stylesheet is in.
        await page.waitForFunction(() =>
          performance
            .getEntriesByType('resource')
            .some((request) => /\/assets\/index-[^/]*\.js$/.test(request.name)),
        );
        const seen = await page.evaluate(() => {
          const paint = performance.getEntriesByName('first-contentful-paint')[0];
          const requests = performance.getEntriesByType('resource');
          return {
            painted: paint !== undefined,
            requestedBeforePaint: requests
              .filter((request) => paint === undefined || request.startTime < paint.startTime)
              .map((request) => new URL(request.name).pathname),
            requested: requests.map((request) => new URL(request.name).pathname),
            stylesheet: document.querySelector('link[rel="stylesheet"]')?.getAttribute('href'),
            manifest: document.querySelector('link[rel="manifest"]')?.getAttribute('href'),
          };
        });
        expect(seen.painted, path).toBe(true);
        // The whole stylesheet, the manifest and the app's script all start after the paint;
        // the icon is inside the page.
        expect(
          seen.requestedBeforePaint.filter((name) => !/^\/assets\/space-grotesk-core-/.test(name)),
          path,
        ).toEqual([]);
        expect(seen.requested, path).toContain(seen.stylesheet);
        expect(seen.manifest, path).toBe('/manifest.webmanifest');
        expect(
          seen.requested.filter((name) => name.startsWith('/favicon')),
          path,
        ).toEqual([]);
        await page.close();
      }
    });
  }

  it('declares each font face once, on prerendered pages and on the others', async () => {
    token ??= await operatorToken(e2e.server.url);
    // A face declared again by the whole stylesheet, once it is turned on after the first paint,
    // replaces the page's own, and the browser lays out all of the page's text once more.
    for (const path of ['/login', '/Home', '/Profile']) {
      const page = await e2e.open('/api/health', { authToken: token });
      await page.goto(`${e2e.server.url}${path}`);
      await page.waitForFunction(() =>
        [...document.styleSheets].some((sheet) =>
          /\/assets\/index-[^/]*\.css$/.test(sheet.href ?? ''),
        ),
      );
      const faces = await page.evaluate(() =>
        [...document.styleSheets].flatMap((sheet) =>
          [...sheet.cssRules]
            .filter((rule) => rule instanceof CSSFontFaceRule)
            .map((rule) => rule.cssText),
        ),
      );
      expect(
        faces.filter((face) => face.includes('Space Grotesk Fallback')),
        path,
      ).toHaveLength(1);
      expect(
        faces.filter((face) => face.includes('space-grotesk-core-')),
        path,
      ).toHaveLength(1);
      expect(new Set(faces).size, path).toBe(faces.length);
      await page.close();
    }
  });

  it("Home has the naira sign's face loaded before it draws its first amount", async () => {
    token ??= await operatorToken(e2e.server.url);
    const page = await e2e.open('/api/health', { authToken: token });
    // Loaded only once text needed the sign, the face arrived after that layout, and the whole
    // page was laid out again with it.
    await page.addInitScript(() => {
      new MutationObserver((_mutations, observer) => {
        if (!document.body?.textContent?.includes('\u20A6')) return;
        observer.disconnect();
        const faces: FontFace[] = [];
        document.fonts.forEach((face) => {
          if (face.unicodeRange === 'U+20A6') faces.push(face);
        });
        (window as unknown as { nairaFaceAtFirstAmount: string[] }).nairaFaceAtFirstAmount =
          faces.map((face) => face.status);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto(`${e2e.server.url}/Home`);
    await page.getByRole('link', { name: /^Balance ₦/ }).waitFor();
    const seen = await page.evaluate(() => ({
      status: (window as unknown as { nairaFaceAtFirstAmount?: string[] }).nairaFaceAtFirstAmount,
      fonts: performance
        .getEntriesByType('resource')
        .map((request) => new URL(request.name).pathname)
        .filter((name) => name.endsWith('.woff2')),
    }));
    expect(seen.status).toEqual(['loaded']);
    // Asked for by its face: asking by the sign would also fetch latin-ext, whose range covers it.
    expect(seen.fonts.filter((name) => name.includes('latin-ext'))).toEqual([]);
    await page.close();
  });

  it('/login and Home make no Intl formatter on their way to taking input', async () => {
    // A page's first Intl object loads the locale data: tens of milliseconds of main thread
    // that neither screen needs (amounts are grouped by money.ts itself).
    token ??= await operatorToken(e2e.server.url);
    for (const [path, ready] of [
      ['/login', 'form[data-live]'],
      ['/Home', 'role=link[name=/^Balance ₦/]'],
    ] as const) {
      const page = await e2e.open('/api/health', path === '/Home' ? { authToken: token } : {});
      await page.addInitScript(() => {
        const made: string[] = [];
        (window as unknown as { intlMade: string[] }).intlMade = made;
        for (const name of [
          'NumberFormat',
          'DateTimeFormat',
          'PluralRules',
          'Segmenter',
        ] as const) {
          const original = Intl[name] as unknown as new (...args: unknown[]) => object;
          (Intl as unknown as Record<string, unknown>)[name] = new Proxy(original, {
            construct(target, args) {
              made.push(name);
              return Reflect.construct(target, args);
            },
          });
        }
      });
      await page.goto(`${e2e.server.url}${path}`);
      await page.locator(ready).first().waitFor({ state: 'attached' });
      expect(
        await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade),
        path,
      ).toEqual([]);
      await page.close();
    }
  });

  it("sends Home's requests from tasks after the one that evaluates the app's modules", async () => {
    // That task is long already (React DOM's code), and every request or preload added to it
    // lengthens the first stretch in which the page cannot answer a tap. A module script's load
    // event fires in the task that evaluated it, after its microtasks.
    token ??= await operatorToken(e2e.server.url);
    const page = await e2e.open('/api/health', { authToken: token });
    await page.addInitScript(() => {
      const order: string[] = [];
      (window as unknown as { startOrder: string[] }).startOrder = order;
      const send = window.fetch.bind(window);
      window.fetch = (input, init) => {
        order.push(
          `fetch ${new URL(input instanceof Request ? input.url : input, location.href).pathname}`,
        );
        return send(input, init);
      };
      document.addEventListener(
        'load',
        (event) => {
          const script = event.target;
          if (!(script instanceof HTMLScriptElement) || script.type !== 'module') return;
          const preloads = document.querySelectorAll('link[rel=modulepreload]').length;
          order.push(`entry evaluated, ${preloads} module preloads`);
        },
        true,
      );
    });
    await page.goto(`${e2e.server.url}/Home`);
    await page.getByRole('link', { name: /^Balance ₦/ }).waitFor();
    const order = await page.evaluate(
      () => (window as unknown as { startOrder: string[] }).startOrder,
    );
    expect(order[0]).toBe('entry evaluated, 0 module preloads');
    expect(order).toEqual(expect.arrayContaining(['fetch /api/v1/user', 'fetch /api/v1/settings']));
    await page.close();
  });

  it('sends a visitor without a session from the shell to /login', async () => {
    const page = await e2e.open('/Home');
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Welcome back, Plucker' }).waitFor();
  });
});
