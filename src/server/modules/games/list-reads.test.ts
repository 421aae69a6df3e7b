import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Game } from '../../../shared/schemas/games.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { games } from '../../db/schema.ts';
import { ACCOUNT_STATE_TTL_MS } from '../../plugins/auth.ts';
import { testEnv } from '../../test/app.ts';
import { eventually } from '../../test/cluster.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createUser,
  play,
  type TestClock,
  testClock,
  uniqueSuffix,
} from '../../test/factories.ts';

const database = testDatabasePerFile();
const LIST = '/api/v1/game?gameType=NEW_CHALLANGES';
const BROWSER = 'gzip, deflate, br, zstd';

/** Headers node:http adds to every answer, and the limit's, which move with every request. */
const PER_REQUEST = new Set([
  'date',
  'connection',
  'keep-alive',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);

/**
 * A moment of the test's own far in the future, so "newest first" lists its games first even on
 * a PostgreSQL database other files write to, and the caches' ages do not move unless told.
 */
function privateClock(): TestClock {
  const year = 2800 + Math.floor(Math.random() * 190);
  return testClock(new Date(Date.UTC(year, Math.floor(Math.random() * 12), 10, 12, 0, 0)));
}

/**
 * A listening app, and how many requests reached Fastify's request cycle (an onRequest hook of
 * its own, added before the app is ready, counts them).
 */
async function listeningApp(
  env: Record<string, string> = {},
  options: { clock?: TestClock; rateLimitScope?: string } = {},
) {
  const clock = options.clock ?? privateClock();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-test-'));
  const app = await buildApp(
    loadConfig(testEnv({ DATA_DIR: dataDir, ...inject('beaconEnv'), ...env })),
    {
      database: database(),
      clock,
      rateLimitScope: options.rateLimitScope ?? `test-${uniqueSuffix()}:`,
    },
  );
  const seen = { byFastify: 0 };
  app.addHook('onRequest', (_request, _reply, done) => {
    seen.byFastify += 1;
    done();
  });
  onTestFinished(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, clock, seen, origin: `http://127.0.0.1:${port}` };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request over a real connection, its headers as sent (lower-cased names). */
function get(origin: string, target: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${origin}${target}`, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const named: Record<string, string> = {};
        for (let i = 0; i < response.rawHeaders.length; i += 2)
          named[String(response.rawHeaders[i]).toLowerCase()] = String(response.rawHeaders[i + 1]);
        resolve({ status: response.statusCode ?? 0, headers: named, body: Buffer.concat(chunks) });
      });
    });
    sent.on('error', reject);
    sent.end();
  });
}

const lasting = (headers: Record<string, string | string[] | number | undefined>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !PER_REQUEST.has(name))
      .map(([name, value]) => [name, String(value)]),
  );

const gamesOf = (answer: Answer): Game[] => {
  const json =
    answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return JSON.parse(json.toString('utf8')).data.games;
};

async function liveGame(app: FastifyInstance) {
  const game = await createGame(app.db, { createdAt: app.clock.now() });
  onTestFinished(async () => {
    await app.db.update(games).set({ status: 'CANCELLED' }).where(eq(games.id, game.id));
  });
  return game;
}

describe('cached game-list reads on the raw request', () => {
  it("answers a cached read without Fastify's cycle, with the route's status, headers and bytes", async () => {
    const { app, seen, origin } = await listeningApp();
    await liveGame(app);
    const viewer = await createUser(app.db);
    const auth = await bearerFor(app, viewer);

    // The first read fills the caches (token, account, session, list) through the route.
    const first = await get(origin, LIST, auth);
    expect(first.status).toBe(200);
    const reachedFastify = seen.byFastify;

    const variants: Array<Record<string, string>> = [
      auth,
      { ...auth, 'accept-encoding': BROWSER },
      { ...auth, 'if-none-match': String(first.headers.etag) },
      { ...auth, 'accept-encoding': BROWSER, 'if-none-match': String(first.headers.etag) },
    ];
    for (const headers of variants) {
      const fast = await get(origin, LIST, headers);
      // The same request through Fastify's cycle and the route (inject never meets the socket).
      const routed = await app.inject({ url: LIST, headers });
      expect(fast.status).toBe(routed.statusCode);
      expect(lasting(fast.headers)).toEqual(lasting(routed.headers));
      expect(fast.body.equals(routed.rawPayload)).toBe(true);
    }
    expect(seen.byFastify).toBe(reachedFastify + variants.length);
    expect(gamesOf(await get(origin, LIST, { ...auth, 'accept-encoding': BROWSER }))).toEqual(
      gamesOf(first),
    );
  });

  it('counts each read once against the limit and leaves other requests to Fastify', async () => {
    const { app, seen, origin } = await listeningApp({ RATE_LIMIT_MAX: '1000' });
    const viewer = await createUser(app.db);
    const auth = await bearerFor(app, viewer);
    const remaining = async (target = LIST, headers: Record<string, string> = auth) =>
      Number((await get(origin, target, headers)).headers['x-ratelimit-remaining']);

    const before = await remaining();
    const reachedFastify = seen.byFastify;
    expect(await remaining()).toBe(before - 1);
    expect(await remaining()).toBe(before - 2);
    expect(seen.byFastify).toBe(reachedFastify);
    // Another query, a HEAD, a browser page's Origin: the route's ordinary way, counted once too.
    expect(await remaining(`${LIST}&page=2`)).toBe(before - 3);
    expect(await remaining(LIST, { ...auth, origin })).toBe(before - 4);
    expect(seen.byFastify).toBe(reachedFastify + 2);
  });

  it('answers reads that arrive together after the remembered account expired, on one read', async () => {
    const { app, clock, seen, origin } = await listeningApp();
    await liveGame(app);
    const viewer = await createUser(app.db);
    const auth = await bearerFor(app, viewer);
    const first = await get(origin, LIST, auth);
    expect(first.status).toBe(200);
    const reachedFastify = seen.byFastify;

    clock.advance(ACCOUNT_STATE_TTL_MS);
    // The list read again as its own readers would, so only the account and session are stale.
    await app.gameLists.response('NEW_CHALLANGES', viewer.id);
    const together = await Promise.all(Array.from({ length: 20 }, () => get(origin, LIST, auth)));
    for (const answer of together) {
      expect(answer.status).toBe(200);
      expect(answer.body.equals(first.body)).toBe(true);
    }
    expect(seen.byFastify).toBe(reachedFastify);
  });

  it('refuses a token at once when its sessions are revoked, though the list is cached', async () => {
    const { app, origin } = await listeningApp();
    const viewer = await createUser(app.db);
    const auth = await bearerFor(app, viewer);
    expect((await get(origin, LIST, auth)).status).toBe(200);
    expect((await get(origin, LIST, auth)).status).toBe(200);

    await app.tokens.revokeAllSessions(viewer.id);

    const refused = await get(origin, LIST, auth);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({
      statusCode: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('serves a game changed on another instance fresh as soon as the database tells it', async () => {
    const shared = { clock: privateClock(), rateLimitScope: `test-${uniqueSuffix()}:` };
    const first = await listeningApp({}, shared);
    const second = await listeningApp({}, shared);
    const game = await liveGame(first.app);
    const [viewer, player] = [await createUser(first.app.db), await createUser(first.app.db)];
    const auth = await bearerFor(second.app, viewer);
    const listed = async () =>
      gamesOf(await get(second.origin, LIST, auth)).find((listedGame) => listedGame.id === game.id);
    expect(await listed()).toMatchObject({ title: game.title, playerCount: 0 });
    const reachedFastify = second.seen.byFastify;
    expect(await listed()).toMatchObject({ title: game.title });
    expect(second.seen.byFastify).toBe(reachedFastify);

    await first.app.db
      .update(games)
      .set({ title: 'Renamed on the first' })
      .where(eq(games.id, game.id));
    await eventually(
      async () => expect(await listed()).toMatchObject({ title: 'Renamed on the first' }),
      1_000,
    );
    expect((await play(first.app, player, game.id)).statusCode).toBe(201);
    await eventually(
      async () => expect(await listed()).toMatchObject({ playerCount: 1, hasPlayedGame: false }),
      1_000,
    );
  });

  it("counts a client behind a trusted proxy by its forwarded address, as Fastify's cycle does", async () => {
    const { app, seen, origin } = await listeningApp({ TRUST_PROXY: '1', RATE_LIMIT_MAX: '1000' });
    const viewer = await createUser(app.db);
    const auth = await bearerFor(app, viewer);
    const remaining = async (forwardedFor: string) =>
      Number(
        (await get(origin, LIST, { ...auth, 'x-forwarded-for': forwardedFor })).headers[
          'x-ratelimit-remaining'
        ],
      );

    const first = await remaining('198.51.100.7');
    const second = await remaining('203.0.113.9');
    const reachedFastify = seen.byFastify;
    expect(await remaining('198.51.100.7')).toBe(first - 1);
    expect(await remaining('203.0.113.9')).toBe(second - 1);
    expect(await remaining('198.51.100.7')).toBe(first - 2);
    expect(seen.byFastify).toBe(reachedFastify);
  });
});
