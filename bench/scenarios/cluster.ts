/**
 * Figure 7, scale-out: the read path of figure 1 (GET /api/v1/game?gameType=TRENDING, a
 * player's token, 100 connections) through HAProxy, first to 1 server instance, then to 3, all on
 * the bench's PostgreSQL database. HAProxy runs the config `npm run cluster` generates from
 * deploy/haproxy.cfg, so it balances, checks and logs as a deployment does.
 *
 * The load generator (this process) and HAProxy run on the lower half of the cores, the
 * instances on the upper half (lib/cores.ts), so on two cores one instance has a core to itself
 * and three share it. Requests per second cannot grow with instances on a machine of a few cores;
 * CPU time per request, measured per process from /proc, is what lets the figures be carried to
 * a bigger machine on paper.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findHaproxy, localHaproxyConfig } from '../../scripts/cluster-config.ts';
import { benchUserId, generateReadDataset } from '../generate.ts';
import { type CoreSplit, splitCores } from '../lib/cores.ts';
import { machineBusySeconds, processCpuSeconds } from '../lib/cpu.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { type Child, freePort, ROOT, startRealServer, stopChild } from '../lib/server.ts';
import { mean, round, since, sleep } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';
import { CONNECTIONS, drain, load, READ_PATH, type Round } from './read.ts';

const INSTANCE_COUNTS = [1, 3] as const;
const BALANCER_READY_TIMEOUT_MS = 30_000;
/** How long the instances are left without traffic, HAProxy checking them, to measure what they spend on their own. */
const IDLE_SECONDS = 5;

type Headers = Record<string, string>;

interface CpuSnapshot {
  instances: number[];
  haproxy: number;
  /** This process, where autocannon generates the load. */
  generatorMicros: number;
  machine: number;
}

async function snapshot(instances: Child[], haproxy: ChildProcess): Promise<CpuSnapshot> {
  const pids = instances.map((instance) => instance.process.pid ?? 0);
  const [cpu, haproxyCpu, machine] = await Promise.all([
    Promise.all(pids.map(processCpuSeconds)),
    processCpuSeconds(haproxy.pid ?? 0),
    machineBusySeconds(),
  ]);
  const own = process.cpuUsage();
  return { instances: cpu, haproxy: haproxyCpu, generatorMicros: own.user + own.system, machine };
}

interface Measured {
  instances: number;
  rounds: Round[];
  seconds: number;
  /** CPU seconds used during the rounds. */
  cpu: { perInstance: number[]; haproxy: number; generator: number; rest: number };
  /** Answers per instance as HAProxy counted them (its statistics, over warm-up and rounds). */
  served: Record<string, number>;
  /**
   * Milliseconds of CPU per second each instance spent with no traffic, HAProxy checking it:
   * the background work every instance pays whatever its share of the answers.
   */
  idleMsPerSecond: number[];
}

/** HAProxy's statistics CSV, one object per line keyed by the header's column names. */
async function haproxyStats(statsUrl: string): Promise<Array<Record<string, string>>> {
  const response = await fetch(`${statsUrl}/stats;csv`, { signal: AbortSignal.timeout(2_000) });
  const [header = '', ...lines] = (await response.text()).trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(columns.map((name, index) => [name, cells[index] ?? '']));
  });
}

const instanceRows = (rows: Array<Record<string, string>>) =>
  rows.filter((row) => row.pxname === 'pluckers' && /^app\d+$/.test(row.svname ?? ''));

/**
 * Starts HAProxy in the foreground on the generated config and waits until its checks have
 * put every instance in service, so no round measures a partly empty backend.
 */
async function startBalancer(
  haproxyBinary: string,
  instances: Child[],
  options: RunOptions,
): Promise<{ url: string; statsUrl: string; process: ChildProcess }> {
  const [balancerPort, statsPort] = [await freePort(), await freePort()];
  const config = path.join(options.workDir, `haproxy-${instances.length}.cfg`);
  await writeFile(
    config,
    localHaproxyConfig(await readFile(path.join(ROOT, 'deploy/haproxy.cfg'), 'utf8'), {
      balancerPort,
      statsPort,
      instancePorts: instances.map((instance) => Number(new URL(instance.url).port)),
    }),
  );
  const log = path.join(options.workDir, `haproxy-${instances.length}.log`);
  const logFd = openSync(log, 'a');
  const child = spawn(haproxyBinary, ['-db', '-f', config], {
    cwd: options.workDir,
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const statsUrl = `http://127.0.0.1:${statsPort}`;
  const start = performance.now();
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`HAProxy exited (${child.exitCode ?? child.signalCode}); see ${log}`);
      const up = await haproxyStats(statsUrl).then(
        (rows) => instanceRows(rows).filter((row) => row.status === 'UP').length,
        () => 0,
      );
      if (up === instances.length) break;
      if (since(start) > BALANCER_READY_TIMEOUT_MS)
        throw new Error(
          `HAProxy had ${up} of ${instances.length} instances up after ${BALANCER_READY_TIMEOUT_MS} ms; see ${log}`,
        );
      await sleep(100);
    }
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { url: `http://127.0.0.1:${balancerPort}`, statsUrl, process: child };
}

/** Starts `count` more instances at once; stops the ones that did start if any fails. */
async function addInstances(
  running: Child[],
  count: number,
  env: Record<string, string>,
  options: RunOptions,
): Promise<void> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, index) =>
      startRealServer({
        env,
        logFile: path.join(options.workDir, `cluster-app${running.length + index + 1}.log`),
      }),
    ),
  );
  for (const result of started) if (result.status === 'fulfilled') running.push(result.value);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

async function measure(
  haproxyBinary: string,
  instances: Child[],
  headers: Headers,
  options: RunOptions,
): Promise<Measured> {
  const balancer = await startBalancer(haproxyBinary, instances, options);
  const seconds = options.quick ? 3 : 10;
  const roundCount = options.quick ? 1 : 2;
  try {
    options.log(
      `cluster: ${instances.length} instance(s) behind HAProxy, warm-up, then ${roundCount} × ${seconds} s`,
    );
    // JIT, the list cache and HAProxy's server connections warm up outside the measured rounds;
    // longer with more instances, so each new one gets about the warm-up a lone one gets.
    await load(balancer.url, headers, (options.quick ? 1 : 3) * instances.length);
    await drain(balancer.url, headers);
    const idleSeconds = options.quick ? 1 : IDLE_SECONDS;
    const idleBefore = await Promise.all(
      instances.map((i) => processCpuSeconds(i.process.pid ?? 0)),
    );
    await sleep(idleSeconds * 1000);
    const idleAfter = await Promise.all(
      instances.map((i) => processCpuSeconds(i.process.pid ?? 0)),
    );
    const idleMsPerSecond = idleAfter.map((cpu, index) =>
      round(((cpu - (idleBefore[index] ?? 0)) * 1000) / idleSeconds, 1),
    );
    const rounds: Round[] = [];
    const used = { perInstance: instances.map(() => 0), haproxy: 0, generator: 0, rest: 0 };
    for (let i = 0; i < roundCount; i += 1) {
      const before = await snapshot(instances, balancer.process);
      rounds.push(await load(balancer.url, headers, seconds));
      const after = await snapshot(instances, balancer.process);
      await drain(balancer.url, headers);
      const perInstance = after.instances.map((cpu, index) => cpu - (before.instances[index] ?? 0));
      const ours =
        perInstance.reduce((sum, cpu) => sum + cpu, 0) +
        (after.haproxy - before.haproxy) +
        (after.generatorMicros - before.generatorMicros) / 1e6;
      used.perInstance = used.perInstance.map((sum, index) => sum + (perInstance[index] ?? 0));
      used.haproxy += after.haproxy - before.haproxy;
      used.generator += (after.generatorMicros - before.generatorMicros) / 1e6;
      used.rest += after.machine - before.machine - ours;
    }
    const served = Object.fromEntries(
      instanceRows(await haproxyStats(balancer.statsUrl)).map((row) => [
        row.svname ?? '',
        Number(row.stot),
      ]),
    );
    return {
      instances: instances.length,
      rounds,
      seconds: seconds * roundCount,
      cpu: used,
      served,
      idleMsPerSecond,
    };
  } finally {
    await stopChild(balancer.process);
  }
}

/**
 * The read path straight to one instance, no balancer: what the clustered path is held to. With
 * `rate`, held to that many requests per second instead of as many as it answers.
 */
async function measureDirect(
  instance: Child,
  headers: Headers,
  options: RunOptions,
  rate?: number,
): Promise<{ rounds: Round[]; cpu: number }> {
  const seconds = options.quick ? 3 : 10;
  const roundCount = options.quick ? 1 : 2;
  options.log(
    `cluster: 1 instance direct${rate ? ` at ${rate} req/s` : ''}, warm-up, then ${roundCount} × ${seconds} s`,
  );
  await load(instance.url, headers, options.quick ? 1 : 3);
  await drain(instance.url, headers);
  const rounds: Round[] = [];
  let cpu = 0;
  for (let i = 0; i < roundCount; i += 1) {
    const before = await processCpuSeconds(instance.process.pid ?? 0);
    rounds.push(await load(instance.url, headers, seconds, READ_PATH, rate));
    cpu += (await processCpuSeconds(instance.process.pid ?? 0)) - before;
    await drain(instance.url, headers);
  }
  return { rounds, cpu };
}

/** The instances' CPU per answer behind the balancer may be this many times a lone instance's. */
const CLUSTER_CPU_BUDGET = 1.2;

/** Microseconds of CPU per answer. */
const perRequest = (cpuSeconds: number, rounds: Round[]) =>
  round((cpuSeconds * 1e6) / rounds.reduce((sum, r) => sum + r.responses, 0), 0);

function figuresOf(result: Measured): Figure[] {
  const label = result.instances === 1 ? '1 instance' : `${result.instances} instances`;
  const serverCpu = result.cpu.perInstance.reduce((sum, cpu) => sum + cpu, 0);
  const restCores = result.cpu.rest / result.seconds;
  return [
    {
      section: 'cluster',
      name: `GET /game TRENDING via HAProxy, ${label}`,
      value: round(mean(result.rounds.map((r) => r.requestsPerSecond)), 0),
      unit: 'req/s',
      note: `rest of the machine busy ${round(restCores, 2)} cores meanwhile`,
    },
    {
      section: 'cluster',
      name: `${label}: p50 / p99`,
      value: null,
      unit: 'ms',
      display: `${Math.max(...result.rounds.map((r) => r.p50))} ms / ${Math.max(...result.rounds.map((r) => r.p99))} ms`,
    },
    {
      section: 'cluster',
      name: `${label}: server CPU per request`,
      value: perRequest(serverCpu, result.rounds),
      unit: 'µs',
      note:
        result.instances > 1
          ? `split ${result.cpu.perInstance.map((cpu) => `${Math.round((cpu / serverCpu) * 100)}%`).join(' / ')}`
          : undefined,
    },
    {
      section: 'cluster',
      name: `${label}: CPU of an instance with no traffic`,
      value: round(mean(result.idleMsPerSecond), 1),
      unit: 'ms/s',
      note: `between warm-up and rounds, HAProxy checking; each instance pays it: ${round((mean(result.idleMsPerSecond) * result.instances * 1000) / mean(result.rounds.map((r) => r.requestsPerSecond)), 1)} µs of each answer at this rate`,
    },
    {
      section: 'cluster',
      name: `${label}: HAProxy CPU per request`,
      value: perRequest(result.cpu.haproxy, result.rounds),
      unit: 'µs',
      note: 'deploy/haproxy.cfg as is',
    },
    {
      section: 'cluster',
      name: `${label}: load generator CPU per request`,
      value: perRequest(result.cpu.generator, result.rounds),
      unit: 'µs',
      note: 'autocannon, beside HAProxy; not part of a deployment',
    },
  ];
}

function skipped(reason: string): ScenarioResult {
  return {
    figures: [
      {
        section: 'cluster',
        name: 'read path via HAProxy, 1 vs 3 instances',
        value: null,
        unit: '',
        display: 'skipped',
        note: reason,
      },
    ],
    details: { skipped: reason },
    problems: [],
  };
}

export async function runClusterFigures(
  target: Target,
  options: RunOptions,
): Promise<ScenarioResult> {
  if (target.kind !== 'postgres') return skipped('needs PostgreSQL (DATABASE_URL)');
  const haproxyBinary = findHaproxy();
  if (!haproxyBinary)
    return skipped('HAProxy not installed (apt-get install haproxy, or HAPROXY=)');
  try {
    await access('/proc/self/stat');
  } catch {
    return skipped('CPU per request is read from /proc (Linux)');
  }

  const slot = await target.fresh('cluster');
  const token = await withPreparedDatabase(slot, async ({ handle, token }) => {
    await generateReadDataset(handle.db, { games: 200, users: 2_000 });
    return token(benchUserId('rd', 1));
  });
  const headers = { authorization: `Bearer ${token}` };
  const env = {
    ...slot.env,
    // HAProxy is the one hop in front, as in a deployment.
    TRUST_PROXY: '1',
    JOB_POLL_MS: '0',
    // Nothing is in flight when the bench stops an instance (HAProxy is stopped first).
    SHUTDOWN_DELAY_MS: '0',
  };
  const problems: string[] = [];
  const results: Measured[] = [];
  const instances: Child[] = [];
  let direct: { rounds: Round[]; cpu: number } | null = null;
  let directAtShare: { rounds: Round[]; cpu: number } | null = null;
  let cores: CoreSplit | null = null;
  try {
    cores = await splitCores();
    for (const count of INSTANCE_COUNTS) {
      await addInstances(instances, count - instances.length, env, options);
      for (const instance of instances) await cores?.pinInstance(instance.process.pid ?? 0);
      if (count === 1 && instances[0]) direct = await measureDirect(instances[0], headers, options);
      const result = await measure(haproxyBinary, instances, headers, options);
      results.push(result);
      // An instance’s CPU per answer can grow as its rate falls (fewer answers share each wake-up
      // of its event loop), so a lone instance is also measured at what each of the three got.
      if (count > 1 && instances[0]) {
        const share = mean(result.rounds.map((r) => r.requestsPerSecond)) / count;
        directAtShare = await measureDirect(instances[0], headers, options, Math.round(share));
      }
      const failed = result.rounds.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      if (failed > 0)
        problems.push(
          `cluster (${count} instances): ${failed} non-2xx answers or errors on ${READ_PATH}`,
        );
      for (const [name, served] of Object.entries(result.served))
        if (served === 0) problems.push(`cluster (${count} instances): ${name} served nothing`);
    }
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
    await cores?.release();
  }

  const [one, three] = results;
  const scaling =
    one && three
      ? mean(three.rounds.map((r) => r.requestsPerSecond)) /
        mean(one.rounds.map((r) => r.requestsPerSecond))
      : Number.NaN;
  const directFigures: Figure[] = [];
  if (direct) {
    const directCpu = perRequest(direct.cpu, direct.rounds);
    directFigures.push({
      section: 'cluster',
      name: 'GET /game TRENDING straight to 1 instance',
      value: round(mean(direct.rounds.map((r) => r.requestsPerSecond)), 0),
      unit: 'req/s',
      note: `server CPU per request ${directCpu} µs`,
    });
    if (three) {
      const clustered = perRequest(
        three.cpu.perInstance.reduce((sum, cpu) => sum + cpu, 0),
        three.rounds,
      );
      directFigures.push({
        section: 'cluster',
        name: '3 instances via HAProxy ÷ 1 direct, server CPU per request',
        value: Number((clustered / directCpu).toPrecision(2)),
        unit: '×',
        budget: `≤ ${CLUSTER_CPU_BUDGET}`,
        pass: clustered <= CLUSTER_CPU_BUDGET * directCpu,
        note: `the instances’ ${clustered} µs against the lone instance’s ${directCpu} µs; HAProxy’s own is below`,
      });
      if (directAtShare) {
        const shareRate = round(mean(directAtShare.rounds.map((r) => r.requestsPerSecond)), 0);
        const shareCpu = perRequest(directAtShare.cpu, directAtShare.rounds);
        directFigures.push(
          {
            section: 'cluster',
            name: 'straight to 1 instance at one of 3 instances’ rate',
            value: shareRate,
            unit: 'req/s',
            note: `server CPU per request ${shareCpu} µs`,
          },
          {
            section: 'cluster',
            name: '3 instances via HAProxy ÷ 1 direct at the same rate each, server CPU per request',
            value: Number((clustered / shareCpu).toPrecision(2)),
            unit: '×',
            note: `the instances’ ${clustered} µs against ${shareCpu} µs for a lone instance answering ${shareRate} req/s`,
          },
        );
      }
    }
  }
  return {
    figures: [
      {
        section: 'cluster',
        name: 'cores: load generator and HAProxy / instances',
        value: null,
        unit: '',
        display: cores ? `${cores.load} / ${cores.instances}` : 'shared',
        note: cores ? 'taskset' : 'taskset not found or one core: every process on every core',
      },
      ...directFigures,
      ...results.flatMap(figuresOf),
      {
        section: 'cluster',
        name: '3 instances ÷ 1 instance, req/s',
        value: Number(scaling.toPrecision(2)),
        unit: '×',
        note: 'bounded by this machine’s cores; see CPU per request',
      },
    ],
    details: {
      connections: CONNECTIONS,
      cores: cores ? { load: cores.load, instances: cores.instances } : 'shared',
      dataset: { games: 200, users: 2_000 },
      direct,
      directAtShare,
      results,
    },
    problems,
  };
}
