import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { TEST_JWT_SECRET, TEST_KYC_HASH_KEY } from '../src/server/test/app.ts';
import { freePort } from '../src/server/test/instances.ts';
import { createScratchDatabase } from '../src/server/test/scratch-database.ts';
import { findHaproxy } from './cluster-config.ts';

// `npm run cluster` as an operator runs it: npm → sh → tsx → scripts/cluster.ts, which starts
// the servers and HAProxy. However npm ends, nothing it started may be left running.
const root = fileURLToPath(new URL('..', import.meta.url));

async function portIsFree(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Two consecutive free ports, for the instances. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65535 && (await portIsFree(port + 1))) return port;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface RunningCluster {
  npm: ChildProcess;
  /** The servers, HAProxy and the script itself, as its ready message names them. */
  started: number[];
  output: () => string;
  balancerUrl: string;
  instanceUrl: string;
}

async function startCluster(
  databaseUrl: string,
  extraArgs: string[] = [],
): Promise<RunningCluster> {
  const haproxy = findHaproxy();
  if (!haproxy)
    throw new Error('npm run cluster needs HAProxy: apt-get install -y haproxy (or set HAPROXY)');
  const firstPort = await freePortPair();
  const balancerPort = await freePort();
  const args = [
    'run',
    'cluster',
    '--',
    '--instances',
    '2',
    '--first-port',
    String(firstPort),
    '--port',
    String(balancerPort),
    '--stats-port',
    String(await freePort()),
    '--no-web-build',
    ...extraArgs,
  ];
  // A process group of its own, as an interactive shell gives the command it runs.
  const npm = spawn('npm', args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HAPROXY: haproxy,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET: TEST_JWT_SECRET,
      KYC_HASH_KEY: TEST_KYC_HASH_KEY,
      SEED_DEMO: 'false',
      JOB_POLL_MS: '0',
      LOG_LEVEL: 'warn',
      ...inject('beaconEnv'),
    },
  });
  let output = '';
  for (const stream of [npm.stdout, npm.stderr])
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
  const deadline = Date.now() + 90_000;
  while (!/rolling restart: kill -HUP \d+/.test(output)) {
    if (npm.exitCode !== null || Date.now() > deadline) {
      if (npm.pid) process.kill(-npm.pid, 'SIGKILL');
      throw new Error(`npm run cluster did not get ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const started = [
    ...[...output.matchAll(/app\d+ pid (\d+)/g)].map((match) => Number(match[1])),
    Number(output.match(/HAProxy pid (\d+)/)?.[1]),
    ...[...output.matchAll(/PgBouncer pid (\d+)/g)].map((match) => Number(match[1])),
    Number(output.match(/kill -HUP (\d+)/)?.[1]),
  ];
  return {
    npm,
    started,
    output: () => output,
    balancerUrl: `http://127.0.0.1:${balancerPort}`,
    instanceUrl: `http://127.0.0.1:${firstPort}`,
  };
}

describe('npm run cluster', () => {
  for (const signal of ['SIGHUP', 'SIGTERM'] as const)
    it(`leaves nothing running when npm gets ${signal}`, async () => {
      const cluster = await startCluster(await createScratchDatabase('cluster_signal'));
      try {
        expect(cluster.started).toHaveLength(4);
        for (const pid of cluster.started) expect(alive(pid)).toBe(true);
        // Clients are told HAProxy's idle timeout, shorter than the instance's they would
        // otherwise see (scripts/haproxy-timeouts.test.ts).
        const hint = async (url: string) => {
          const response = await fetch(`${url}/api/health/live`);
          await response.arrayBuffer();
          return Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);
        };
        const [throughBalancer, direct] = await Promise.all([
          hint(cluster.balancerUrl),
          hint(cluster.instanceUrl),
        ]);
        expect(throughBalancer).toBeGreaterThan(0);
        expect(throughBalancer).toBeLessThan(direct);

        cluster.npm.kill(signal);
        const deadline = Date.now() + 25_000;
        while (cluster.started.some(alive) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 200));
        expect(cluster.started.filter(alive), cluster.output()).toEqual([]);
        expect(cluster.output()).toContain('[cluster] all stopped.');
      } finally {
        for (const pid of cluster.started.filter(alive)) process.kill(pid, 'SIGKILL');
      }
    }, 150_000);

  it('with --pgbouncer, runs the instances through PgBouncer and stops it with them', async () => {
    const databaseUrl = await createScratchDatabase('cluster_pgbouncer');
    const cluster = await startCluster(databaseUrl, [
      '--pgbouncer',
      '--pgbouncer-port',
      String(await freePort()),
    ]);
    try {
      // Two servers, HAProxy, PgBouncer and the script itself.
      expect(cluster.started).toHaveLength(5);
      expect(cluster.output()).toMatch(
        /queries through PgBouncer postgres:\/\/[^ ]+, sessions on /,
      );
      for (const url of [cluster.balancerUrl, cluster.instanceUrl]) {
        const response = await fetch(`${url}/api/v1/category`);
        expect(response.status, await response.text()).toBe(200);
      }
      cluster.npm.kill('SIGTERM');
      const deadline = Date.now() + 25_000;
      while (cluster.started.some(alive) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));
      expect(cluster.started.filter(alive), cluster.output()).toEqual([]);
      expect(cluster.output()).toContain('[cluster] all stopped.');
    } finally {
      for (const pid of cluster.started.filter(alive)) process.kill(pid, 'SIGKILL');
    }
  }, 150_000);
});
