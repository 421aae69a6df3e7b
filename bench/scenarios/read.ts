/**
 * Figure 1, the read path: GET /api/v1/game?gameType=TRENDING with a player's token, 100
 * connections (autocannon), against the real server and against a bare node:http server that
 * replays the real response byte for byte. Both run as child processes of this one, on the same
 * machine, one after the other, alternating rounds.
 */
import { writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { lagosDayStart } from '../../src/shared/date.ts';
import { benchUserId, generateReadDataset, idlePlayerId } from '../generate.ts';
import { processCpuSeconds } from '../lib/cpu.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { type Child, startBareServer, startRealServer } from '../lib/server.ts';
import { mean, round } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

export const READ_PATH = '/api/v1/game?gameType=TRENDING';
export const CONNECTIONS = 100;
/** Budgets of docs/decisions.md#budgets: throughput and tail against the bare server's. */
const THROUGHPUT_BUDGET = 0.9;
const P99_BUDGET = 1.5;
/** Added by Node itself on every response of either server. */
const PER_CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Captured {
  status: number;
  /** Flat [name, value, name, value…] as the real server sent them. */
  headers: string[];
  body: string;
}

type Headers = Record<string, string>;

function capture(url: string, headers: Headers): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${READ_PATH}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const sent: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i] ?? '';
          if (PER_CONNECTION_HEADERS.has(name.toLowerCase())) continue;
          if (name.toLowerCase() === 'content-length') continue;
          sent.push(name, response.rawHeaders[i + 1] ?? '');
        }
        resolve({
          status: response.statusCode ?? 0,
          headers: sent,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface Round {
  requestsPerSecond: number;
  /** Answers received, any status: what the servers' CPU time is divided by. */
  responses: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(
  url: string,
  headers: Headers,
  seconds: number,
  path = READ_PATH,
  /** Requests per second across all connections; unset, as fast as the server answers. */
  overallRate?: number,
): Promise<Round> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers,
    ...(overallRate ? { overallRate } : {}),
  });
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    responses: result['2xx'] + result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Waits until a server has answered whatever a finished load run left queued. */
export async function drain(url: string, headers: Headers): Promise<void> {
  const response = await fetch(`${url}${READ_PATH}`, {
    headers,
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
}

export interface ReadServer {
  url: string;
  /** A bearer token of a player of the read dataset. */
  token: string;
  /** A bearer token of a player who has not played today, so a play is not refused for the day. */
  idlePlayerToken: string;
}

/** What a browser on a phone sends: it takes the list gzipped (Chrome also offers br, zstd). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

interface Comparison {
  real: Round[];
  bare: Round[];
  /** Each server's own CPU (user + system, /proc) per answer over its rounds, microseconds. */
  realCpuMicros: number;
  bareCpuMicros: number;
  /** The machine's 1-minute load average before each pair of rounds (other sessions' work). */
  loadAverages: number[];
  /** Size of the body on the wire, and how it was encoded. */
  bytes: number;
  encoding: string | null;
}

function sentHeader(captured: Captured, name: string): string | undefined {
  const at = captured.headers.findIndex((value, i) => i % 2 === 0 && value.toLowerCase() === name);
  return at < 0 ? undefined : captured.headers[at + 1];
}

function gamesListed(captured: Captured): number | undefined {
  const sent = Buffer.from(captured.body, 'base64');
  const encoding = sentHeader(captured, 'content-encoding')?.toLowerCase();
  const json =
    encoding === 'gzip' ? gunzipSync(sent) : encoding === 'br' ? brotliDecompressSync(sent) : sent;
  return (JSON.parse(json.toString('utf8')) as { data?: { games?: unknown[] } }).data?.games
    ?.length;
}

/**
 * Loads the real server and a bare server replaying its exact answer to `headers`, alternating
 * rounds so both see the same machine conditions.
 */
/** One load round with the server's CPU time over it. */
async function measuredRound(
  server: Child,
  headers: Headers,
  seconds: number,
): Promise<Round & { cpuSeconds: number }> {
  const pid = server.process.pid ?? 0;
  const before = await processCpuSeconds(pid);
  const result = await load(server.url, headers, seconds);
  return { ...result, cpuSeconds: (await processCpuSeconds(pid)) - before };
}

const cpuMicrosPerAnswer = (rounds: Array<Round & { cpuSeconds: number }>) =>
  round(
    (rounds.reduce((sum, r) => sum + r.cpuSeconds, 0) * 1e6) /
      rounds.reduce((sum, r) => sum + r.responses, 0),
    1,
  );

async function compareWithBare(
  server: Child,
  headers: Headers,
  label: string,
  options: RunOptions,
  problems: string[],
): Promise<Comparison> {
  const serverUrl = server.url;
  const captured = await capture(serverUrl, headers);
  const listed = gamesListed(captured);
  if (captured.status !== 200 || !listed)
    problems.push(
      `GET ${READ_PATH} (${label}) answered ${captured.status} with ${listed ?? 0} games`,
    );
  const responseFile = path.join(options.workDir, `read-response-${label}.json`);
  await writeFile(responseFile, JSON.stringify(captured));
  const bare = await startBareServer({
    responseFile,
    logFile: path.join(options.workDir, `bare-server-${label}.log`),
  });
  const seconds = options.quick ? 3 : 10;
  const rounds = options.quick ? 1 : 2;
  const real: Array<Round & { cpuSeconds: number }> = [];
  const physical: Array<Round & { cpuSeconds: number }> = [];
  const loadAverages: number[] = [];
  try {
    options.log(`read path (${label}): warm-up, then ${rounds} × ${seconds} s per server`);
    await load(serverUrl, headers, options.quick ? 1 : 3);
    await drain(serverUrl, headers);
    await load(bare.url, headers, 1);
    for (let i = 0; i < rounds; i += 1) {
      loadAverages.push(round(os.loadavg()[0] ?? 0, 2));
      real.push(await measuredRound(server, headers, seconds));
      await drain(serverUrl, headers);
      physical.push(await measuredRound(bare, headers, seconds));
    }
  } finally {
    await bare.stop();
  }
  for (const [name, list] of [
    ['real', real],
    ['bare', physical],
  ] as const) {
    const failed = list.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    if (failed > 0)
      problems.push(`read path (${label}, ${name}): ${failed} non-2xx answers or errors`);
  }
  const encoding = sentHeader(captured, 'content-encoding');
  return {
    real,
    bare: physical,
    realCpuMicros: cpuMicrosPerAnswer(real),
    bareCpuMicros: cpuMicrosPerAnswer(physical),
    loadAverages,
    bytes: Buffer.from(captured.body, 'base64').length,
    encoding: encoding ?? null,
  };
}

const worst = (list: Round[], key: 'p50' | 'p99') => Math.max(...list.map((r) => r[key]));

function ratioFigures(comparison: Comparison, label: string): Figure[] {
  const realRps = mean(comparison.real.map((r) => r.requestsPerSecond));
  const bareRps = mean(comparison.bare.map((r) => r.requestsPerSecond));
  const ratio = realRps / bareRps;
  return [
    {
      section: 'read',
      name: `GET /game TRENDING${label}, real server`,
      value: round(realRps, 0),
      unit: 'req/s',
    },
    {
      section: 'read',
      name: `same bytes${label}, bare node:http`,
      value: round(bareRps, 0),
      unit: 'req/s',
    },
    {
      section: 'read',
      name: `real ÷ bare${label}`,
      value: Number(ratio.toPrecision(2)),
      unit: '×',
      budget: `≥ ${THROUGHPUT_BUDGET}`,
      pass: ratio >= THROUGHPUT_BUDGET,
      note: `load average ${comparison.loadAverages.join(', ')} before the rounds`,
    },
    {
      section: 'read',
      name: `real p99 ÷ bare p99${label}`,
      value: Number((worst(comparison.real, 'p99') / worst(comparison.bare, 'p99')).toPrecision(2)),
      unit: '×',
      budget: `≤ ${P99_BUDGET}`,
      pass: worst(comparison.real, 'p99') <= P99_BUDGET * worst(comparison.bare, 'p99'),
      note: `${worst(comparison.real, 'p99')} ms against ${worst(comparison.bare, 'p99')} ms`,
    },
    {
      section: 'read',
      name: `server CPU per request${label}, real / bare`,
      value: null,
      unit: 'µs',
      display: `${comparison.realCpuMicros} / ${comparison.bareCpuMicros} µs`,
      note: 'each server process’s own CPU (/proc) ÷ its answers: what the load of other sessions moves least',
    },
  ];
}

/**
 * Runs the read-path figure; `thenWhileRunning` gets the still-running real server (the web
 * figures use it for Home, logged in) before it is stopped.
 */
export async function runReadPath(
  target: Target,
  options: RunOptions & { measure: boolean },
  thenWhileRunning?: (server: ReadServer) => Promise<void>,
): Promise<{ read: ScenarioResult | null }> {
  const slot = await target.fresh('read');
  const games = 200;
  const users = 2_000;
  const { token, idlePlayerToken } = await withPreparedDatabase(slot, async ({ handle, token }) => {
    await generateReadDataset(handle.db, { games, users });
    const idlePlayer = await idlePlayerId(handle.db, 'rd', lagosDayStart(new Date()));
    return { token: await token(benchUserId('rd', 1)), idlePlayerToken: await token(idlePlayer) };
  });
  const plainHeaders = { authorization: `Bearer ${token}` };
  const browserHeaders = { ...plainHeaders, 'accept-encoding': BROWSER_ACCEPT_ENCODING };
  const problems: string[] = [];

  const server = await startRealServer({
    env: slot.env,
    logFile: path.join(options.workDir, 'read-server.log'),
  });
  try {
    if (!options.measure) {
      await thenWhileRunning?.({ url: server.url, token, idlePlayerToken });
      return { read: null };
    }
    const plain = await compareWithBare(server, plainHeaders, 'plain', options, problems);
    const browser = await compareWithBare(server, browserHeaders, 'browser', options, problems);
    if (browser.encoding !== 'gzip')
      problems.push(
        `read path: a browser's request was answered ${browser.encoding ?? 'uncompressed'}, not gzip`,
      );
    // For scale: the same server answering GET /api/health, one trivial query (SELECT 1) and
    // no token, shows what the framework and one database round trip cost on their own.
    await drain(server.url, plainHeaders);
    const health = await load(server.url, plainHeaders, options.quick ? 3 : 10, '/api/health');

    const figures: Figure[] = [
      ...ratioFigures(plain, ''),
      ...ratioFigures(browser, ' as a browser asks (gzip)'),
      {
        section: 'read',
        name: 'same server, GET /api/health (SELECT 1)',
        value: round(health.requestsPerSecond, 0),
        unit: 'req/s',
        note: 'framework + one trivial query, for scale',
      },
      { section: 'read', name: 'real server p50', value: worst(plain.real, 'p50'), unit: 'ms' },
      { section: 'read', name: 'real server p99', value: worst(plain.real, 'p99'), unit: 'ms' },
      { section: 'read', name: 'bare server p50', value: worst(plain.bare, 'p50'), unit: 'ms' },
      { section: 'read', name: 'bare server p99', value: worst(plain.bare, 'p99'), unit: 'ms' },
      {
        section: 'read',
        name: 'real server p99, gzip',
        value: worst(browser.real, 'p99'),
        unit: 'ms',
      },
      { section: 'read', name: 'response body', value: plain.bytes, unit: 'B' },
      { section: 'read', name: 'response body, gzip', value: browser.bytes, unit: 'B' },
    ];

    await thenWhileRunning?.({ url: server.url, token, idlePlayerToken });
    return {
      read: {
        figures,
        details: {
          connections: CONNECTIONS,
          dataset: { games, users },
          plain,
          browser,
          health,
        },
        problems,
      },
    };
  } finally {
    await server.stop();
  }
}
