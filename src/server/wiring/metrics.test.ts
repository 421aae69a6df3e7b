import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../config.ts';
import { jobs } from '../db/schema.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { checkLedger } from '../modules/wallet/ledger-check.ts';
import { buildTestApp, testEnv } from '../test/app.ts';
import { openTestDatabase, testDatabasePerFile } from '../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createGame,
  createPlayer,
  play,
  testClock,
  uniqueSuffix,
} from '../test/factories.ts';
import { reviewSandboxTopUpsOf } from '../test/fake-money.ts';
import { topUpFlow } from '../test/top-ups.ts';
import { LEDGER_CHECK_EVERY_MS, MONEY_TOTALS_EVERY_MS, UNMATCHED_ROUTE } from './metrics.ts';

const database = testDatabasePerFile({ alone: true });
const TOKEN = 'metrics-token-for-the-tests-0123456789';
const withToken = { METRICS_TOKEN: TOKEN };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text exposition format, as Prometheus reads it (no HELP/TYPE lines). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      if (key !== undefined && value !== undefined) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` that carry every label given. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((total, sample) => total + sample.value, 0);
}

async function scrape(app: FastifyInstance): Promise<Sample[]> {
  const response = await app.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return parseExposition(response.body);
}

/** A handle of the test's own on the run's database, which the test may close under the app. */
const openOwnHandle = () => openTestDatabase();

const routeValues = (samples: Sample[]) =>
  new Set(
    samples
      .filter((sample) => sample.name === 'pluckers_http_request_duration_seconds_count')
      .map((sample) => sample.labels.route),
  );

describe('GET /metrics: who may read it', () => {
  it('does not exist without METRICS_TOKEN or METRICS_PORT, whatever the request carries', async () => {
    const app = await buildTestApp(database());
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await app.inject({ url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: 'Route GET /metrics not found',
        statusCode: 404,
        code: 'NOT_FOUND',
      });
      expect(response.body).not.toContain('pluckers_');
    }
  });

  it('refuses a missing or wrong token, and answers the Prometheus text format to the right one', async () => {
    const app = await buildTestApp(database(), withToken);
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-the-same-kind-0123456',
      `Bearer ${TOKEN}x`,
      `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const response = await app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expect(response.json()).toEqual({
        statusCode: 401,
        code: 'UNAUTHORIZED',
        message: 'Unauthorized',
      });
    }

    const response = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('# TYPE pluckers_http_request_duration_seconds histogram');
    expect(response.body).toContain('# TYPE pluckers_plays_total counter');
    const samples = parseExposition(response.body);
    // The process's own metrics come along, once.
    expect(
      samples.filter((sample) => sample.name === 'process_cpu_user_seconds_total'),
    ).toHaveLength(1);
    expect(sampleValue(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples.some((sample) => sample.name === 'pluckers_job_queue_jobs')).toBe(true);
    expect(samples.some((sample) => sample.name === 'pluckers_ledger_ok')).toBe(true);
  });

  it('is never rate limited nor counted in the per-client API limit', async () => {
    const app = await buildTestApp(database(), { ...withToken, RATE_LIMIT_MAX: '2' });
    const remoteAddress = '10.77.0.1';
    for (let scrapeNumber = 0; scrapeNumber < 5; scrapeNumber += 1) {
      const response = await app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
        remoteAddress,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    // The same client still has its whole API budget.
    const api = () => app.inject({ url: '/api/v1/settings', remoteAddress });
    expect((await api()).headers['x-ratelimit-remaining']).toBe('1');
    expect((await api()).statusCode).toBe(200);
    expect((await api()).statusCode).toBe(429);
  });

  it('with METRICS_PORT: served on a listener of its own, and nowhere on the main port', async () => {
    const app = await buildTestApp(database(), { HOST: '127.0.0.1', METRICS_PORT: '0' });
    const address = app.metrics.internalAddress();
    if (!address) throw new Error('no metrics listener');
    const base = `http://127.0.0.1:${address.port}`;

    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toContain('# TYPE pluckers_draws_total counter');
    expect((await fetch(`${base}/api/v1/settings`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);

    const main = await app.inject({ url: '/metrics' });
    expect(main.statusCode).toBe(404);
  });

  it('with METRICS_PORT and METRICS_TOKEN: the listener asks for the token too', async () => {
    const app = await buildTestApp(database(), {
      ...withToken,
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
    });
    const port = app.metrics.internalAddress()?.port;
    const url = `http://127.0.0.1:${port}/metrics`;
    const refused = await fetch(url, { headers: { authorization: 'Bearer not-the-token' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(url)).status).toBe(401);
    const allowed = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('pluckers_ledger_ok');
    // A token does not move the metrics back onto the main port.
    const main = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(main.statusCode).toBe(404);
  });
});

describe('METRICS_* configuration', () => {
  it('is off by default and refuses bad values with the variable named', () => {
    expect(loadConfig(testEnv()).metrics).toEqual({ token: undefined, port: undefined });
    expect(loadConfig(testEnv({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' })).metrics).toEqual({
      token: TOKEN,
      port: 9464,
    });
    expect(() => loadConfig(testEnv({ METRICS_TOKEN: 'short' }))).toThrow(
      'Invalid METRICS_TOKEN: METRICS_TOKEN must be at least 16 characters',
    );
    expect(() => loadConfig(testEnv({ METRICS_TOKEN: 'has a space in the middle' }))).toThrow(
      'Invalid METRICS_TOKEN: METRICS_TOKEN must be printable ASCII without spaces',
    );
    expect(() => loadConfig(testEnv({ METRICS_PORT: 'abc' }))).toThrow(
      'Invalid METRICS_PORT: METRICS_PORT must be a number',
    );
    expect(() => loadConfig(testEnv({ METRICS_PORT: '70000' }))).toThrow(
      'Invalid METRICS_PORT: METRICS_PORT must be between 0 and 65535',
    );
    expect(() => loadConfig(testEnv({ PORT: '3000', METRICS_PORT: '3000' }))).toThrow(
      'Invalid METRICS_PORT: METRICS_PORT must differ from PORT',
    );
  });
});

describe('what /metrics counts', () => {
  it('labels requests by route pattern: ids and unknown paths add no label values', async () => {
    const app = await buildTestApp(database(), withToken);
    const gameId = randomUUID();
    const unknown = Array.from({ length: 4 }, () => `nothing-here-${uniqueSuffix()}`);
    await app.inject({ url: `/api/v1/game/${gameId}/draw` });
    await app.inject({ url: `/api/${unknown[0]}` });
    const before = routeValues(await scrape(app));

    for (const path of unknown) {
      expect((await app.inject({ url: `/api/${path}` })).statusCode).toBe(404);
      expect((await app.inject({ method: 'POST', url: `/${path}` })).statusCode).toBe(404);
    }
    await app.inject({ url: `/api/v1/game/${randomUUID()}/draw` });
    const response = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const after = routeValues(parseExposition(response.body));

    expect(after).toEqual(before);
    expect(after).toContain('/api/v1/game/:id/draw');
    expect(after).toContain(UNMATCHED_ROUTE);
    expect(response.body).not.toContain(gameId);
    for (const path of unknown) expect(response.body).not.toContain(path);
    const samples = parseExposition(response.body);
    expect(
      sampleValue(samples, 'pluckers_http_request_duration_seconds_count', {
        method: 'GET',
        route: UNMATCHED_ROUTE,
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(5);
    expect(
      sampleValue(samples, 'pluckers_http_request_duration_seconds_count', {
        route: '/api/v1/game/:id/draw',
        status_class: '4xx',
      }),
    ).toBe(2);
    // Scrapes are left out of the request timings.
    expect(after).not.toContain('/metrics');
  });

  it('counts a real play, a refused one and the draw that follows; the ledger check agrees', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), withToken, { clock });
    const game = await createGame(app.db, { entryFee: 10_000n, maximumPlayers: 5 });
    const players = await Promise.all(
      Array.from({ length: 5 }, () => createPlayer(app.db, { kobo: 50_000n })),
    );
    const before = await scrape(app);

    for (const player of players) expect((await play(app, player, game.id)).statusCode).toBe(201);
    const [first] = players;
    if (!first) throw new Error('no players');
    expect((await play(app, first, game.id)).statusCode).toBe(409);
    const afterPlays = await scrape(app);

    const plays = (samples: Sample[], labels: Record<string, string>) =>
      sampleValue(samples, 'pluckers_plays_total', labels);
    expect(
      plays(afterPlays, { outcome: 'accepted' }) - plays(before, { outcome: 'accepted' }),
    ).toBe(5);
    expect(
      plays(afterPlays, { outcome: 'refused', code: 'CONFLICT' }) -
        plays(before, { outcome: 'refused', code: 'CONFLICT' }),
    ).toBe(1);
    const playTimings = (samples: Sample[]) =>
      sampleValue(samples, 'pluckers_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1/game/play',
      });
    expect(playTimings(afterPlays) - playTimings(before)).toBe(6);
    // Every entry is announced to every instance (the played-games cache), this one included.
    await expect
      .poll(async () =>
        sampleValue(await scrape(app), 'pluckers_cache_invalidations_total', { kind: 'played' }),
      )
      .toBeGreaterThanOrEqual(
        sampleValue(before, 'pluckers_cache_invalidations_total', { kind: 'played' }) + 5,
      );

    // The last place closed the game and queued its draw; the worker runs it.
    expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    clock.advance(LEDGER_CHECK_EVERY_MS);
    const afterDraw = await scrape(app);
    const completed = { outcome: 'completed' };
    expect(
      sampleValue(afterDraw, 'pluckers_draws_total', completed) -
        sampleValue(before, 'pluckers_draws_total', completed),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(afterDraw, 'pluckers_draw_duration_seconds_count', completed) -
        sampleValue(before, 'pluckers_draw_duration_seconds_count', completed),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(afterDraw, 'pluckers_draws_total', { outcome: 'failed' })).toBe(0);

    const ledger = await checkLedger(app.db, app.paymentProviders);
    const invariants = ledger.invariants.map((invariant) => invariant.name);
    expect(
      afterDraw
        .filter((sample) => sample.name === 'pluckers_ledger_invariant_ok')
        .map((sample) => sample.labels.invariant),
    ).toEqual(invariants);
    if (app.database.kind === 'pglite') {
      // This file's own books (on a shared PostgreSQL database other files move them meanwhile).
      expect(ledger.ok).toBe(true);
      expect(sampleValue(afterDraw, 'pluckers_ledger_ok')).toBe(1);
      for (const name of invariants)
        expect(
          sampleValue(afterDraw, 'pluckers_ledger_invariant_ok', { invariant: name }),
          name,
        ).toBe(1);
    }
    expect(sampleValue(afterDraw, 'pluckers_ledger_checked_timestamp_seconds')).toBe(
      clock.now().getTime() / 1000,
    );
  });

  it('runs the ledger check at most once a minute, however often it is scraped', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), withToken, { clock });
    const first = await scrape(app);
    const checkedAt = sampleValue(first, 'pluckers_ledger_checked_timestamp_seconds');
    expect(checkedAt).toBe(clock.now().getTime() / 1000);

    clock.advance(LEDGER_CHECK_EVERY_MS - 1_000);
    const cached = await Promise.all([scrape(app), scrape(app), scrape(app)]);
    for (const samples of cached)
      expect(sampleValue(samples, 'pluckers_ledger_checked_timestamp_seconds')).toBe(checkedAt);

    clock.advance(1_000);
    expect(sampleValue(await scrape(app), 'pluckers_ledger_checked_timestamp_seconds')).toBe(
      checkedAt + LEDGER_CHECK_EVERY_MS / 1000,
    );
  });

  it('reads the job queue on every scrape: due, running, scheduled, retrying and the oldest wait', async () => {
    // An hour ahead of the other files' workers, so none of them takes these jobs (their
    // clocks say not yet) while this app's clock says they are due.
    const clock = testClock(new Date(Date.now() + 3_600_000));
    const app = await buildTestApp(database(), withToken, { clock });
    const inReal = (ms: number) => new Date(Date.now() + ms);
    const keys = Array.from({ length: 3 }, () => `metrics-test:${uniqueSuffix()}`);
    onTestFinished(() =>
      app.db
        .delete(jobs)
        .where(inArray(jobs.key, keys))
        .then(() => {}),
    );
    const before = await scrape(app);
    const state = (samples: Sample[], name: string) =>
      sampleValue(samples, 'pluckers_job_queue_jobs', { state: name });

    // Due 30 minutes ago on this app's clock; a draw of no game, so anyone who ran it would
    // only skip it.
    const [due, scheduled, running] = keys;
    if (!due || !scheduled || !running) throw new Error('no keys');
    const payload = () => ({ gameId: randomUUID() });
    await enqueueJob(app.db, {
      kind: 'draw',
      key: due,
      payload: payload(),
      runAt: inReal(30 * 60_000),
    });
    await enqueueJob(app.db, {
      kind: 'draw',
      key: scheduled,
      payload: payload(),
      runAt: inReal(2 * 3_600_000),
    });
    await app.db.insert(jobs).values({
      kind: 'draw',
      key: running,
      payload: payload(),
      runAt: inReal(0),
      lockedUntil: inReal(3 * 3_600_000),
      lockedBy: 'a worker of the test',
      attempts: 2,
      lastError: 'the previous attempt failed',
    });

    const after = await scrape(app);
    expect(state(after, 'due')).toBeGreaterThanOrEqual(1);
    expect(state(after, 'scheduled')).toBeGreaterThanOrEqual(1);
    expect(state(after, 'running')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'pluckers_job_queue_retrying_jobs')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'pluckers_job_queue_oldest_due_seconds')).toBeGreaterThanOrEqual(
      30 * 60 - 5,
    );
    if (app.database.kind === 'pglite') {
      // This file's own database: exact.
      expect(state(after, 'due') - state(before, 'due')).toBe(1);
      expect(state(after, 'scheduled') - state(before, 'scheduled')).toBe(1);
      expect(state(after, 'running') - state(before, 'running')).toBe(1);
    }

    // Not cached: the next scrape sees the clock move.
    clock.advance(10 * 60_000);
    expect(
      sampleValue(await scrape(app), 'pluckers_job_queue_oldest_due_seconds'),
    ).toBeGreaterThanOrEqual(40 * 60 - 5);
  });

  it('reads payments by method, mode and status and withdrawals by status', async () => {
    const clock = testClock();
    const app = await buildTestApp(
      database(),
      { ...withToken, PUBLIC_URL: 'http://localhost:3999' },
      { clock },
    );
    const player = await createPlayer(app.db, { kobo: 100_000n });
    onTestFinished(() => reviewSandboxTopUpsOf(app.db, player.id));
    const headers = await bearerFor(app, player);
    const adminHeaders = await bearerFor(app, await createAdmin(app.db));
    const before = await scrape(app);

    const topUp = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/transactpay',
      headers,
      payload: { amount: 2500 },
    });
    expect(topUp.statusCode, topUp.body).toBe(200);
    await topUpFlow(app, headers).paySandbox(topUp.json().data.paymentUrl);
    const withdrawal = await app.inject({
      method: 'POST',
      url: '/api/v1/withdrawal',
      headers,
      payload: { amount: 600 },
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
    const rejected = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${withdrawal.json().data.id}/reject`,
      headers: adminHeaders,
      payload: { reason: 'Account name does not match' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);

    const succeeded = { method: 'transactpay', mode: 'sandbox', status: 'SUCCESS' };
    // Read at most every 15 s: still the figures of the first scrape.
    const cached = await scrape(app);
    expect(sampleValue(cached, 'pluckers_payments', succeeded)).toBe(
      sampleValue(before, 'pluckers_payments', succeeded),
    );

    clock.advance(MONEY_TOTALS_EVERY_MS);
    const after = await scrape(app);
    // Counts that only grow, so other files sharing a PostgreSQL database cannot upset them.
    expect(
      sampleValue(after, 'pluckers_payments', succeeded) -
        sampleValue(before, 'pluckers_payments', succeeded),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(after, 'pluckers_withdrawals', { status: 'REJECTED' }) -
        sampleValue(before, 'pluckers_withdrawals', { status: 'REJECTED' }),
    ).toBeGreaterThanOrEqual(1);
    if (app.database.kind === 'pglite') {
      expect(sampleValue(after, 'pluckers_payments', succeeded)).toBe(
        sampleValue(before, 'pluckers_payments', succeeded) + 1,
      );
      expect(sampleValue(after, 'pluckers_withdrawals', { status: 'REJECTED' })).toBe(
        sampleValue(before, 'pluckers_withdrawals', { status: 'REJECTED' }) + 1,
      );
    }
  });

  it('still answers when the database does not: failed reads counted, last values kept', async () => {
    const handle = await openOwnHandle();
    const clock = testClock();
    const app = await buildTestApp(handle, withToken, { clock });
    const errors = (samples: Sample[], source: string) =>
      sampleValue(samples, 'pluckers_metrics_collect_errors_total', { source });
    const gauges = (samples: Sample[]) =>
      samples.filter(
        (sample) =>
          sample.name.startsWith('pluckers_job_queue_') ||
          sample.name.startsWith('pluckers_ledger_') ||
          sample.name === 'pluckers_payments' ||
          sample.name === 'pluckers_withdrawals',
      );
    const before = await scrape(app);
    expect(sampleValue(before, 'pluckers_ledger_ok')).toBe(1);
    for (const source of ['jobs', 'money', 'ledger']) expect(errors(before, source)).toBe(0);

    await handle.close();
    // The queue is read on every scrape; the money and the ledger are still fresh.
    const down = await scrape(app);
    expect(errors(down, 'jobs')).toBe(1);
    expect(errors(down, 'money')).toBe(0);
    expect(errors(down, 'ledger')).toBe(0);

    clock.advance(LEDGER_CHECK_EVERY_MS);
    const later = await scrape(app);
    for (const source of ['jobs', 'money', 'ledger'])
      expect(errors(later, source)).toBeGreaterThanOrEqual(1);
    expect(gauges(later)).toEqual(gauges(before));
    // Counters of this process go on as ever.
    expect(sampleValue(later, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('shows the connection pool on PostgreSQL, and nothing for the embedded database', async () => {
    const app = await buildTestApp(database(), withToken);
    const samples = await scrape(app);
    const pool = samples.filter((sample) => sample.name.startsWith('pluckers_db_pool_'));
    if (app.database.kind === 'pglite') {
      expect(pool).toEqual([]);
      return;
    }
    // The file's pool (10 connections), which this scrape's queries have just used.
    expect(sampleValue(samples, 'pluckers_db_pool_max_connections')).toBe(10);
    const open =
      sampleValue(samples, 'pluckers_db_pool_connections', { state: 'in_use' }) +
      sampleValue(samples, 'pluckers_db_pool_connections', { state: 'idle' });
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(10);
    expect(sampleValue(samples, 'pluckers_db_pool_waiting_queries')).toBeGreaterThanOrEqual(0);
    expect(pool.map((sample) => sample.name).sort()).toEqual([
      'pluckers_db_pool_connections',
      'pluckers_db_pool_connections',
      'pluckers_db_pool_max_connections',
      'pluckers_db_pool_waiting_queries',
    ]);
  });
});
