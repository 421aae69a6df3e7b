/**
 * Figure 1, the read path: GET /api/v1/game?gameType=TRENDING with a player's token, 100
 * connections (autocannon), against the real server and against a bare node:http server that
 * replays the real response byte for byte. Both run as child processes of this one, on the same
 * machine, one after the other, alternating rounds.
 */
import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchUserId, generateReadDataset } from '../generate.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { startBareServer, startRealServer } from '../lib/server.ts';
import { mean, round } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

export const READ_PATH = '/api/v1/game?gameType=TRENDING';
const CONNECTIONS = 100;
/** Added by Node itself on every response of either server. */
const PER_CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Captured {
  status: number;
  /** Flat [name, value, name, value…] as the real server sent them. */
  headers: string[];
  body: string;
}

function capture(url: string, authorization: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${READ_PATH}`, { headers: { authorization } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i] ?? '';
          if (PER_CONNECTION_HEADERS.has(name.toLowerCase())) continue;
          if (name.toLowerCase() === 'content-length') continue;
          headers.push(name, response.rawHeaders[i + 1] ?? '');
        }
        resolve({
          status: response.statusCode ?? 0,
          headers,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Round {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(
  url: string,
  authorization: string,
  seconds: number,
  path = READ_PATH,
): Promise<Round> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization },
  });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Waits until a server has answered whatever a finished load run left queued. */
async function drain(url: string, authorization: string): Promise<void> {
  const response = await fetch(`${url}${READ_PATH}`, {
    headers: { authorization },
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
}

export interface ReadServer {
  url: string;
  /** A bearer token of a player of the read dataset. */
  token: string;
}

/**
 * Runs the read-path figure; `thenWhileRunning` gets the still-running real server (the web
 * figures use it for Home, logged in) before it is stopped.
 */
export async function runReadPath(
  target: Target,
  options: RunOptions & { measure: boolean },
  thenWhileRunning?: (server: ReadServer) => Promise<ScenarioResult>,
): Promise<{ read: ScenarioResult | null; after: ScenarioResult | null }> {
  const slot = await target.fresh('read');
  const games = 200;
  const users = 2_000;
  const token = await withPreparedDatabase(slot, async ({ handle, token }) => {
    await generateReadDataset(handle.db, { games, users });
    return token(benchUserId('rd', 1));
  });
  const authorization = `Bearer ${token}`;
  const problems: string[] = [];

  const server = await startRealServer({
    env: slot.env,
    logFile: path.join(options.workDir, 'read-server.log'),
  });
  let after: ScenarioResult | null = null;
  try {
    if (!options.measure) {
      if (thenWhileRunning) after = await thenWhileRunning({ url: server.url, token });
      return { read: null, after };
    }
    const captured = await capture(server.url, authorization);
    const listed = (
      JSON.parse(Buffer.from(captured.body, 'base64').toString('utf8')) as {
        data?: { games?: unknown[] };
      }
    ).data?.games?.length;
    if (captured.status !== 200 || !listed)
      problems.push(`GET ${READ_PATH} answered ${captured.status} with ${listed ?? 0} games`);
    const responseFile = path.join(options.workDir, 'read-response.json');
    await writeFile(responseFile, JSON.stringify(captured));
    const bare = await startBareServer({
      responseFile,
      logFile: path.join(options.workDir, 'bare-server.log'),
    });

    const seconds = options.quick ? 3 : 10;
    const rounds = options.quick ? 1 : 2;
    const real: Round[] = [];
    const physical: Round[] = [];
    let health: Round | null = null;
    try {
      options.log(`read path: warm-up, then ${rounds} × ${seconds} s per server`);
      await load(server.url, authorization, options.quick ? 1 : 3);
      await drain(server.url, authorization);
      await load(bare.url, authorization, 1);
      for (let i = 0; i < rounds; i += 1) {
        real.push(await load(server.url, authorization, seconds));
        await drain(server.url, authorization);
        physical.push(await load(bare.url, authorization, seconds));
      }
      // For scale: the same server answering GET /api/health, one trivial query (SELECT 1) and
      // no token, shows what the framework and one database round trip cost on their own.
      await drain(server.url, authorization);
      health = await load(server.url, authorization, seconds, '/api/health');
    } finally {
      await bare.stop();
    }
    for (const [name, list] of [
      ['real', real],
      ['bare', physical],
    ] as const) {
      const failed = list.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      if (failed > 0) problems.push(`read path (${name}): ${failed} non-2xx answers or errors`);
    }

    const realRps = mean(real.map((r) => r.requestsPerSecond));
    const bareRps = mean(physical.map((r) => r.requestsPerSecond));
    const ratio = realRps / bareRps;
    const worst = (list: Round[], key: 'p50' | 'p99') => Math.max(...list.map((r) => r[key]));
    const figures: Figure[] = [
      {
        section: 'read',
        name: 'GET /game TRENDING, real server',
        value: round(realRps, 0),
        unit: 'req/s',
      },
      {
        section: 'read',
        name: 'same bytes, bare node:http',
        value: round(bareRps, 0),
        unit: 'req/s',
      },
      {
        section: 'read',
        name: 'real ÷ bare',
        value: Number(ratio.toPrecision(2)),
        unit: '×',
        budget: '≥ 0.5',
        pass: ratio >= 0.5,
      },
      {
        section: 'read',
        name: 'same server, GET /api/health (SELECT 1)',
        value: health ? round(health.requestsPerSecond, 0) : null,
        unit: 'req/s',
        note: 'framework + one trivial query, for scale',
      },
      { section: 'read', name: 'real server p50', value: worst(real, 'p50'), unit: 'ms' },
      { section: 'read', name: 'real server p99', value: worst(real, 'p99'), unit: 'ms' },
      { section: 'read', name: 'bare server p50', value: worst(physical, 'p50'), unit: 'ms' },
      { section: 'read', name: 'bare server p99', value: worst(physical, 'p99'), unit: 'ms' },
    ];

    if (thenWhileRunning) after = await thenWhileRunning({ url: server.url, token });
    return {
      read: {
        figures,
        details: {
          connections: CONNECTIONS,
          secondsPerRound: seconds,
          dataset: { games, users },
          responseBytes: Buffer.from(captured.body, 'base64').length,
          real,
          bare: physical,
          health,
        },
        problems,
      },
      after,
    };
  } finally {
    await server.stop();
  }
}
