/**
 * `npm run ha-drill`: the failover and point-in-time-recovery drill, on a throwaway topology of
 * scripts/ha-topology.ts (two PostgreSQL nodes, HAProxy, pgBackRest) with two app instances
 * behind the HTTP HAProxy of deploy/haproxy.cfg.
 *
 * Players play, top up and games fill and are drawn; the primary and every process it started
 * are killed with SIGKILL mid-load; the watchdog promotes the standby. Then every request that
 * was acknowledged (2xx) is looked up on the promoted primary, the ledger check runs there, and
 * the time without service and the 5xx answers before, during and after the switch are printed.
 * Last, the pgBackRest archive is restored to a moment taken during the load into a new data
 * directory, which must hold exactly what was acknowledged before that moment and pass the
 * ledger check.
 *
 * Options: --load-seconds S (20: load before the kill), --after-seconds S (40: load after it),
 * --workers N (8), --keep (leave the directory for inspection). Exits 1 if any check fails.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { games } from '../src/server/db/schema.ts';
import { createDrawSeed, publishCommitment } from '../src/server/modules/draws/commitment.ts';
import { createUser } from '../src/server/test/factories.ts';
import { startFakeBeacon } from '../src/server/test/fake-beacon.ts';
import { buildServerForRun, nodeArgsFor } from './build-server.ts';
import { findHaproxy, localHaproxyConfig } from './cluster-config.ts';
import { asPostgres, type HaTopology, ownedByPostgres, startHaTopology } from './ha-topology.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (message: string) => console.info(`[ha-drill] ${message}`);

const { values: options } = parseArgs({
  options: {
    'load-seconds': { type: 'string', default: '20' },
    'after-seconds': { type: 'string', default: '40' },
    workers: { type: 'string', default: '8' },
    keep: { type: 'boolean', default: false },
  },
});
const LOAD_MS = Number(options['load-seconds']) * 1_000;
const AFTER_MS = Number(options['after-seconds']) * 1_000;
const WORKERS = Number(options.workers);
const PLAYERS = 60;
const GAMES = 400;
const SEATS = 5;
const ENTRY_FEE_KOBO = 10_000n;
const REWARD_KOBO = 30_000n;
const TOP_UP_NAIRA = 500;
const FIRST_TOP_UP_NAIRA = 2_000;
const INSTANCES = 2;
/** The service must be back within this after the kill. */
const RTO_BUDGET_MS = 30_000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Kind = 'play' | 'topup' | 'read' | 'ready';
interface Sample {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  /** 0: no HTTP answer (connection refused, reset or timed out). */
  status: number;
  /** Why there was no answer. */
  error?: string;
}
const samples: Sample[] = [];

async function request(
  kind: Kind,
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: unknown; location: string | null }> {
  const startedAt = Date.now();
  try {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    samples.push({ kind, startedAt, endedAt: Date.now(), status: response.status });
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, body, location: response.headers.get('location') };
  } catch (error) {
    const cause = error instanceof Error ? (error.cause ?? error) : error;
    samples.push({
      kind,
      startedAt,
      endedAt: Date.now(),
      status: 0,
      error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
    });
    return { status: 0, body: null, location: null };
  }
}

interface Player {
  id: string;
  token: string;
}
interface AckedPlay {
  userId: string;
  gameId: string;
  startedAt: number;
  endedAt: number;
}
interface TopUp {
  reference: string;
  userId: string;
  startedAt: number;
  endedAt: number;
  acked: boolean;
}

const children: ChildProcess[] = [];
function stopChildren(): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', stopChildren);

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitFor(what: string, ms: number, ok: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(250);
  }
}

async function rows<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function checkLedgerAt(databaseUrl: string, secrets: Record<string, string>) {
  return run(process.execPath, [...nodeArgsFor(serverBuild.admin), 'check-ledger'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: databaseUrl,
      ...secrets,
    },
  }).then(
    ({ stdout }) => ({ ok: true, output: stdout.trim() }),
    (error: { stdout?: string; stderr?: string }) => ({
      ok: false,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`.trim(),
    }),
  );
}

/** Acknowledged plays and top-ups found in a database, by what each request created. */
async function lookUp(url: string) {
  const entries = new Set(
    (
      await rows<{ key: string }>(url, `SELECT user_id || ':' || game_id AS key FROM game_entries`)
    ).map((row) => row.key),
  );
  const credited = new Set(
    (
      await rows<{ reference: string }>(
        url,
        `SELECT p.reference FROM payments p
         JOIN ledger_transactions t ON t.reference = 'topup:' || p.method || ':' || p.reference
         WHERE p.status = 'SUCCESS'`,
      )
    ).map((row) => row.reference),
  );
  return {
    hasPlay: (play: AckedPlay) => entries.has(`${play.userId}:${play.gameId}`),
    hasTopUp: (topUp: TopUp) => credited.has(topUp.reference),
    entries,
  };
}

const load1 = os.loadavg()[0] ?? 0;
const haproxy = findHaproxy();
if (!haproxy) {
  console.error('HAProxy is needed: apt-get install -y haproxy');
  process.exit(1);
}
const dir = await mkdtemp(path.join(os.tmpdir(), 'pluckers-ha-drill-'));
// The instances and the ledger check run the server built as `npm start` builds it.
const serverBuild = await buildServerForRun();
await ownedByPostgres(dir);
const secrets = {
  JWT_SECRET: randomBytes(48).toString('base64url'),
  KYC_HASH_KEY: randomBytes(48).toString('base64url'),
};
const beacon = await startFakeBeacon();
let topology: HaTopology | null = null;
const failures: string[] = [];

try {
  const ports = {
    nodes: [await freePort(), await freePort()] as [number, number],
    agents: [await freePort(), await freePort()] as [number, number],
    balancer: await freePort(),
    stats: await freePort(),
  };
  say(
    `directory ${dir}; load average ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  topology = await startHaTopology({ dir, ports, database: 'pluckers', log: say, haproxy });
  const ha = topology;

  // The players and games, written through the app's own code on the primary.
  const handle = await openDatabase({ databaseUrl: ha.url(), dataDir: dir, poolSize: 4 });
  const app = await buildApp(
    loadConfig({
      DATABASE_URL: ha.url(),
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      JOB_POLL_MS: '0',
      DATA_DIR: path.join(dir, 'prepare'),
      WEB_DIST: path.join(dir, 'no-web-build'),
      ...secrets,
      ...beacon.env,
    }),
    { database: handle },
  );
  await app.ready();
  await app.db.execute(`UPDATE settings SET daily_game_limit = 100000`);
  const players: Player[] = [];
  for (let index = 0; index < PLAYERS; index += 1) {
    const user = await createUser(app.db);
    players.push({ id: user.id, token: await app.tokens.sign(user) });
  }
  const gameIds: string[] = [];
  for (let index = 0; index < GAMES; index += 1) {
    const [game] = await app.db
      .insert(games)
      .values({
        title: `Drill game ${index + 1}`,
        entryFee: ENTRY_FEE_KOBO,
        reward: REWARD_KOBO,
        maximumPlayers: SEATS,
        ...createDrawSeed(),
      })
      .returning();
    if (!game) throw new Error('no game');
    await publishCommitment(app.db, game);
    gameIds.push(game.id);
  }
  await app.close();
  await handle.close();
  say(`${PLAYERS} players and ${GAMES} games of ${SEATS} seats ready`);

  await ha.backup();
  say('full pgBackRest backup taken');

  // The instances, their DATABASE_URL on the PostgreSQL balancer, and the HTTP balancer.
  let stopping = false;
  const instancePorts = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
  const balancerPort = await freePort();
  for (const [index, port] of instancePorts.entries()) {
    const child = spawn(process.execPath, nodeArgsFor(serverBuild.main), {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: ha.url(),
        DATA_DIR: path.join(dir, `app${index + 1}`),
        WEB_DIST: path.join(dir, 'no-web-build'),
        PUBLIC_URL: `http://127.0.0.1:${balancerPort}`,
        TRUST_PROXY: '1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        JOB_POLL_MS: '500',
        RATE_LIMIT_MAX: '1000000',
        ...secrets,
        ...beacon.env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const log: string[] = [];
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => log.push(chunk));
    child.once('exit', (code, signal) => {
      if (!stopping)
        failures.push(`app${index + 1} exited (${code ?? signal}): ${log.join('').slice(-2000)}`);
    });
    children.push(child);
  }
  await Promise.all(
    instancePorts.map((port) =>
      waitFor(`instance :${port} ready`, 90_000, async () => {
        const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
        return response.status === 200;
      }),
    ),
  );
  const httpConfig = path.join(dir, 'haproxy-http.cfg');
  await writeFile(
    httpConfig,
    localHaproxyConfig(await readFile(path.join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8'), {
      balancerPort,
      statsPort: await freePort(),
      instancePorts,
    }),
  );
  // Its lines (deploy/haproxy.cfg logs the requests that went wrong to stdout) are kept for the post-mortem.
  const httpLog = createWriteStream(path.join(dir, 'logs', 'haproxy-http.log'));
  const httpBalancer = spawn(haproxy, ['-db', '-f', httpConfig], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  httpBalancer.stdout?.pipe(httpLog);
  httpBalancer.stderr?.pipe(httpLog);
  children.push(httpBalancer);
  const base = `http://127.0.0.1:${balancerPort}`;
  await waitFor('HTTP balancer ready', 30_000, async () => {
    const response = await fetch(`${base}/api/health/ready`);
    return response.status === 200;
  });
  say(`${INSTANCES} instances behind ${base}, DATABASE_URL ${ha.url()}`);

  const auth = (player: Player) => ({ authorization: `Bearer ${player.token}` });
  const topUps: TopUp[] = [];
  async function topUp(player: Player, naira: number): Promise<void> {
    const startedAt = Date.now();
    const started = await request('topup', `${base}/api/v1/payment/transactpay`, {
      method: 'POST',
      headers: { ...auth(player), 'content-type': 'application/json' },
      body: JSON.stringify({ amount: naira }),
    });
    const paymentUrl = (started.body as { data?: { paymentUrl?: string } } | null)?.data
      ?.paymentUrl;
    if (started.status !== 200 || !paymentUrl) return;
    const pathname = new URL(paymentUrl).pathname;
    const reference = decodeURIComponent(pathname.split('/').pop() ?? '');
    const record: TopUp = { reference, userId: player.id, startedAt, endedAt: 0, acked: false };
    topUps.push(record);
    const paid = await request('topup', `${base}${pathname}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    if (paid.status !== 303 || !paid.location) return;
    // The page the player lands on says whether the wallet was credited.
    const callback = await request('topup', new URL(paid.location, base).toString());
    record.endedAt = Date.now();
    record.acked = callback.status === 302 && (callback.location ?? '').includes('status=success');
  }

  // Money first: every player's opening top-up, before anything is measured.
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let index = worker; index < PLAYERS; index += WORKERS) {
        const player = players[index];
        if (player) await topUp(player, FIRST_TOP_UP_NAIRA);
      }
    }),
  );
  const opening = topUps.filter((record) => record.acked).length;
  if (opening !== PLAYERS)
    throw new Error(`only ${opening} of ${PLAYERS} opening top-ups succeeded`);
  samples.length = 0;
  topUps.length = 0;
  say(`every player topped up ${FIRST_TOP_UP_NAIRA} naira; load starts`);

  // The load: plays filling games in order (each game's seats taken by different players),
  // top-ups now and then, and a watcher that notes games it sees drawn (prizes acknowledged).
  const plays: AckedPlay[] = [];
  const attempted: Array<{ userId: string; gameId: string; status: number }> = [];
  const seenDrawn = new Map<string, number>();
  let nextSeat = 0;
  let running = true;
  const loadStartedAt = Date.now();
  const workers = Array.from({ length: WORKERS }, async () => {
    while (running) {
      if (Math.random() < 0.15) {
        const player = players[Math.floor(Math.random() * PLAYERS)];
        if (player) await topUp(player, TOP_UP_NAIRA);
        continue;
      }
      const seat = nextSeat++;
      const game = Math.floor(seat / SEATS);
      const gameId = gameIds[game];
      const player = players[(game * SEATS + (seat % SEATS)) % PLAYERS];
      if (!gameId || !player) break;
      const startedAt = Date.now();
      const answer = await request('play', `${base}/api/v1/game/play`, {
        method: 'POST',
        headers: { ...auth(player), 'content-type': 'application/json' },
        body: JSON.stringify({ gameID: gameId, submittedAnswer: 'Suya at midnight' }),
      });
      attempted.push({ userId: player.id, gameId, status: answer.status });
      if (answer.status >= 200 && answer.status < 300)
        plays.push({ userId: player.id, gameId, startedAt, endedAt: Date.now() });
    }
  });
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const counts = new Map<string, number>();
      for (const play of plays) counts.set(play.gameId, (counts.get(play.gameId) ?? 0) + 1);
      const full = [...counts].filter(([id, n]) => n === SEATS && !seenDrawn.has(id)).slice(0, 10);
      for (const [gameId] of full) {
        const player = players[0];
        if (!player) break;
        const answer = await request('read', `${base}/api/v1/game/${gameId}`, {
          headers: auth(player),
        });
        const status = (answer.body as { data?: { status?: string } } | null)?.data?.status;
        if (answer.status === 200 && status === 'COMPLETED') seenDrawn.set(gameId, Date.now());
      }
      await sleep(500);
    }
  })();
  const readiness = (async () => {
    while (watching) {
      await request('ready', `${base}/api/health/ready`);
      await sleep(200);
    }
  })();

  // The point in time to recover to later, and its WAL archived while the primary lives.
  await sleep(Math.min(LOAD_MS / 2, 10_000));
  const target = new Date();
  await sleep(500);
  const segment = await ha.archiveNow();
  say(`recovery target ${target.toISOString()} (WAL up to ${segment} archived)`);
  await sleep(Math.max(0, loadStartedAt + LOAD_MS - Date.now()));

  // The chaos: the primary's postmaster and every process it started, SIGKILL, all at once.
  const primary = ha.leader();
  const doomed = await ha.processesOf(primary);
  const drawsBefore = seenDrawn.size;
  const [replication] = await rows<{ commit: string; state: string | null }>(
    ha.nodeUrl(primary, 'postgres'),
    `SELECT current_setting('synchronous_commit') AS commit,
       (SELECT string_agg(application_name || ' ' || sync_state, ', ') FROM pg_stat_replication) AS state`,
  );
  // Games whose last seat was taken before the kill but not yet seen drawn: their draws span it.
  const seats = new Map<string, number>();
  for (const play of plays) seats.set(play.gameId, (seats.get(play.gameId) ?? 0) + 1);
  const pendingDraws = [...seats]
    .filter(([id, n]) => n === SEATS && !seenDrawn.has(id))
    .map(([id]) => id);
  const killAt = Date.now();
  for (const pid of doomed) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  say(
    `killed ${primary.name} (${doomed.length} processes, SIGKILL) with ${plays.length} plays acknowledged so far`,
  );
  await sleep(AFTER_MS);
  running = false;
  await Promise.all(workers);
  // Games filled just before the end still draw: give the worker a few seconds to finish them.
  await sleep(8_000);
  watching = false;
  await Promise.all([watcher, readiness]);
  const loadEndedAt = Date.now();
  const load2 = os.loadavg()[0] ?? 0;

  const failover = ha.failovers[0];
  if (!failover) throw new Error('the standby was never promoted');
  const newPrimary = ha.leader();
  const directUrl = ha.nodeUrl(newPrimary);

  // Service back: the first play sent after the kill and acknowledged (a play always writes; a
  // top-up's redirects answer 3xx even when the database did not).
  const backAt = plays
    .filter((play) => play.startedAt >= killAt)
    .reduce((first, play) => Math.min(first, play.endedAt), Number.POSITIVE_INFINITY);
  const firstReady = samples
    .filter((s) => s.kind === 'ready' && s.startedAt >= failover.promotedAt && s.status === 200)
    .sort((a, b) => a.endedAt - b.endedAt)[0];
  // Requests answered before the kill, those it caught (in flight or sent before the service
  // was back), and those sent after.
  const phase = (s: Sample) =>
    s.endedAt < killAt ? 'before' : s.startedAt < backAt ? 'during' : 'after';
  const lastFailure = samples
    .filter((s) => s.kind !== 'ready' && (s.status === 0 || s.status >= 500))
    .reduce((latest, s) => Math.max(latest, s.endedAt), 0);
  const tally: Record<
    string,
    { requests: number; ok: number; s4xx: number; s5xx: number; noAnswer: number }
  > = {};
  for (const s of samples.filter((s) => s.kind !== 'ready')) {
    const name = phase(s);
    const row = tally[name] ?? { requests: 0, ok: 0, s4xx: 0, s5xx: 0, noAnswer: 0 };
    tally[name] = row;
    row.requests += 1;
    if (s.status === 0) row.noAnswer += 1;
    else if (s.status >= 500) row.s5xx += 1;
    else if (s.status >= 400) row.s4xx += 1;
    else row.ok += 1;
  }

  // Every acknowledged play, top-up and prize, looked up on the promoted primary.
  const found = await lookUp(directUrl);
  const lostPlays = plays.filter((play) => !found.hasPlay(play));
  const ackedTopUps = topUps.filter((record) => record.acked);
  const lostTopUps = ackedTopUps.filter((record) => !found.hasTopUp(record));
  const prizes = await rows<{ game_id: string; status: string; paid: boolean }>(
    directUrl,
    `SELECT g.id AS game_id, g.status,
       EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.reference = 'prizes:' || g.id) AS paid
     FROM games g WHERE g.id = ANY($1::uuid[])`,
    [[...seenDrawn.keys()]],
  );
  const lostPrizes = prizes.filter((row) => row.status !== 'COMPLETED' || !row.paid);
  const ambiguous = attempted.filter(
    (a) => (a.status === 0 || a.status >= 500) && found.entries.has(`${a.userId}:${a.gameId}`),
  ).length;
  const ledger = await checkLedgerAt(directUrl, secrets);

  const after = tally.after ?? { requests: 0, ok: 0, s4xx: 0, s5xx: 0, noAnswer: 0 };
  const rtoMs = backAt - killAt;
  console.info(
    [
      '',
      '== failover ==',
      `load average (1 min) ${load1.toFixed(2)} at start, ${load2.toFixed(2)} at the end; ${os.cpus().length} cores; ${WORKERS} clients, ${INSTANCES} instances`,
      `load ${((loadEndedAt - loadStartedAt) / 1000).toFixed(0)} s, primary killed at +${((killAt - loadStartedAt) / 1000).toFixed(1)} s (synchronous_commit=${replication?.commit}, standby ${replication?.state})`,
      `primary unreachable noticed after ${failover.firstMissAt - killAt} ms, declared dead after ${failover.detectedAt - killAt} ms, standby promoted after ${failover.promotedAt - killAt} ms`,
      `service back (first play sent after the kill acknowledged): ${Number.isFinite(rtoMs) ? `${(rtoMs / 1000).toFixed(1)} s` : 'never'}; balancer ready again after ${firstReady ? ((firstReady.endedAt - killAt) / 1000).toFixed(1) : '?'} s`,
      `requests (not counting readiness polls): ${['before', 'during', 'after']
        .map((name) => {
          const row = tally[name];
          return row
            ? `${name}: ${row.requests} (2xx/3xx ${row.ok}, 4xx ${row.s4xx}, 5xx ${row.s5xx}, no answer ${row.noAnswer})`
            : `${name}: 0`;
        })
        .join('; ')}`,
      `acknowledged plays ${plays.length}, lost ${lostPlays.length}; acknowledged top-ups ${ackedTopUps.length}, lost ${lostTopUps.length}; draws seen completed ${seenDrawn.size} (${drawsBefore} before the kill), prizes lost ${lostPrizes.length}`,
      `draws of games full at the kill, completed after it: ${pendingDraws.filter((id) => seenDrawn.has(id)).length} of ${pendingDraws.length}`,
      `failed requests (kind status sent→answered, seconds from the kill): ${samples
        .filter((s) => s.kind !== 'ready' && (s.status === 0 || s.status >= 500))
        .slice(0, 30)
        .map(
          (s) =>
            `${s.kind} ${s.status} ${((s.startedAt - killAt) / 1000).toFixed(1)}→${((s.endedAt - killAt) / 1000).toFixed(1)}`,
        )
        .join(', ')}`,
      `failed after the service was back: ${
        samples
          .filter(
            (s) =>
              s.kind !== 'ready' && s.startedAt >= backAt && (s.status === 0 || s.status >= 500),
          )
          .map(
            (s) =>
              `${s.kind} ${s.status} ${((s.startedAt - killAt) / 1000).toFixed(1)}→${((s.endedAt - killAt) / 1000).toFixed(1)}${s.error ? ` (${s.error})` : ''}`,
          )
          .join(', ') || 'none'
      }`,
      `last failed request answered ${lastFailure > killAt ? `${((lastFailure - killAt) / 1000).toFixed(1)} s after the kill` : 'before the kill'}`,
      `plays that failed (5xx or no answer) yet were committed: ${ambiguous}`,
      `ledger check on the promoted primary: ${ledger.ok ? 'passed' : 'FAILED'} (${ledger.output.split('\n').at(-1)})`,
    ].join('\n'),
  );
  if (lostPlays.length + lostTopUps.length + lostPrizes.length > 0)
    failures.push('acknowledged writes lost');
  if (!ledger.ok) failures.push(`ledger check failed on the promoted primary:\n${ledger.output}`);
  if (!(rtoMs <= RTO_BUDGET_MS)) failures.push(`service not back within ${RTO_BUDGET_MS / 1000} s`);
  if (after.s5xx + after.noAnswer > 0) failures.push('5xx or unanswered requests after the switch');
  if (plays.filter((p) => p.startedAt > killAt).length === 0)
    failures.push('no play succeeded after the switch');

  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  await Promise.race([Promise.all(children.map(exited)), sleep(15_000)]);

  // Point-in-time recovery: the archive, restored to `target` in a new data directory.
  const pitrDir = path.join(dir, 'pitr');
  await ownedByPostgres(pitrDir);
  const pitrPort = await freePort();
  const restoreStarted = Date.now();
  const stamp = target.toISOString().replace('T', ' ').replace('Z', '+00');
  await ha.pgbackrest([
    `--pg1-path=${pitrDir}`,
    '--type=time',
    `--target=${stamp}`,
    '--target-action=promote',
    '--archive-mode=off',
    'restore',
  ]);
  const restoredAt = Date.now();
  await asPostgres(path.join(PG_BIN, 'pg_ctl'), [
    '-D',
    pitrDir,
    '-l',
    path.join(dir, 'logs', 'pitr.log'),
    '-o',
    `-c port=${pitrPort} -c cluster_name=pitr -c synchronous_standby_names='' -c archive_mode=off`,
    '-w',
    '-t',
    '120',
    'start',
  ]);
  const pitrUrl = `postgres://postgres@127.0.0.1:${pitrPort}/pluckers`;
  await waitFor('the restored copy promoted at its target', 120_000, async () => {
    const [row] = await rows<{ r: boolean }>(pitrUrl, 'SELECT pg_is_in_recovery() AS r');
    return row?.r === false;
  });
  const recoveredAt = Date.now();
  const restored = await lookUp(pitrUrl);
  const before = plays.filter((play) => play.endedAt <= target.getTime());
  const missingBefore = before.filter((play) => !restored.hasPlay(play));
  const afterTarget = plays.filter(
    (play) => play.startedAt > target.getTime() && restored.hasPlay(play),
  );
  const topUpsBefore = ackedTopUps.filter((record) => record.endedAt <= target.getTime());
  const missingTopUps = topUpsBefore.filter((record) => !restored.hasTopUp(record));
  const topUpsAfter = topUps.filter(
    (record) => record.startedAt > target.getTime() && restored.hasTopUp(record),
  );
  const [latest] = await rows<{ latest: string }>(
    pitrUrl,
    `SELECT coalesce(max(created_at), 'epoch')::text AS latest FROM ledger_transactions`,
  );
  const pitrLedger = await checkLedgerAt(pitrUrl, secrets);
  await asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', pitrDir, '-m', 'fast', '-w', 'stop']).catch(
    () => {},
  );
  console.info(
    [
      '',
      '== point-in-time recovery (pgBackRest) ==',
      `target ${target.toISOString()}: restore ${((restoredAt - restoreStarted) / 1000).toFixed(1)} s, start and replay to the target ${((recoveredAt - restoredAt) / 1000).toFixed(1)} s`,
      `plays acknowledged before the target ${before.length}, missing ${missingBefore.length}; plays sent after it present ${afterTarget.length}`,
      `top-ups acknowledged before the target ${topUpsBefore.length}, missing ${missingTopUps.length}; sent after it present ${topUpsAfter.length}`,
      `newest ledger transaction in the copy: ${latest?.latest}`,
      `ledger check on the restored copy: ${pitrLedger.ok ? 'passed' : 'FAILED'} (${pitrLedger.output.split('\n').at(-1)})`,
    ].join('\n'),
  );
  if (missingBefore.length + missingTopUps.length > 0)
    failures.push('the restored copy lacks acknowledged writes');
  if (afterTarget.length + topUpsAfter.length > 0)
    failures.push('the restored copy went past its target');
  if (!pitrLedger.ok)
    failures.push(`ledger check failed on the restored copy:\n${pitrLedger.output}`);
} catch (error) {
  failures.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  stopChildren();
  await topology?.stop();
  await beacon.close();
  await serverBuild.remove();
  if (options.keep) say(`kept ${dir}`);
  else await rm(dir, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`\n[ha-drill] FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
say('passed');
process.exit(0);
