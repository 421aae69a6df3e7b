/**
 * `npx tsx scripts/cluster-load.ts --instances 8 [--pgbouncer]`: paid plays through HAProxy
 * against `npm run cluster` on a database of its own, to compare PostgreSQL directly with
 * PgBouncer in front (bench/RESULTS.md, PgBouncer). It prepares players (funded) and games with
 * the app's own code, starts the cluster, lets --clients concurrent players play for --seconds,
 * samples how many connections PostgreSQL holds for the database meanwhile, stops the cluster
 * and drops the database. Options: --pool-size (each instance's DATABASE_POOL_SIZE, 20).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { games } from '../src/server/db/schema.ts';
import { createDrawSeed } from '../src/server/modules/draws/commitment.ts';
import { createPlayer } from '../src/server/test/factories.ts';
import { freePort } from '../src/server/test/instances.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ENTRY_FEE_KOBO = 10_000n;
const REWARD_KOBO = 30_000n;
const PLAYERS = 200;
/** More seats than players: no game fills, so no draw competes with the plays. */
const SEATS = 1_000;

const { values: options } = parseArgs({
  options: {
    instances: { type: 'string', default: '8' },
    pgbouncer: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '32' },
    'pool-size': { type: 'string', default: '20' },
  },
});
const seconds = Number(options.seconds);
const clients = Number(options.clients);
const say = (message: string) => console.info(`[cluster-load] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const name = `pluckers_load_${options.pgbouncer ? 'pooled' : 'direct'}_${Date.now()}`;
await onServer((client) => client.query(`CREATE DATABASE "${name}"`));
const databaseUrl = Object.assign(new URL(SERVER_URL), { pathname: `/${name}` }).toString();
const dir = await mkdtemp(path.join(os.tmpdir(), 'pluckers-cluster-load-'));
const secrets = {
  JWT_SECRET: randomBytes(48).toString('base64url'),
  KYC_HASH_KEY: randomBytes(48).toString('base64url'),
};

try {
  // Players with money and open games, written by the app's own code.
  const handle = await openDatabase({ databaseUrl, dataDir: dir, poolSize: 4 });
  const app = await buildApp(
    loadConfig({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      JOB_POLL_MS: '0',
      DATA_DIR: dir,
      WEB_DIST: path.join(dir, 'no-web-build'),
      ...secrets,
    }),
    { database: handle },
  );
  await app.ready();
  await app.db.execute(`UPDATE settings SET daily_game_limit = 100000`);
  const tokens: string[] = [];
  for (let index = 0; index < PLAYERS; index += 1) {
    const player = await createPlayer(app.db, { kobo: 100_000_000n });
    tokens.push(await app.tokens.sign(player));
  }
  const gameIds: string[] = [];
  for (let index = 0; index < 60; index += 1) {
    const [game] = await app.db
      .insert(games)
      .values({
        title: `Load game ${index + 1}`,
        entryFee: ENTRY_FEE_KOBO,
        reward: REWARD_KOBO,
        maximumPlayers: SEATS,
        ...createDrawSeed(),
      })
      .returning({ id: games.id });
    if (game) gameIds.push(game.id);
  }
  await app.close();
  await handle.close();

  const balancerPort = await freePort();
  const args = [
    'run',
    'cluster',
    '--',
    '--instances',
    options.instances,
    '--no-web-build',
    '--port',
    String(balancerPort),
    '--first-port',
    String(20_000 + Math.floor(Math.random() * 20_000)),
    '--stats-port',
    String(await freePort()),
    ...(options.pgbouncer ? ['--pgbouncer', '--pgbouncer-port', String(await freePort())] : []),
  ];
  const cluster = spawn('npm', args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: options['pool-size'],
      ...secrets,
      NODE_ENV: 'test',
      SEED_DEMO: 'false',
      JOB_POLL_MS: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '100000000',
    },
  });
  let output = '';
  for (const stream of [cluster.stdout, cluster.stderr])
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
  const exited = new Promise((resolve) => cluster.once('exit', resolve));
  try {
    const deadline = Date.now() + 180_000;
    while (!/rolling restart: kill -HUP/.test(output)) {
      if (cluster.exitCode !== null || Date.now() > deadline)
        throw new Error(`the cluster did not start:\n${output.slice(-4_000)}`);
      await sleep(200);
    }
    say(
      `cluster ready (${options.instances} instances, ${options.pgbouncer ? 'PgBouncer' : 'direct'}); load average ${load()}`,
    );

    // Connections PostgreSQL holds for this database, sampled while the players play.
    let maxConnections = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const count = await onServer((client) =>
          client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          ),
        );
        maxConnections = Math.max(maxConnections, count.rows[0]?.n ?? 0);
        await sleep(250);
      }
    })();

    const base = `http://127.0.0.1:${balancerPort}`;
    const latencies: number[] = [];
    const failures = new Map<string, number>();
    let next = 0;
    const startedAt = Date.now();
    const endAt = startedAt + seconds * 1_000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < endAt) {
          const pair = next++;
          const token = tokens[pair % PLAYERS];
          const gameId = gameIds[Math.floor(pair / PLAYERS)];
          if (!token || !gameId) break;
          const sentAt = performance.now();
          const response = await fetch(`${base}/api/v1/game/play`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              gameID: gameId,
              submittedAnswer: `answer ${pair}`,
              entryFee: Number(ENTRY_FEE_KOBO / 100n),
              reward: Number(REWARD_KOBO / 100n),
            }),
          }).catch((error: unknown) => ({ status: String(error), text: async () => '' }));
          const body = await response.text();
          if (response.status === 201) latencies.push(performance.now() - sentAt);
          else {
            const key = `${response.status} ${body.slice(0, 80)}`;
            failures.set(key, (failures.get(key) ?? 0) + 1);
          }
        }
      }),
    );
    const elapsed = (Date.now() - startedAt) / 1_000;
    sampling = false;
    await sampler;
    latencies.sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    say(
      [
        `${latencies.length} plays in ${elapsed.toFixed(1)} s: ${(latencies.length / elapsed).toFixed(0)} plays/s`,
        `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms; ${clients} clients`,
        `most PostgreSQL connections to the database: ${maxConnections}`,
        `failures: ${failures.size === 0 ? 'none' : JSON.stringify(Object.fromEntries(failures))}`,
        `load average ${load()}`,
      ].join('\n  '),
    );
  } finally {
    if (cluster.pid) process.kill(-cluster.pid, 'SIGTERM');
    await exited;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await onServer((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
