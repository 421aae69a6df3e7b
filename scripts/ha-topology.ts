/**
 * PostgreSQL with a synchronous standby, on this machine, from Debian's packages: two clusters
 * made here with initdb (never the system service), streaming replication with
 * `synchronous_commit = on`, WAL archived by pgBackRest into a local repository, and HAProxy
 * (TCP) in front, whose health check asks a small agent per node whether that node is the
 * primary. A watchdog promotes the standby when the primary stops answering; from then on the
 * agents send every new connection to the promoted node, and never back to the old one.
 *
 * Used by `npm run cluster -- --ha` (scripts/ha-cluster.ts) and the drill (scripts/ha-drill.ts).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { appendFile, chmod, chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
export const STANZA = 'pluckers';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The watchdog's pace: a primary that misses this many checks in a row is declared dead. */
const WATCH_EVERY_MS = 500;
const MISSES_BEFORE_FAILOVER = 3;
const CHECK_TIMEOUT_MS = 1_000;
/** Either node, whichever is the standby, must confirm a commit before it is acknowledged. */
const SYNC_NAMES = 'FIRST 1 (pg1, pg2)';

export interface HaPorts {
  /** PostgreSQL of each node. */
  nodes: [number, number];
  /** Each node's health agent (HAProxy's check port). */
  agents: [number, number];
  /** Where the instances connect: HAProxy in TCP mode. */
  balancer: number;
  /** HAProxy's statistics page for the PostgreSQL backends. */
  stats: number;
}

export interface HaOptions {
  /** Holds both data directories, the pgBackRest repository, sockets and logs. */
  dir: string;
  ports: HaPorts;
  /** The database the app uses (created on the primary). */
  database: string;
  log: (message: string) => void;
  haproxy: string;
  /** max_connections of each node: instances × (pool + 2) plus room for operators. */
  maxConnections?: number;
}

export interface PgNode {
  name: 'pg1' | 'pg2';
  port: number;
  agentPort: number;
  dataDir: string;
}

export interface Failover {
  /** The watchdog's first missed check of the old primary. */
  firstMissAt: number;
  /** The old primary declared dead, promotion requested. */
  detectedAt: number;
  /** The standby accepts writes and the agents route to it. */
  promotedAt: number;
  from: string;
  to: string;
}

export interface HaTopology {
  nodes: [PgNode, PgNode];
  leader(): PgNode;
  /** postgres:// through HAProxy: what every instance's DATABASE_URL should be. */
  url(database?: string): string;
  /** postgres:// straight to one node, bypassing HAProxy. */
  nodeUrl(node: PgNode, database?: string): string;
  failovers: Failover[];
  /** The postmaster's pid and every process it started (backends, walsender, archiver…). */
  processesOf(node: PgNode): Promise<number[]>;
  /** pgBackRest, as the postgres user, with this topology's config. */
  pgbackrest(args: string[]): Promise<string>;
  /** A full pgBackRest backup of the current primary. */
  backup(): Promise<void>;
  /** Forces the current WAL segment into the archive and waits until pgBackRest has it. */
  archiveNow(): Promise<string>;
  pgbackrestConfig: string;
  stop(): Promise<void>;
}

/** Runs a PostgreSQL or pgBackRest tool as the postgres user: clusters must not run as root. */
export async function asPostgres(command: string, args: string[]): Promise<string> {
  const root = process.getuid?.() === 0;
  const { stdout } = await run(
    root ? 'runuser' : command,
    root ? ['-u', 'postgres', '--', command, ...args] : args,
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return stdout;
}

export async function ownedByPostgres(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  if (process.getuid?.() !== 0) return;
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  await chown(directory, Number(stdout.trim()), Number(group.trim()));
  await chmod(directory, 0o700);
}

async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<T[]> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs * 2,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

function nodeSettings(options: HaOptions, node: PgNode, config: string): string {
  return [
    '',
    `# ---- ${node.name} (scripts/ha-topology.ts) ----`,
    `port = ${node.port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${path.join(options.dir, 'run')}'`,
    `cluster_name = '${node.name}'`,
    `max_connections = ${options.maxConnections ?? 200}`,
    'wal_level = replica',
    'max_wal_senders = 10',
    'wal_keep_size = 512MB',
    'hot_standby = on',
    // pg_rewind can turn an old primary into a standby of the new one only with hints logged.
    'wal_log_hints = on',
    // A commit is acknowledged once the standby has it on disk: a lost primary loses none.
    'synchronous_commit = on',
    'archive_mode = on',
    `archive_command = 'pgbackrest --config=${config} --stanza=${STANZA} --pg1-path=${node.dataDir} archive-push %p'`,
    // Bounds what a loss of both nodes costs on a quiet system: a partly filled segment is
    // archived after this long.
    'archive_timeout = 60s',
    `logging_collector = off`,
    '',
  ].join('\n');
}

function haproxyConfig(options: HaOptions, nodes: [PgNode, PgNode]): string {
  return [
    '# Generated by scripts/ha-topology.ts: PostgreSQL clients reach whichever node is primary.',
    'global',
    '    maxconn 2000',
    'defaults',
    '    mode tcp',
    '    timeout connect 2s',
    // Pooled and LISTEN connections sit idle for long stretches; keepalives find dead peers.
    '    timeout client 1h',
    '    timeout server 1h',
    '    timeout check 1s',
    '    option clitcpka',
    '    option srvtcpka',
    'listen postgres',
    `    bind 127.0.0.1:${options.ports.balancer}`,
    // The agent on the check port answers 200 only for the node that is the primary now.
    '    option httpchk',
    '    http-check send meth GET uri /primary',
    '    http-check expect status 200',
    // Sessions still open to a node marked down are cut, so no client keeps writing to it.
    '    default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
    ...nodes.map(
      (node) => `    server ${node.name} 127.0.0.1:${node.port} check port ${node.agentPort}`,
    ),
    'listen stats',
    '    mode http',
    `    bind 127.0.0.1:${options.ports.stats}`,
    '    stats enable',
    '    stats uri /stats',
    '',
  ].join('\n');
}

async function postmasterPid(node: PgNode): Promise<number | null> {
  try {
    const first = (await readFile(path.join(node.dataDir, 'postmaster.pid'), 'utf8')).split(
      '\n',
    )[0];
    const pid = Number(first);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({
    stdout: '',
  }));
  return stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((value) => Number.isInteger(value) && value > 0);
}

export async function startHaTopology(options: HaOptions): Promise<HaTopology> {
  const { dir, ports, log } = options;
  const nodes: [PgNode, PgNode] = [
    {
      name: 'pg1',
      port: ports.nodes[0],
      agentPort: ports.agents[0],
      dataDir: path.join(dir, 'pg1'),
    },
    {
      name: 'pg2',
      port: ports.nodes[1],
      agentPort: ports.agents[1],
      dataDir: path.join(dir, 'pg2'),
    },
  ];
  let leader: PgNode = nodes[0];
  const failovers: Failover[] = [];
  const repo = path.join(dir, 'pgbackrest');
  const pgbackrestConfig = path.join(repo, 'pgbackrest.conf');
  const nodeUrl = (node: PgNode, database = options.database) =>
    `postgres://postgres@127.0.0.1:${node.port}/${database}`;
  const url = (database = options.database) =>
    `postgres://postgres@127.0.0.1:${ports.balancer}/${database}`;

  let haproxy: ChildProcess | null = null;
  const agents: http.Server[] = [];
  let watchdog: NodeJS.Timeout | null = null;
  let stopped = false;

  const pgbackrest = (args: string[]) =>
    asPostgres('pgbackrest', [`--config=${pgbackrestConfig}`, `--stanza=${STANZA}`, ...args]);

  async function pgCtl(node: PgNode, args: string[]): Promise<string> {
    return asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', node.dataDir, ...args]);
  }

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    if (watchdog) clearInterval(watchdog);
    if (haproxy && haproxy.exitCode === null && haproxy.signalCode === null) {
      const gone = new Promise((resolve) => haproxy?.once('exit', resolve));
      haproxy.kill('SIGTERM');
      await Promise.race([gone, sleep(3_000)]);
    }
    await Promise.all(agents.map((agent) => new Promise((resolve) => agent.close(resolve))));
    for (const node of nodes) {
      if ((await postmasterPid(node)) === null) continue;
      await pgCtl(node, ['-m', 'fast', '-w', '-t', '30', 'stop']).catch(async () => {
        await pgCtl(node, ['-m', 'immediate', '-w', 'stop']).catch(() => {});
      });
    }
  }

  try {
    await ownedByPostgres(dir);
    for (const sub of [
      'run',
      'logs',
      'pgbackrest',
      'pgbackrest/repo',
      'pgbackrest/log',
      'pgbackrest/lock',
      'pgbackrest/spool',
    ])
      await ownedByPostgres(path.join(dir, sub));

    await writeFile(
      pgbackrestConfig,
      [
        '[global]',
        `repo1-path=${path.join(repo, 'repo')}`,
        'repo1-retention-full=2',
        `log-path=${path.join(repo, 'log')}`,
        `lock-path=${path.join(repo, 'lock')}`,
        `spool-path=${path.join(repo, 'spool')}`,
        'log-level-console=warn',
        'log-level-file=info',
        'start-fast=y',
        'compress-type=lz4',
        '',
        `[${STANZA}]`,
        `pg1-path=${nodes[0].dataDir}`,
        `pg1-port=${nodes[0].port}`,
        `pg1-socket-path=${path.join(dir, 'run')}`,
        '',
      ].join('\n'),
    );
    await chmod(pgbackrestConfig, 0o644);

    // The primary: a fresh cluster (trust on loopback, replication included, as initdb writes it).
    const [primary, standby] = nodes;
    log(`initdb ${primary.dataDir}`);
    await asPostgres(path.join(PG_BIN, 'initdb'), [
      '-D',
      primary.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ]);
    await appendFile(
      `${primary.dataDir}/postgresql.conf`,
      nodeSettings(options, primary, pgbackrestConfig),
    );
    await pgCtl(primary, ['-l', path.join(dir, 'logs', 'pg1.log'), '-w', '-t', '60', 'start']);
    await query(nodeUrl(primary, 'postgres'), `CREATE DATABASE "${options.database}"`, 10_000);
    await pgbackrest(['stanza-create']);
    log(
      `primary pg1 on :${primary.port}; pgBackRest stanza "${STANZA}" in ${path.join(repo, 'repo')}`,
    );

    // The standby: a base backup streamed from the primary, started in recovery (-R).
    await asPostgres(path.join(PG_BIN, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      standby.dataDir,
      '-X',
      'stream',
      '-R',
      '--checkpoint=fast',
    ]);
    await appendFile(
      `${standby.dataDir}/postgresql.conf`,
      nodeSettings(options, standby, pgbackrestConfig),
    );
    await pgCtl(standby, ['-l', path.join(dir, 'logs', 'pg2.log'), '-w', '-t', '60', 'start']);
    // Only now: with no standby connected, every commit on the primary would wait for one.
    await query(
      nodeUrl(primary, 'postgres'),
      `ALTER SYSTEM SET synchronous_standby_names = '${SYNC_NAMES}'`,
    );
    await query(nodeUrl(primary, 'postgres'), 'SELECT pg_reload_conf()');
    for (let attempt = 0; ; attempt += 1) {
      const rows = await query<{ sync_state: string }>(
        nodeUrl(primary, 'postgres'),
        `SELECT sync_state FROM pg_stat_replication WHERE application_name = '${standby.name}'`,
      );
      if (rows[0]?.sync_state === 'sync') break;
      if (attempt > 120) throw new Error('the standby did not become synchronous within 60 s');
      await sleep(500);
    }
    log(`standby pg2 on :${standby.port}, streaming, synchronous`);

    // One agent per node: 200 only for the node that is the leader and out of recovery.
    for (const node of nodes) {
      const agent = http.createServer((_request, response) => {
        const answer = (status: number, body: string) => response.writeHead(status).end(body);
        if (node !== leader) return answer(503, 'not the leader');
        query<{ recovery: boolean }>(
          nodeUrl(node, 'postgres'),
          'SELECT pg_is_in_recovery() AS recovery',
        ).then(
          (rows) =>
            rows[0]?.recovery === false ? answer(200, 'primary') : answer(503, 'in recovery'),
          () => answer(503, 'unreachable'),
        );
      });
      await new Promise<void>((resolve) => agent.listen(node.agentPort, '127.0.0.1', resolve));
      agents.push(agent);
    }

    const haproxyFile = path.join(dir, 'haproxy-postgres.cfg');
    await writeFile(haproxyFile, haproxyConfig(options, nodes));
    await run(options.haproxy, ['-c', '-q', '-f', haproxyFile]);
    haproxy = spawn(options.haproxy, ['-db', '-f', haproxyFile], {
      stdio: 'ignore',
      detached: true,
    });
    for (let attempt = 0; ; attempt += 1) {
      const ok = await query(url('postgres'), 'SELECT 1').then(
        () => true,
        () => false,
      );
      if (ok) break;
      if (attempt > 40) throw new Error('HAProxy did not route to the primary within 20 s');
      await sleep(500);
    }
    log(
      `HAProxy for PostgreSQL on 127.0.0.1:${ports.balancer} (stats http://127.0.0.1:${ports.stats}/stats)`,
    );
  } catch (error) {
    await stop();
    throw error;
  }

  async function promote(from: PgNode, to: PgNode, firstMissAt: number, detectedAt: number) {
    log(`${from.name} missed ${MISSES_BEFORE_FAILOVER} checks: promoting ${to.name}`);
    await query(nodeUrl(to, 'postgres'), 'SELECT pg_promote(true, 30)', 35_000);
    // No standby is left to confirm commits: waiting for one would stop every write.
    await query(nodeUrl(to, 'postgres'), `ALTER SYSTEM SET synchronous_standby_names = ''`);
    await query(nodeUrl(to, 'postgres'), 'SELECT pg_reload_conf()');
    leader = to;
    const promotedAt = Date.now();
    failovers.push({ firstMissAt, detectedAt, promotedAt, from: from.name, to: to.name });
    log(
      `${to.name} is the primary (promoted ${promotedAt - detectedAt} ms after detection); ${from.name} is fenced off`,
    );
  }

  let misses = 0;
  let firstMissAt = 0;
  let promoting = false;
  watchdog = setInterval(() => {
    if (promoting || stopped) return;
    const current = leader;
    const other = nodes[0] === current ? nodes[1] : nodes[0];
    query(nodeUrl(current, 'postgres'), 'SELECT 1').then(
      () => {
        misses = 0;
      },
      async () => {
        if (promoting || leader !== current) return;
        if (misses === 0) firstMissAt = Date.now();
        misses += 1;
        if (misses < MISSES_BEFORE_FAILOVER) return;
        const standbyUp = await query<{ recovery: boolean }>(
          nodeUrl(other, 'postgres'),
          'SELECT pg_is_in_recovery() AS recovery',
        ).then(
          (rows) => rows[0]?.recovery === true,
          () => false,
        );
        if (!standbyUp) {
          log(`${current.name} is down and no standby is ready to take over`);
          return;
        }
        promoting = true;
        promote(current, other, firstMissAt, Date.now())
          .catch((error: unknown) =>
            log(`promotion failed: ${error instanceof Error ? error.message : error}`),
          )
          .finally(() => {
            promoting = false;
            misses = 0;
          });
      },
    );
  }, WATCH_EVERY_MS);
  watchdog.unref();

  return {
    nodes,
    leader: () => leader,
    url,
    nodeUrl,
    failovers,
    async processesOf(node) {
      const pid = await postmasterPid(node);
      return pid === null ? [] : [pid, ...(await childrenOf(pid))];
    },
    pgbackrest,
    async backup() {
      const current = leader;
      await pgbackrest([
        `--pg1-path=${current.dataDir}`,
        `--pg1-port=${current.port}`,
        '--type=full',
        'backup',
      ]);
    },
    async archiveNow() {
      const [row] = await query<{ segment: string }>(
        nodeUrl(leader, 'postgres'),
        'SELECT pg_walfile_name(pg_switch_wal()) AS segment',
      );
      const segment = row?.segment ?? '';
      for (let attempt = 0; attempt < 120; attempt += 1) {
        const [archived] = await query<{ last: string | null }>(
          nodeUrl(leader, 'postgres'),
          'SELECT last_archived_wal AS last FROM pg_stat_archiver',
        );
        if (archived?.last && archived.last >= segment) return segment;
        await sleep(250);
      }
      throw new Error(`WAL segment ${segment} was not archived within 30 s`);
    },
    pgbackrestConfig,
    stop,
  };
}

/** Removes a topology's directory (data of both nodes and the repository). */
export async function removeHaDirectory(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
