/**
 * Figure 2, the write path: 100 players at once answering paid games against the real server,
 * in two phases. "Paced": each player pauses 0.5–1.5 s between answers, as a person reading and
 * typing would, so the server is offered about 100 answers a second; the p99 budget is judged
 * here. "Saturated": no pause (a closed loop), which shows the most answers a second the server
 * takes; latency there is only queueing (players ÷ throughput). Each player picks a random game it
 * has not played yet among 400 open paid games; every 10th game has only 10 places, so games
 * fill, close and get drawn during the run and later players are told it is full or closed.
 * Afterwards, with the server stopped: the ledger check and no game oversold (player_count ≤
 * maximum_players and equal to its entries).
 */
import { Agent, request } from 'node:http';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { checkLedger } from '../../src/server/modules/wallet/ledger-check.ts';
import { benchGameId, benchUserId, generateWriteDataset, oversoldGames } from '../generate.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { startRealServer } from '../lib/server.ts';
import { percentile, round, sleep } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

const PLAYERS = 100;

interface Phase {
  name: string;
  thinkMs: [number, number] | null;
  latencies: number[];
  /** Latencies of the answers that took a place (201). */
  plays: number[];
  statuses: Map<number, number>;
  ms: number;
}
const GAMES = 400;
const ENTRY_FEE_KOBO = 10_000n;

function post(
  agent: Agent,
  url: string,
  authorization: string,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Answers a player may rightly get in this run: the game filled (409), or it filled, closed and
 * its draw already ran (400 "closed"). Anything else is a broken invariant.
 */
function refusal(response: { status: number; body: string }): boolean {
  if (response.status === 409) return true;
  return response.status === 400 && response.body.includes('closed to new answers');
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
    });
    // Players play far more than the default 5 games a day here; the count is still checked.
    await handle.db.execute(sql`UPDATE settings SET daily_game_limit = 1000000`);
    return Promise.all(
      Array.from({ length: PLAYERS }, (_, index) => token(benchUserId('wr', index))),
    );
  });

  const server = await startRealServer({
    env: slot.env,
    logFile: path.join(options.workDir, 'write-server.log'),
  });
  const seconds = options.quick ? 4 : 15;
  const phases: Phase[] = [
    // Players as people play: a pause of 0.5–1.5 s (reading, typing) between answers, so the
    // 100 players offer about 100 answers a second. The budget is judged here.
    { name: 'paced', thinkMs: [500, 1500], latencies: [], plays: [], statuses: new Map(), ms: 0 },
    // No pause at all: the most answers a second the server takes; latency is then queueing.
    { name: 'saturated', thinkMs: null, latencies: [], plays: [], statuses: new Map(), ms: 0 },
  ];
  const unexpected: string[] = [];
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: PLAYERS });
    const url = `${server.url}/api/v1/game/play`;
    // Warm-up: one answer per player to the same game, which also fills and closes one game.
    const warmGame = benchGameId('wr', 0);
    await Promise.all(
      tokens.map((token) =>
        post(
          agent,
          url,
          `Bearer ${token}`,
          JSON.stringify({ gameID: warmGame, submittedAnswer: 'Warming up' }),
        ),
      ),
    );
    const left = tokens.map(() => Array.from({ length: GAMES - 1 }, (_, index) => index + 1));
    for (const phase of phases) {
      options.log(`write path: ${PLAYERS} players, ${phase.name}, for ${seconds} s`);
      const start = performance.now();
      const deadline = start + seconds * 1000;
      await Promise.all(
        tokens.map(async (token, player) => {
          const authorization = `Bearer ${token}`;
          const games = left[player] as number[];
          while (performance.now() < deadline && games.length > 0) {
            if (phase.thinkMs) {
              const [low, high] = phase.thinkMs;
              await sleep(low + Math.random() * (high - low));
              if (performance.now() >= deadline) break;
            }
            const pick = Math.floor(Math.random() * games.length);
            const game = games[pick] as number;
            games[pick] = games[games.length - 1] as number;
            games.pop();
            const body = JSON.stringify({
              gameID: benchGameId('wr', game),
              submittedAnswer: `Player ${player} says suya at midnight`,
            });
            const sent = performance.now();
            const response = await post(agent, url, authorization, body);
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
    }
    agent.destroy();
  } finally {
    await server.stop();
  }

  const problems: string[] = [];
  for (const text of unexpected) problems.push(`write path: unexpected answer ${text}`);
  const integrity = await withPreparedDatabase(slot, async ({ handle }) => {
    const ledger = await checkLedger(handle.db, { sandbox: false });
    const oversold = await oversoldGames(handle.db);
    const closed = (
      (await handle.db.execute(
        sql`SELECT count(*)::int AS n FROM games WHERE status <> 'ONGOING'`,
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
  const rate = (phase: Phase) => (phase.statuses.get(201) ?? 0) / (phase.ms / 1000);
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
      gamesClosedDuringRun: integrity.closed,
      ledger: integrity.ledger.invariants.map(({ name, ok }) => ({ name, ok })),
      oversold: integrity.oversold,
    },
    problems,
  };
}
