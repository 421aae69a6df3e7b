/**
 * `npm run cluster -- --ha`: the cluster of scripts/cluster.ts on a highly available
 * PostgreSQL (scripts/ha-topology.ts): a primary and a synchronous standby made afresh in
 * data/ha/, pgBackRest archiving the WAL, HAProxy routing connections to whichever node is
 * primary, and a watchdog that promotes the standby when the primary dies. The instances'
 * DATABASE_URL is that HAProxy. Ctrl-C or SIGTERM stops everything, the PostgreSQL nodes last.
 *
 * Options: --instances N (2), --port P (8080), --first-port P (3001), --stats-port P (8404),
 * --pg-port P (5433: the primary; the standby takes P + 1, their health agents P + 1000 and
 * P + 1001), --pg-balancer-port P (6432), --no-web-build. data/ha/ stays after a stop (a restore
 * can read its pgBackRest repository) and is made afresh at the next start.
 * `npm run ha-drill` kills the primary under load on a throwaway copy of this topology.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildServer, nodeArgsFor, serverBuildAt } from './build-server.ts';
import { findHaproxy, localHaproxyConfig } from './cluster-config.ts';
import { type HaTopology, removeHaDirectory, STANZA, startHaTopology } from './ha-topology.ts';
import { watchLaunchers } from './launcher-watch.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIR = path.join(ROOT, 'data', 'ha');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (message: string) => console.info(`[cluster --ha] ${message}`);

function portOf(name: string, value: string | undefined): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`--${name} must be a port number, not "${value}"`);
    process.exit(1);
  }
  return port;
}

async function ready(url: string, child: ChildProcess, name: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited before it was ready`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} was not ready within 90 s`);
    await sleep(250);
  }
}

export async function runHaCluster(args: string[]): Promise<never> {
  const { values } = parseArgs({
    args,
    options: {
      ha: { type: 'boolean', default: true },
      instances: { type: 'string', default: '2' },
      port: { type: 'string', default: '8080' },
      'first-port': { type: 'string', default: '3001' },
      'stats-port': { type: 'string', default: '8404' },
      'pg-port': { type: 'string', default: '5433' },
      'pg-balancer-port': { type: 'string', default: '6432' },
      'no-web-build': { type: 'boolean', default: false },
    },
  });
  const instances = Number(values.instances);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
    console.error(`--instances must be a whole number from 1 to 16, not "${values.instances}"`);
    process.exit(1);
  }
  const balancerPort = portOf('port', values.port);
  const statsPort = portOf('stats-port', values['stats-port']);
  const firstPort = portOf('first-port', values['first-port']);
  const pgPort = portOf('pg-port', values['pg-port']);
  const instancePorts = Array.from({ length: instances }, (_, index) => firstPort + index);
  const haproxyBinary = findHaproxy();
  if (!haproxyBinary) {
    console.error('HAProxy is needed (Debian: apt-get install -y haproxy haproxy pgbackrest)');
    process.exit(1);
  }

  const children: ChildProcess[] = [];
  let topology: HaTopology | null = null;
  let stopping = false;
  async function stopAll(code: number): Promise<never> {
    if (stopping) return new Promise<never>(() => {});
    stopping = true;
    say('stopping: HAProxy and the instances, then PostgreSQL…');
    for (const child of children) child.kill('SIGTERM');
    await Promise.race([
      Promise.all(
        children.map((child) =>
          child.exitCode !== null || child.signalCode !== null
            ? null
            : new Promise((resolve) => child.once('exit', resolve)),
        ),
      ),
      sleep(20_000),
    ]);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    // The data stay (the pgBackRest repository above all, for a restore) until the next start.
    await topology?.stop();
    say('all stopped.');
    process.exit(code);
  }
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // npm forwards neither SIGHUP nor its own death: stop with the command that started us.
  watchLaunchers((pid) => {
    say(`the command that started the cluster has gone (pid ${pid})`);
    void stopAll(0);
  });
  process.on('exit', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  try {
    // A failed-over pair cannot simply start again (the old primary must first be rebuilt as a
    // standby), so each run starts from new clusters.
    await removeHaDirectory(DIR);
    topology = await startHaTopology({
      dir: DIR,
      ports: {
        nodes: [pgPort, pgPort + 1],
        agents: [pgPort + 1000, pgPort + 1001],
        balancer: portOf('pg-balancer-port', values['pg-balancer-port']),
        stats: statsPort + 1,
      },
      database: 'pluckers',
      log: say,
      haproxy: haproxyBinary,
      maxConnections: Math.max(100, instances * 22 + 20),
    });
    await topology.backup();
    say(
      `first full pgBackRest backup taken (stanza ${STANZA}, config ${topology.pgbackrestConfig})`,
    );

    if (!values['no-web-build']) {
      const { webBuildState } = await import('./web-build-state.ts');
      if (webBuildState(ROOT) !== 'fresh') {
        say('building the web app…');
        const { buildWeb } = await import('./build-web.ts');
        await buildWeb();
      }
    }

    const serverBuild = path.join(DIR, 'server');
    await buildServer(serverBuild);

    const env = {
      ...process.env,
      HOST: '127.0.0.1',
      DATABASE_URL: topology.url(),
      DATA_DIR: DIR,
      JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('base64url'),
      KYC_HASH_KEY: process.env.KYC_HASH_KEY || randomBytes(48).toString('base64url'),
      PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${balancerPort}`,
      TRUST_PROXY: '1',
    };
    for (const [index, port] of instancePorts.entries()) {
      const name = `app${index + 1}`;
      const child = spawn(process.execPath, nodeArgsFor(serverBuildAt(serverBuild).main), {
        cwd: ROOT,
        env: { ...env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      for (const stream of [child.stdout, child.stderr])
        if (stream)
          createInterface({ input: stream }).on('line', (line) =>
            console.info(`[${name}] ${line}`),
          );
      children.push(child);
    }
    await Promise.all(
      children.map((child, index) =>
        ready(
          `http://127.0.0.1:${instancePorts[index]}/api/health/ready`,
          child,
          `app${index + 1}`,
        ),
      ),
    );
    const haproxyConfig = path.join(DIR, 'haproxy-http.cfg');
    await writeFile(
      haproxyConfig,
      localHaproxyConfig(await readFile(path.join(ROOT, 'deploy', 'haproxy.cfg'), 'utf8'), {
        balancerPort,
        statsPort,
        instancePorts,
      }),
    );
    const balancer = spawn(haproxyBinary, ['-db', '-f', haproxyConfig], {
      stdio: 'ignore',
      detached: true,
    });
    children.push(balancer);
    await ready(`http://127.0.0.1:${balancerPort}/api/health/ready`, balancer, 'HAProxy');
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    return stopAll(1);
  }

  const [primary, standby] = topology.nodes;
  say(
    [
      `ready: http://localhost:${balancerPort} (${instances} instance(s), DATABASE_URL ${topology.url()})`,
      `  PostgreSQL: primary ${primary.name} :${primary.port}, synchronous standby ${standby.name} :${standby.port}, data in ${DIR}`,
      `  failover: automatic when the primary misses 3 checks; PostgreSQL routing http://127.0.0.1:${statsPort + 1}/stats`,
      `  backups: pgbackrest --config=${topology.pgbackrestConfig} --stanza=${STANZA} info (run as postgres)`,
      `  stop: Ctrl-C or kill ${process.pid}`,
    ].join('\n'),
  );
  return new Promise<never>(() => {});
}
