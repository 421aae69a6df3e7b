/**
 * Figure 2, the write path: 100 players at once answering paid games against the real server,
 * in two phases. "Paced": each player pauses 0.5–1.5 s between answers, as a person reading and
 * typing would, so the server is offered about 100 answers a second; the p99 budget is judged
 * here. "Saturated": no pause (a closed loop), which shows the most answers a second the server
 * takes; latency there is only queueing (players ÷ throughput). Each player picks a random game it
 * has not played yet among 1,000 open paid games; every 10th game has only 10 places, so games
 * fill, close and get drawn during the run and later players are told it is full or closed.
 * Afterwards, with the server stopped: the ledger check and no game oversold (player_count ≤
 * maximum_players and equal to its entries).
 *
 * On PostgreSQL it also measures what a play costs: the server's and PostgreSQL backends' CPU
 * time per play during the saturated phase (from /proc, robust to what else runs on the
 * machine), the statements and round trips of one play (counted on the wire by a proxy, on a
 * second start of the server, plays one at a time), and pgbench's TPC-B-like transaction on the
 * same server with as many clients as the server's pool has connections, right after the
 * saturated phase: plays/s ÷ pgbench tps says how close a play comes to what PostgreSQL itself
 * does per transaction on this machine at this moment.
 */
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { checkLedger } from '../../src/server/modules/wallet/ledger-check.ts';
import { benchGameId, benchUserId, generateWriteDataset, oversoldGames } from '../generate.ts';
import { processCpuSeconds } from '../lib/cpu.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { findPgbench, type Pgbench, preparePgbench } from '../lib/pgbench.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { RawHttpConnection } from '../lib/raw-http.ts';
import { startRealServer } from '../lib/server.ts';
import { mean, median, percentile, round, sleep } from '../lib/stats.ts';
import { type Target, withDatabase } from '../lib/target.ts';
import { startWireCounter } from '../lib/wire-counter.ts';

const PLAYERS = 100;
const PLAY_PATH = '/api/v1/game/play';
/** The server's pool (DATABASE_POOL_SIZE, its default) and pgbench's clients. */
const POOL_SIZE = 20;
/** Plays sent one at a time to a server whose database connections are counted on the wire. */
const COUNTED_PLAYS = 60;

interface Phase {
  name: string;
  thinkMs: [number, number] | null;
  latencies: number[];
  /** Latencies of the answers that took a place (201). */
  plays: number[];
  statuses: Map<number, number>;
  ms: number;
  /** CPU seconds over the phase: the server, PostgreSQL's backends, this load generator. */
  cpu?: { server: number; postgres: number | null; generator: number; loadAverage: number[] };
}
/**
 * Open games: each player plays each at most once, so this bounds a player's plays in the run,
 * and must exceed what the fastest saturated phase takes (~3,200 plays/s × 15 s ÷ 100 players).
 */
const GAMES = 1_000;
/** Earlier games of 50 players each: 500 past entries per player, 50,000 in all. */
const HISTORY_GAMES = 1_000;
const ENTRY_FEE_KOBO = 10_000n;

/** A random game of those the player has not played yet, taken off its list. */
function takeGame(games: number[]): number {
  const pick = Math.floor(Math.random() * games.length);
  const game = games[pick] as number;
  games[pick] = games[games.length - 1] as number;
  games.pop();
  return game;
}

/**
 * Answers a player may rightly get in this run: the game filled (409), or it filled, closed and
 * its draw already ran (400 "closed"). Anything else is a broken invariant.
 */
function refusal(response: { status: number; body: string }): boolean {
  if (response.status === 409) return true;
  return response.status === 400 && response.body.includes('closed to new answers');
}

/** Server processes of the backends connected to `databaseUrl`'s database, bar this query's own. */
async function backendPids(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND backend_type = 'client backend'`,
    );
    return result.rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** CPU seconds of each process now; processes gone meanwhile are left out. */
async function cpuByPid(pids: readonly number[]): Promise<Map<number, number>> {
  const entries = await Promise.all(
    pids.map(async (pid) => {
      try {
        return [pid, await processCpuSeconds(pid)] as const;
      } catch {
        return null;
      }
    }),
  );
  return new Map(entries.filter((entry): entry is readonly [number, number] => entry !== null));
}

/** CPU seconds the processes used between two readings (those present in both). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) {
    const start = before.get(pid);
    if (start !== undefined) total += seconds - start;
  }
  return total;
}

interface WireFigures {
  plays: number;
  statements: { median: number; mean: number };
  roundTrips: { median: number; mean: number };
}

/**
 * Statements and round trips per play: a second start of the server, its database connections
 * through a counting proxy, plays sent one at a time by a few players (each warmed up by one
 * play, so what authentication remembers is as warm as in the phases above). Per answered play
 * (201), the difference of the counters around it; the median leaves out the worker's polls
 * that happen to fall inside one play, the mean keeps them.
 */
async function countPlayStatements(
  databaseUrl: string,
  env: Record<string, string>,
  options: RunOptions,
  tokens: string[],
  left: number[][],
  unexpected: string[],
): Promise<WireFigures> {
  const counter = await startWireCounter(databaseUrl);
  const statements: number[] = [];
  const roundTrips: number[] = [];
  try {
    const server = await startRealServer({
      // Without the worker (draws of the games filled above), only the plays' statements.
      env: { ...env, DATABASE_URL: counter.url, JOB_POLL_MS: '0' },
      logFile: path.join(options.workDir, 'write-counted-server.log'),
    });
    try {
      const connection = new RawHttpConnection(server.url);
      const players = tokens.slice(0, 5);
      for (let index = 0; index < players.length + COUNTED_PLAYS; index += 1) {
        const player = index % players.length;
        const games = left[player] as number[];
        if (games.length === 0) break;
        const body = JSON.stringify({
          gameID: benchGameId('wr', takeGame(games)),
          submittedAnswer: `Player ${player} counts the statements`,
        });
        const before = counter.counts();
        const response = await connection.post(
          PLAY_PATH,
          { authorization: `Bearer ${players[player]}` },
          body,
        );
        const after = counter.counts();
        if (response.status !== 201) {
          if (!refusal(response) && unexpected.length < 5)
            unexpected.push(`${response.status} ${response.body.slice(0, 200)}`);
          continue;
        }
        if (index < players.length) continue;
        statements.push(after.statements - before.statements);
        roundTrips.push(after.roundTrips - before.roundTrips);
      }
      connection.close();
    } finally {
      await server.stop();
    }
  } finally {
    await counter.close();
  }
  return {
    plays: statements.length,
    statements: { median: median(statements), mean: round(mean(statements), 2) },
    roundTrips: { median: median(roundTrips), mean: round(mean(roundTrips), 2) },
  };
}

const rateOf = (phase: Phase) => (phase.statuses.get(201) ?? 0) / (phase.ms / 1000);

/** What a play costs (saturated phase) and how it compares with pgbench's transaction. */
function costFigures(
  saturated: Phase,
  wire: WireFigures | null,
  pgbench: { tps: number; loadAverage: number[] } | null,
  postgres: boolean,
  pgbenchBinary: string | null,
  quick: boolean,
): Figure[] {
  const plays = saturated.statuses.get(201) ?? 0;
  const perPlay = (cpuSeconds: number | null | undefined) =>
    cpuSeconds === null || cpuSeconds === undefined || plays === 0
      ? null
      : round((cpuSeconds * 1e6) / plays, 0);
  const onlyPostgres = postgres ? undefined : 'PostgreSQL only';
  const ratio = pgbench ? rateOf(saturated) / pgbench.tps : null;
  return [
    {
      section: 'write',
      name: 'server CPU per play (saturated)',
      value: perPlay(saturated.cpu?.server),
      unit: 'µs',
      note: `process CPU ÷ plays; load average ${saturated.cpu?.loadAverage.join(' / ') ?? '?'}`,
    },
    {
      section: 'write',
      name: 'PostgreSQL backends CPU per play (saturated)',
      value: perPlay(saturated.cpu?.postgres),
      unit: 'µs',
      note: onlyPostgres ?? 'the pool’s backends; draws of filled games included',
    },
    {
      section: 'write',
      name: 'statements / round trips per play',
      value: null,
      unit: '',
      display: wire ? `${wire.statements.median} / ${wire.roundTrips.median}` : 'n/a',
      note: wire
        ? `counted on the wire, median of ${wire.plays} plays (means ${wire.statements.mean} / ${wire.roundTrips.mean})`
        : onlyPostgres,
    },
    {
      section: 'write',
      name: `pgbench TPC-B-like, ${POOL_SIZE} clients (the pool's size)`,
      value: pgbench ? round(pgbench.tps, 0) : null,
      unit: 'tps',
      note: pgbench
        ? `same PostgreSQL, right after; load average ${pgbench.loadAverage.join(' / ')}`
        : (onlyPostgres ?? (pgbenchBinary ? undefined : 'pgbench not found (PGBENCH)')),
    },
    {
      section: 'write',
      name: 'plays/s (capacity) ÷ pgbench tps',
      value: ratio === null ? null : round(ratio, 2),
      unit: '×',
      budget: quick ? '≥ 0.5 (full runs)' : '≥ 0.5',
      pass: ratio === null || quick ? undefined : ratio >= 0.5,
    },
  ];
}

export async function runWritePath(target: Target, options: RunOptions): Promise<ScenarioResult> {
  const slot = await target.fresh('write');
  const tokens = await withPreparedDatabase(slot, async ({ handle, token }) => {
    await generateWriteDataset(handle.db, {
      players: PLAYERS,
      games: GAMES,
      entryFeeKobo: ENTRY_FEE_KOBO,
      fundKobo: ENTRY_FEE_KOBO * BigInt(GAMES),
      largeCapacity: 1_000,
      smallCapacity: 10,
      smallEvery: 10,
      historyGames: HISTORY_GAMES,
    });
    // Players play far more than the default 5 games a day here; the count is still checked.
    await handle.db.execute(sql`UPDATE settings SET daily_game_limit = 1000000`);
    return Promise.all(
      Array.from({ length: PLAYERS }, (_, index) => token(benchUserId('wr', index))),
    );
  });

  const databaseUrl = target.kind === 'postgres' ? slot.env.DATABASE_URL : undefined;
  const pgbenchBinary = databaseUrl ? await findPgbench() : null;
  let pgbench: Pgbench | null = null;
  let pgbenchResult: { tps: number; transactions: number; loadAverage: number[] } | null = null;
  let wire: WireFigures | null = null;
  const env = { ...slot.env, DATABASE_POOL_SIZE: String(POOL_SIZE) };
  const seconds = options.quick ? 4 : 15;
  const phases: Phase[] = [
    // Players as people play: a pause of 0.5–1.5 s (reading, typing) between answers, so the
    // 100 players offer about 100 answers a second. The budget is judged here.
    { name: 'paced', thinkMs: [500, 1500], latencies: [], plays: [], statuses: new Map(), ms: 0 },
    // No pause at all: the most answers a second the server takes; latency is then queueing.
    { name: 'saturated', thinkMs: null, latencies: [], plays: [], statuses: new Map(), ms: 0 },
  ];
  const unexpected: string[] = [];
  const left = tokens.map(() => Array.from({ length: GAMES - 1 }, (_, index) => index + 1));
  try {
    // Initialised before the server starts, so that work is not part of any measurement.
    if (databaseUrl && pgbenchBinary) {
      options.log(`write path: pgbench -i -s ${POOL_SIZE} in its own database`);
      pgbench = await preparePgbench(
        pgbenchBinary,
        withDatabase(databaseUrl, 'postgres'),
        POOL_SIZE,
      );
    }
    const server = await startRealServer({
      env,
      logFile: path.join(options.workDir, 'write-server.log'),
    });
    try {
      const connections = tokens.map(() => new RawHttpConnection(server.url));
      // Warm-up: one answer per player to the same game, which also fills and closes one game.
      const warmGame = benchGameId('wr', 0);
      await Promise.all(
        tokens.map((token, player) =>
          (connections[player] as RawHttpConnection).post(
            PLAY_PATH,
            { authorization: `Bearer ${token}` },
            JSON.stringify({ gameID: warmGame, submittedAnswer: 'Warming up' }),
          ),
        ),
      );
      for (const phase of phases) {
        options.log(`write path: ${PLAYERS} players, ${phase.name}, for ${seconds} s`);
        const pids = databaseUrl ? await backendPids(databaseUrl) : [];
        const cpuBefore = await cpuByPid([server.process.pid ?? 0, ...pids]);
        const generatorBefore = process.cpuUsage();
        const start = performance.now();
        const deadline = start + seconds * 1000;
        await Promise.all(
          tokens.map(async (token, player) => {
            const headers = { authorization: `Bearer ${token}` };
            const connection = connections[player] as RawHttpConnection;
            const games = left[player] as number[];
            while (performance.now() < deadline && games.length > 0) {
              if (phase.thinkMs) {
                const [low, high] = phase.thinkMs;
                await sleep(low + Math.random() * (high - low));
                if (performance.now() >= deadline) break;
              }
              const game = takeGame(games);
              const body = JSON.stringify({
                gameID: benchGameId('wr', game),
                submittedAnswer: `Player ${player} says suya at midnight`,
              });
              const sent = performance.now();
              const response = await connection.post(PLAY_PATH, headers, body);
              const took = performance.now() - sent;
              phase.latencies.push(took);
              phase.statuses.set(response.status, (phase.statuses.get(response.status) ?? 0) + 1);
              if (response.status === 201) phase.plays.push(took);
              else if (!refusal(response) && unexpected.length < 5)
                unexpected.push(`${response.status} ${response.body.slice(0, 200)}`);
            }
          }),
        );
        phase.ms = performance.now() - start;
        const generator = process.cpuUsage(generatorBefore);
        const cpuAfter = await cpuByPid([...cpuBefore.keys()]);
        const serverPid = server.process.pid ?? 0;
        const serverCpu = (cpuAfter.get(serverPid) ?? 0) - (cpuBefore.get(serverPid) ?? 0);
        cpuBefore.delete(serverPid);
        phase.cpu = {
          server: serverCpu,
          postgres: databaseUrl ? cpuBetween(cpuBefore, cpuAfter) : null,
          generator: (generator.user + generator.system) / 1e6,
          loadAverage: os.loadavg().map((value) => round(value, 2)),
        };
      }
      for (const connection of connections) connection.close();
    } finally {
      await server.stop();
    }
    // Right after the saturated phase, as many clients as the server's pool has connections.
    if (pgbench) {
      options.log(`write path: pgbench TPC-B-like, ${POOL_SIZE} clients, for ${seconds} s`);
      const measured = await pgbench.run(POOL_SIZE, seconds);
      pgbenchResult = { ...measured, loadAverage: os.loadavg().map((value) => round(value, 2)) };
    }
    if (databaseUrl) {
      options.log(`write path: counting statements of ${COUNTED_PLAYS} plays on the wire`);
      wire = await countPlayStatements(databaseUrl, env, options, tokens, left, unexpected);
    }
  } finally {
    await pgbench?.drop();
  }

  const problems: string[] = [];
  for (const text of unexpected) problems.push(`write path: unexpected answer ${text}`);
  const integrity = await withPreparedDatabase(slot, async ({ handle }) => {
    const ledger = await checkLedger(handle.db, { sandbox: false });
    const oversold = await oversoldGames(handle.db);
    const closed = (
      (await handle.db.execute(
        // The run's games, not the history's (all completed before it).
        sql`SELECT count(*)::int AS n FROM games
          WHERE status <> 'ONGOING' AND title LIKE 'Bench wr game %'`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0]?.n;
    return { ledger, oversold, closed: closed ?? 0 };
  });
  if (!integrity.ledger.ok) {
    const broken = integrity.ledger.invariants.filter((invariant) => !invariant.ok);
    problems.push(`write path: ledger check failed: ${broken.map((i) => i.name).join(', ')}`);
  }
  if (integrity.oversold.length > 0)
    problems.push(`write path: ${integrity.oversold.length} games oversold or miscounted`);

  const [paced, saturated] = phases as [Phase, Phase];
  const rate = rateOf;
  const p99 = percentile(paced.latencies, 0.99);
  const ok = integrity.ledger.ok && integrity.oversold.length === 0;
  const figures: Figure[] = [
    {
      section: 'write',
      name: 'POST /game/play, 100 players pausing 0.5–1.5 s: plays',
      value: round(rate(paced), 0),
      unit: 'plays/s',
    },
    {
      section: 'write',
      name: 'paced answer p50',
      value: round(percentile(paced.latencies, 0.5), 1),
      unit: 'ms',
    },
    {
      section: 'write',
      name: 'paced answer p99',
      value: round(p99, 1),
      unit: 'ms',
      // Quick runs are short and, by default, on PGlite, whose one connection queues every play.
      budget: options.quick ? '< 50 ms (full runs)' : '< 50 ms',
      pass: options.quick ? undefined : p99 < 50,
    },
    {
      section: 'write',
      name: '100 players without pauses: plays (capacity)',
      value: round(rate(saturated), 0),
      unit: 'plays/s',
    },
    {
      section: 'write',
      name: 'saturated answer p50 / p99',
      value: null,
      unit: '',
      display: `${round(percentile(saturated.latencies, 0.5), 0)} ms / ${round(percentile(saturated.latencies, 0.99), 0)} ms`,
      note: 'closed loop: latency = players ÷ throughput',
    },
    ...costFigures(
      saturated,
      wire,
      pgbenchResult,
      databaseUrl !== undefined,
      pgbenchBinary,
      options.quick,
    ),
    {
      section: 'write',
      name: 'ledger check and no game oversold',
      value: null,
      unit: '',
      display: ok ? 'ok' : 'FAILED',
      note: `${integrity.closed} games filled and closed during the run`,
    },
  ];
  const summary = (phase: Phase) => ({
    thinkMs: phase.thinkMs,
    seconds: round(phase.ms / 1000, 2),
    answers: phase.latencies.length,
    statuses: Object.fromEntries(phase.statuses),
    playsPerSecond: rate(phase),
    latencyMs: {
      p50: percentile(phase.latencies, 0.5),
      p90: percentile(phase.latencies, 0.9),
      p99: percentile(phase.latencies, 0.99),
      max: percentile(phase.latencies, 1),
    },
    successfulPlayLatencyMs: {
      p50: percentile(phase.plays, 0.5),
      p99: percentile(phase.plays, 0.99),
    },
  });
  return {
    figures,
    details: {
      players: PLAYERS,
      games: GAMES,
      paced: summary(paced),
      saturated: summary(saturated),
      cpuSeconds: { paced: paced.cpu, saturated: saturated.cpu },
      wire,
      pgbench: pgbenchResult && { clients: POOL_SIZE, scale: POOL_SIZE, ...pgbenchResult },
      gamesClosedDuringRun: integrity.closed,
      ledger: integrity.ledger.invariants.map(({ name, ok }) => ({ name, ok })),
      oversold: integrity.oversold,
    },
    problems,
  };
}
