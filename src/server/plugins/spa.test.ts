import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDERED_PAGES } from '../../shared/prerendered-pages.ts';
import { buildTestApp, testAppPerFile } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';

const database = testDatabasePerFile();

const INDEX_HTML =
  '<!doctype html><html lang="en"><head><title>Pluckers</title><script type="module" src="/assets/x.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("pluckers");';
const SECRET = 'not-for-the-browser-4f1d';

/** Every client route of docs/product.md#screens (both spellings where it gives two) plus the admin console. */
const CLIENT_ROUTES = [
  '/',
  '/login',
  '/login?error=Google%20sign-in%20failed',
  '/Signup',
  '/verifyemail',
  '/auth/validate/abc',
  '/ForgotPassword',
  '/resetpassword?email=ada%40example.com',
  '/Terms',
  '/Privacy',
  '/GameRules',
  '/SupportCenter',
  '/Home',
  '/GameDetails',
  '/LeaderBoard',
  '/Leaderboard',
  '/MySubmissions',
  '/mysubmissions',
  '/Tournament',
  '/PaymentStatus?status=success&message=ok',
  '/UpgradeAccount/3f1c0a5e-8d5b-4f7e-9a51-2b7c5d9e0f12',
  '/UpgradeSuccessful',
  '/SelectedTournament',
  '/SuccessfulSubmission',
  '/Pricing',
  '/WithdrawFunds',
  '/withdrawfunds',
  '/wallet',
  '/TopUp',
  '/topup',
  '/Notifications',
  '/Profile',
  '/admin',
];

describe('the built web app', () => {
  let parent: string;
  let webDist: string;

  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'pluckers-web-'));
    webDist = path.join(parent, 'web');
    await mkdir(path.join(webDist, 'assets'), { recursive: true });
    await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
    await writeFile(path.join(webDist, 'assets', 'x.js'), SCRIPT);
    // Beside the build, not in it: must never be served.
    await writeFile(path.join(parent, 'secret.txt'), SECRET);
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  /** The tests of this build share one app (built once its files are written). */
  const webApp = testAppPerFile(database, () => ({ WEB_DIST: webDist }));

  it('answers index.html, revalidated, with the CSP, for every client route', async () => {
    const app = webApp();
    for (const url of CLIENT_ROUTES) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.body, url).toBe(INDEX_HTML);
    }
  });

  it('answers HEAD for a page like GET, without a body', async () => {
    const app = webApp();
    const response = await app.inject({ method: 'HEAD', url: '/Home' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe('');
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const app = webApp();
    const response = await app.inject({ url: '/assets/x.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(SCRIPT);
    // What protects a subresource stays; what only a document reads is not sent again.
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const header of ['content-security-policy', 'x-frame-options', 'referrer-policy']) {
      expect(response.headers[header], header).toBeUndefined();
    }
  });

  it('answers 404 JSON for a missing asset and for unknown API routes, never the shell', async () => {
    const app = webApp();
    for (const url of ['/assets/missing.js', '/api/nope', '/api/v1/nope?x=1']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json(), url).toEqual({
        message: expect.any(String),
        statusCode: 404,
        code: 'NOT_FOUND',
      });
    }
  });

  it('answers 404 JSON rather than the shell for a non-GET request to a page', async () => {
    const app = webApp();
    const response = await app.inject({ method: 'POST', url: '/Home', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      message: expect.any(String),
      statusCode: 404,
      code: 'NOT_FOUND',
    });
  });

  it('never serves files from outside the build directory', async () => {
    const app = webApp();
    for (const url of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
    ]) {
      const response = await app.inject({ url });
      expect(response.body, url).not.toContain(SECRET);
    }
  });
});

describe('the prerendered pages', () => {
  let webDist: string;
  const pageHtml = (file: string) =>
    `<!doctype html><html lang="en"><head><title>${file}</title></head><body><div id="root" data-paths="x"><h1>${file}</h1></div></body></html>`;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'pluckers-web-pages-'));
    await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
    for (const page of PRERENDERED_PAGES) {
      await writeFile(path.join(webDist, page.file), pageHtml(page.file));
    }
  });
  afterAll(async () => {
    await rm(webDist, { recursive: true, force: true });
  });

  /** The tests of this build share one app (built once its files are written). */
  const webApp = testAppPerFile(database, () => ({ WEB_DIST: webDist }));

  it('answers each prerendered path with its own page, in any spelling, revalidated, with the CSP', async () => {
    const app = webApp();
    const expected: Array<[string, string]> = [
      ['/login', 'login.html'],
      ['/LOGIN', 'login.html'],
      ['/login?next=%2FProfile', 'login.html'],
      ['/Signup', 'Signup.html'],
      ['/signup', 'Signup.html'],
      ['/ForgotPassword', 'ForgotPassword.html'],
      ['/Terms', 'Terms.html'],
      ['/Privacy', 'Privacy.html'],
      ['/GameRules', 'GameRules.html'],
      ['/SupportCenter', 'SupportCenter.html'],
      // The signed-in shell: the player's start page.
      ['/', 'Home.html'],
      ['/Home', 'Home.html'],
      ['/home', 'Home.html'],
    ];
    for (const [url, file] of expected) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(response.body, url).toBe(pageHtml(file));
    }
  });

  it('answers index.html for the routes it did not prerender', async () => {
    const app = webApp();
    for (const url of [
      '/Profile',
      '/GameDetails',
      '/verifyemail',
      '/auth/validate/abc',
      '/admin',
      '/nope',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(INDEX_HTML);
    }
  });
});

describe('without a web build', () => {
  it('answers 503 plain text for pages and keeps the API working', async () => {
    const app = await buildTestApp(database(), {
      WEB_DIST: path.join(tmpdir(), 'pluckers-no-such-build'),
    });
    for (const url of ['/', '/Home', '/auth/validate/abc']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['content-type'], url).toBe('text/plain; charset=utf-8');
      expect(response.body, url).toMatch(/npm run build/);
    }
    expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/nope' })).statusCode).toBe(404);
  });
});
