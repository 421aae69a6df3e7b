import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bootScript } from '../../shared/boot-script.ts';
import { buildTestApp, testAppPerFile } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

function directives(header: string | string[] | number | undefined): Map<string, string> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name = '', ...values] = part.split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
  );
}

describe('security headers', () => {
  it('sends a strict CSP and the helmet headers on API responses', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/v1/settings' });

    expect(response.statusCode).toBe(200);
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('default-src')).toBe("'self'");
    // Files of this origin, and the pages' one inline script by its hash: no other inline code.
    const bootHash = createHash('sha256').update(bootScript()).digest('base64');
    expect(csp.get('script-src')).toBe(`'self' 'sha256-${bootHash}'`);
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self'");
    expect(csp.get('font-src')).toBe("'self'");
    // No remote origins, no eval, and no inline scripts anywhere in the policy.
    expect(response.headers['content-security-policy']).not.toMatch(/https?:|unsafe-eval|\*/);
    expect(csp.get('script-src')).not.toContain('unsafe-inline');
    expect(csp.has('upgrade-insecure-requests')).toBe(false);

    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['x-dns-prefetch-control']).toBe('off');
    expect(response.headers['x-powered-by']).toBeUndefined();
    // Plain http: no HSTS that would lock a local install onto https.
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS and upgrade-insecure-requests behind an https PUBLIC_URL', async () => {
    const app = await buildTestApp(database(), { PUBLIC_URL: 'https://pluckers.example' });

    const response = await app.inject({ url: '/api/health' });

    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(
      directives(response.headers['content-security-policy']).has('upgrade-insecure-requests'),
    ).toBe(true);
  });

  it('sends the same headers on error responses', async () => {
    const app = fileApp();
    const response = await app.inject({ url: '/api/v1/notification' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('rate-limits the API per client with a JSON 429', async () => {
    const app = await buildTestApp(database(), { RATE_LIMIT_MAX: '600' });
    const url = '/api/v1/settings';
    const client = { remoteAddress: '203.0.113.7' };
    let last = await app.inject({ url, ...client });
    expect(last.headers['x-ratelimit-limit']).toBe('600');
    for (let i = 1; i < 600; i += 1) last = await app.inject({ url, ...client });
    expect(last.statusCode).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');

    const limited = await app.inject({ url, ...client });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: expect.stringMatching(/^Too many requests, please try again in /),
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
    });
    // Another client is not affected.
    expect((await app.inject({ url, remoteAddress: '203.0.113.8' })).statusCode).toBe(200);
    // Pages are not limited: a slow connection loading the SPA never sees a 429.
    expect((await app.inject({ url: '/Home', ...client })).statusCode).toBe(503);
  });
});

describe('client addresses behind proxies (TRUST_PROXY)', () => {
  const url = '/api/v1/settings';
  const exhaust = async (
    app: Awaited<ReturnType<typeof buildTestApp>>,
    request: (i: number) => { remoteAddress: string; headers?: Record<string, string> },
  ) => {
    let last = await app.inject({ url, ...request(0) });
    for (let i = 1; i <= 600; i += 1) last = await app.inject({ url, ...request(i) });
    return last;
  };

  it('ignores a made-up X-Forwarded-For by default: the socket address is the client', async () => {
    const app = await buildTestApp(database(), { RATE_LIMIT_MAX: '600' });
    // One attacker, a new forged address on every request: the limit still holds.
    const last = await exhaust(app, (i) => ({
      remoteAddress: '198.51.100.20',
      headers: { 'x-forwarded-for': `203.0.113.${i % 250}, 192.0.2.${i % 200}` },
    }));
    expect(last.statusCode).toBe(429);
  });

  it('believes the hop its own proxy adds, and nothing the client wrote before it', async () => {
    const app = await buildTestApp(database(), {
      TRUST_PROXY: '10.0.0.0/8',
      RATE_LIMIT_MAX: '600',
    });
    // Through the proxy (10.0.0.5), with a forged first entry that changes every time: only the
    // address the proxy appended counts, so the forger is still one client.
    const forged = await exhaust(app, (i) => ({
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': `203.0.113.${i % 250}, 198.51.100.30` },
    }));
    expect(forged.statusCode).toBe(429);
    // Another real client behind the same proxy has its own budget.
    const other = await app.inject({
      url,
      remoteAddress: '10.0.0.5',
      headers: { 'x-forwarded-for': '198.51.100.31' },
    });
    expect(other.statusCode).toBe(200);
    // A client that reaches the server directly cannot claim an address.
    const direct = await exhaust(app, (i) => ({
      remoteAddress: '198.51.100.40',
      headers: { 'x-forwarded-for': `203.0.113.${i % 250}` },
    }));
    expect(direct.statusCode).toBe(429);
  });
});
