/**
 * PgBouncer on this machine, for `npm run cluster -- --pgbouncer` and the tests that run
 * instances through it: a config made from deploy/pgbouncer.ini (the one compose.yaml mounts),
 * so the pooling is exactly the container one's. Only what differs on one machine changes: a
 * loopback listener on a given port, the local PostgreSQL as the one database, and trust
 * authentication as that PostgreSQL has.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { findSystemBinary } from './system-binary.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 10_000;

/** PgBouncer's binary (`PGBOUNCER` names it); null when none is found. */
export const findPgbouncer = (): string | null => findSystemBinary('pgbouncer', 'PGBOUNCER');

export interface LocalPgbouncer {
  port: number;
  /** PostgreSQL as the instances reach it directly (DATABASE_DIRECT_URL). */
  directUrl: string;
  /** Where the generated files go (config, user list). */
  dir: string;
}

function setting(config: string, key: string, value: string): string {
  const pattern = new RegExp(`^${key} = .*$`, 'm');
  if (!pattern.test(config))
    throw new Error(`deploy/pgbouncer.ini has no "${key} = " line: update scripts/pgbouncer.ts`);
  return config.replace(pattern, `${key} = ${value}`);
}

/** deploy/pgbouncer.ini with the local listener, database and authentication. */
export function localPgbouncerConfig(template: string, local: LocalPgbouncer): string {
  const direct = new URL(local.directUrl);
  const database = decodeURIComponent(direct.pathname.slice(1));
  const databases = /^\[databases\]\n[^\n[]+\n/m;
  if (!databases.test(template))
    throw new Error('deploy/pgbouncer.ini has no [databases] line: update scripts/pgbouncer.ts');
  let config = template.replace(
    databases,
    `[databases]\n${database} = host=${direct.hostname} port=${direct.port || '5432'} dbname=${database}\n`,
  );
  config = setting(config, 'listen_addr', '127.0.0.1');
  config = setting(config, 'listen_port', String(local.port));
  // The local PostgreSQL trusts loopback; PgBouncer still wants the user in its list.
  config = setting(config, 'auth_type', 'trust');
  config = setting(config, 'auth_file', path.join(local.dir, 'pgbouncer-users.txt'));
  // No Unix socket: the system's PgBouncer or PostgreSQL may own the default directory's. The
  // local user may read PgBouncer's own figures (psql … -d pgbouncer -c 'SHOW POOLS').
  const user = decodeURIComponent(direct.username) || 'postgres';
  return `${config}unix_socket_dir =\nadmin_users = ${user}\n`;
}

export interface RunningPgbouncer {
  child: ChildProcess;
  /** DATABASE_URL through PgBouncer: the direct URL's user and database on its port. */
  url: string;
  /** SIGINT: PgBouncer's immediate shutdown; resolves once it has exited. */
  stop: () => Promise<void>;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts PgBouncer (as `postgres` when this runs as root, which it refuses) and resolves once
 * it accepts connections; `onOutput` gets its log lines.
 */
export async function startPgbouncer(
  binary: string,
  local: LocalPgbouncer,
  onOutput: (chunk: string) => void = () => {},
): Promise<RunningPgbouncer> {
  // Else the readiness wait below would take another server on that port for this one.
  if (await answers(local.port))
    throw new Error(
      `port ${local.port} is taken (a system PgBouncer?): choose another (--pgbouncer-port)`,
    );
  const template = await readFile(path.join(ROOT, 'deploy', 'pgbouncer.ini'), 'utf8');
  const configFile = path.join(local.dir, 'pgbouncer.ini');
  await writeFile(configFile, localPgbouncerConfig(template, local), { mode: 0o644 });
  const user = decodeURIComponent(new URL(local.directUrl).username) || 'postgres';
  await writeFile(path.join(local.dir, 'pgbouncer-users.txt'), `"${user}" ""\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const child = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), configFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      onOutput(chunk);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await answers(local.port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not start on port ${local.port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = new URL(local.directUrl);
  url.hostname = '127.0.0.1';
  url.port = String(local.port);
  return {
    child,
    url: url.toString(),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}
