/**
 * `npm run cluster -- --instances 3`: the topology of compose.yaml without containers. N server
 * processes on consecutive ports (3001, 3002, …) share one local PostgreSQL database and sit
 * behind HAProxy (config generated from deploy/haproxy.cfg) on http://localhost:8080.
 *
 * Ctrl-C or SIGTERM stops everything: HAProxy first, then every instance drains and exits.
 * SIGHUP builds the server again and restarts the instances one at a time (a rolling restart
 * through graceful shutdown).
 * When the command that started it goes away (npm killed by a SIGHUP it cannot forward, a closed
 * terminal), it stops everything as for SIGTERM.
 *
 * Options: --instances N (3), --port P (8080, the balancer), --first-port P (3001),
 * --stats-port P (8404), --no-web-build; --pgbouncer puts PgBouncer (transaction pooling,
 * deploy/pgbouncer.ini) on --pgbouncer-port P (6432) between the instances' query pools and
 * PostgreSQL, which they then reach directly only for LISTEN, the migration lock and the
 * readiness probe (DATABASE_DIRECT_URL); --ha runs scripts/ha-cluster.ts instead (PostgreSQL
 * primary and synchronous standby with failover). DATABASE_URL defaults to
 * postgres://postgres@127.0.0.1:5432/pluckers_cluster (created when missing); HAPROXY and
 * PGBOUNCER name the binaries when they are not on the PATH.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildServer, nodeArgsFor, serverBuildAt } from './build-server.ts';
import { findHaproxy, localHaproxyConfig } from './cluster-config.ts';
import { watchLaunchers } from './launcher-watch.ts';
import { findPgbouncer, type RunningPgbouncer, startPgbouncer } from './pgbouncer.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA_DIR = path.join(ROOT, 'data', 'cluster');
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/pluckers_cluster';
const READY_TIMEOUT_MS = 90_000;
/** SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS of the instances, with room to spare. */
const STOP_TIMEOUT_MS = 20_000;

const say = (message: string) => console.info(`[cluster] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fail(message: string): never {
  console.error(`[cluster] ${message}`);
  process.exit(1);
}

if (process.argv.includes('--ha')) {
  // A primary, a synchronous standby and failover in front of the instances: its own module.
  const { runHaCluster } = await import('./ha-cluster.ts');
  await runHaCluster(process.argv.slice(2));
}

const { values: options } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    'first-port': { type: 'string', default: '3001' },
    'stats-port': { type: 'string', default: '8404' },
    'no-web-build': { type: 'boolean', default: false },
    pgbouncer: { type: 'boolean', default: false },
    'pgbouncer-port': { type: 'string', default: '6432' },
  },
});

function portOption(name: 'port' | 'first-port' | 'stats-port' | 'pgbouncer-port'): number {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    fail(`--${name} must be a port number, not "${options[name]}"`);
  return value;
}

const instances = Number(options.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 16)
  fail(`--instances must be a whole number from 1 to 16, not "${options.instances}"`);
const balancerPort = portOption('port');
const statsPort = portOption('stats-port');
const firstPort = portOption('first-port');
const instancePorts = Array.from({ length: instances }, (_, index) => firstPort + index);
const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const pgbouncerPort = options.pgbouncer ? portOption('pgbouncer-port') : null;

function haproxyOrFail(): string {
  const found = findHaproxy();
  if (found) return found;
  fail(
    [
      'HAProxy is not installed (or not found), and the cluster needs it as its load balancer.',
      '  Debian/Ubuntu: sudo apt-get install -y haproxy',
      '  macOS:         brew install haproxy',
      '  or point HAPROXY at the binary: HAPROXY=/path/to/haproxy npm run cluster',
      'Without HAProxy, run several servers by hand with PORT=3001, 3002 … and the same',
      'DATABASE_URL, JWT_SECRET and KYC_HASH_KEY, or use compose.yaml (docs/deploying.md).',
    ].join('\n'),
  );
}

/** Creates the cluster's database on first use, so one command is enough. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name))
    fail(
      `DATABASE_URL names the database "${name}": create it yourself, or use letters, digits, _`,
    );
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  try {
    await client.connect();
  } catch (error) {
    fail(
      `PostgreSQL does not answer at ${target.host} (${error instanceof Error ? error.message : error}). Start it, or set DATABASE_URL.`,
    );
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`);
      say(`created the database ${name}`);
    }
  } finally {
    await client.end();
  }
}

/**
 * One secret for every instance (a token signed by one must verify on the others; a BVN must
 * hash alike on all), from the environment or generated once into the cluster's DATA_DIR.
 */
async function sharedSecret(name: 'JWT_SECRET' | 'KYC_HASH_KEY'): Promise<string> {
  const configured = process.env[name];
  if (configured) return configured;
  const file = path.join(DATA_DIR, name.toLowerCase().replaceAll('_', '-'));
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}

function prefixed(child: ChildProcess, name: string): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => console.info(`[${name}] ${line}`));
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function readyAt(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      .then((response) => response.status === 200)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} was not ready within 90 s`);
    await sleep(250);
  }
}

function pgbouncerOrFail(): string {
  const found = findPgbouncer();
  if (found) return found;
  fail(
    [
      'PgBouncer is not installed (or not found), and --pgbouncer needs it.',
      '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y pgbouncer',
      '  macOS:         brew install pgbouncer',
      '  or point PGBOUNCER at the binary: PGBOUNCER=/path/to/pgbouncer npm run cluster -- --pgbouncer',
    ].join('\n'),
  );
}

const haproxyBinary = haproxyOrFail();
const pgbouncerBinary = pgbouncerPort === null ? null : pgbouncerOrFail();
await mkdir(DATA_DIR, { recursive: true });
await ensureDatabase(databaseUrl);

if (!options['no-web-build']) {
  const { webBuildState } = await import('./web-build-state.ts');
  const state = webBuildState(ROOT);
  if (state !== 'fresh') {
    say(state === 'missing' ? 'building the web app…' : 'web sources changed, rebuilding…');
    const { buildWeb } = await import('./build-web.ts');
    await buildWeb();
  }
}

// The instances run the server built as `npm start` builds it; a rolling restart builds it again.
const serverBuild = path.join(DATA_DIR, 'server');
await buildServer(serverBuild);

const haproxyConfig = path.join(DATA_DIR, 'haproxy.cfg');
await writeFile(
  haproxyConfig,
  localHaproxyConfig(await readFile(path.join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8'), {
    balancerPort,
    statsPort,
    instancePorts,
  }),
);
const check = spawnSync(haproxyBinary, ['-c', '-q', '-f', haproxyConfig], { encoding: 'utf8' });
if (check.status !== 0)
  fail(`HAProxy refused the generated ${haproxyConfig}:\n${check.stderr}${check.stdout}`);

// Started before the instances and stopped after them: their queries all go through it.
let pgbouncer: RunningPgbouncer | null = null;
if (pgbouncerBinary && pgbouncerPort !== null) {
  try {
    pgbouncer = await startPgbouncer(
      pgbouncerBinary,
      { port: pgbouncerPort, directUrl: databaseUrl, dir: DATA_DIR },
      (chunk) => {
        for (const line of chunk.trimEnd().split('\n')) console.info(`[pgbouncer] ${line}`);
      },
    );
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

const instanceEnv = {
  ...process.env,
  HOST: '127.0.0.1',
  ...(pgbouncer
    ? { DATABASE_URL: pgbouncer.url, DATABASE_DIRECT_URL: databaseUrl }
    : { DATABASE_URL: databaseUrl }),
  // Only the generated shared secrets and old disk photos live there; the rest is in PostgreSQL.
  DATA_DIR,
  JWT_SECRET: await sharedSecret('JWT_SECRET'),
  KYC_HASH_KEY: await sharedSecret('KYC_HASH_KEY'),
  PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${balancerPort}`,
  // HAProxy on loopback is the one hop in front; its X-Forwarded-For names the client.
  TRUST_PROXY: '1',
};

let stopping = false;
const servers = new Map<string, ChildProcess>();
/** Instances stopped on purpose (rolling restart), whose exit is no news. */
const retired = new WeakSet<ChildProcess>();
let haproxy: ChildProcess | null = null;

function startInstance(index: number): ChildProcess {
  const name = `app${index + 1}`;
  // Own process group: Ctrl-C reaches this script only, which stops everything in order.
  const child = spawn(process.execPath, nodeArgsFor(serverBuildAt(serverBuild).main), {
    cwd: ROOT,
    env: {
      ...instanceEnv,
      PORT: String(instancePorts[index]),
      // One metrics listener per instance: METRICS_PORT, METRICS_PORT + 1, …
      ...(process.env.METRICS_PORT
        ? { METRICS_PORT: String(Number(process.env.METRICS_PORT) + index) }
        : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  prefixed(child, name);
  servers.set(name, child);
  child.once('exit', (code, signal) => {
    if (stopping || retired.has(child)) return;
    say(
      `${name} exited (${code ?? signal}); HAProxy has taken it out, the others keep serving. SIGHUP restarts the instances.`,
    );
  });
  return child;
}

async function stopAll(exitCode: number): Promise<never> {
  if (stopping) return new Promise<never>(() => {});
  stopping = true;
  say('stopping: HAProxy first, then every instance drains and exits…');
  const running = [...servers.values(), ...(haproxy ? [haproxy] : [])].filter(
    (child) => child.exitCode === null && child.signalCode === null,
  );
  // SIGUSR1: HAProxy's soft stop (it finishes the requests it is relaying).
  haproxy?.kill('SIGUSR1');
  for (const child of servers.values()) child.kill('SIGTERM');
  const all = Promise.all(running.map(exited));
  const inTime = await Promise.race([all.then(() => true), sleep(STOP_TIMEOUT_MS)]);
  if (!inTime) {
    say('some processes did not stop in time; killing them');
    for (const child of running) child.kill('SIGKILL');
    await all;
  }
  // Last: the draining instances' final queries went through it.
  await pgbouncer?.stop();
  say('all stopped.');
  process.exit(exitCode);
}

/** Each instance in turn: SIGTERM, wait for its graceful exit, start it again, wait until ready. */
let restarting = false;
async function rollingRestart(): Promise<void> {
  if (restarting || stopping) return;
  restarting = true;
  try {
    say('building the server…');
    await buildServer(serverBuild);
    for (let index = 0; index < instances; index += 1) {
      const name = `app${index + 1}`;
      const old = servers.get(name);
      if (old) {
        say(`restarting ${name} (pid ${old.pid})…`);
        retired.add(old);
        old.kill('SIGTERM');
        await exited(old);
      }
      if (stopping) return;
      const fresh = startInstance(index);
      await readyAt(`http://127.0.0.1:${instancePorts[index]}/api/health/ready`, fresh, name);
      say(`${name} is back (pid ${fresh.pid})`);
    }
    say('rolling restart done');
  } catch (error) {
    say(`rolling restart failed: ${error instanceof Error ? error.message : error}`);
  } finally {
    restarting = false;
  }
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
process.on('SIGHUP', () => void rollingRestart());
watchLaunchers((pid) => {
  say(`the command that started the cluster has gone (pid ${pid})`);
  void stopAll(0);
});
// Last resort if this script dies on an error: leave nothing running.
process.on('exit', () => {
  for (const child of [
    ...servers.values(),
    ...(haproxy ? [haproxy] : []),
    ...(pgbouncer ? [pgbouncer.child] : []),
  ])
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

if (pgbouncer)
  pgbouncer.child.once('exit', (code, signal) => {
    if (stopping) return;
    say(`PgBouncer exited (${code ?? signal}); stopping the cluster`);
    void stopAll(1);
  });
say(
  `starting ${instances} instance(s) on ports ${instancePorts.join(', ')} (${pgbouncer ? `queries through PgBouncer ${pgbouncer.url}, sessions on ${databaseUrl}` : databaseUrl})`,
);
const first = instancePorts.map((_, index) => startInstance(index));
try {
  await Promise.all(
    first.map((child, index) =>
      readyAt(
        `http://127.0.0.1:${instancePorts[index]}/api/health/ready`,
        child,
        `app${index + 1}`,
      ),
    ),
  );
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  await stopAll(1);
}

haproxy = spawn(haproxyBinary, ['-db', '-f', haproxyConfig], {
  cwd: DATA_DIR,
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
prefixed(haproxy, 'haproxy');
const balancer = haproxy;
balancer.once('exit', (code, signal) => {
  if (stopping) return;
  say(`HAProxy exited (${code ?? signal}); stopping the cluster`);
  void stopAll(1);
});
try {
  await readyAt(`http://127.0.0.1:${balancerPort}/api/health/ready`, balancer, 'HAProxy');
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  await stopAll(1);
}

say(
  [
    `ready: http://localhost:${balancerPort} (round robin over ${instances} instance(s))`,
    `  instances: ${[...servers.entries()].map(([name, child]) => `${name} pid ${child.pid} :${instancePorts[Number(name.slice(3)) - 1]}`).join(', ')}`,
    `  HAProxy pid ${balancer.pid}; per-instance counts: http://127.0.0.1:${statsPort}/stats (CSV: /stats;csv)`,
    ...(pgbouncer
      ? [
          `  PgBouncer pid ${pgbouncer.child.pid} on 127.0.0.1:${pgbouncerPort} (transaction pooling, config ${path.join(DATA_DIR, 'pgbouncer.ini')})`,
        ]
      : []),
    `  rolling restart: kill -HUP ${process.pid}; stop: Ctrl-C or kill ${process.pid}`,
  ].join('\n'),
);
