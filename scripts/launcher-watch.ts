/**
 * Whether the command that started this script is still there. `npm run cluster` runs this
 * script under npm → sh → tsx: npm forwards only SIGINT and SIGTERM, and a SIGHUP kills npm
 * outright, leaving sh, tsx and this script (with every server it started) running as orphans.
 * Watching the launching processes lets the script stop with its command however that ends.
 */
import { readFileSync } from 'node:fs';

interface ProcessInfo {
  /** Z: exited, not yet reaped by its parent. */
  state: string;
  parent: number;
  group: number;
}

/** Linux's /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; null where there is no /proc. */
function processInfo(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields follow the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', parent: Number(fields[1]), group: Number(fields[2]) };
  } catch {
    return null;
  }
}

/**
 * The processes this one was launched through: its parent and each ancestor in the same process
 * group, up to the group's leader (npm, which an interactive shell makes a group of its own). A
 * shell or terminal above that group is not part of the command, so a cluster started in the
 * background (`nohup npm run cluster &`) outlives the shell that started it.
 */
export function launchers(pid = process.pid): number[] {
  const own = processInfo(pid);
  if (!own) return [process.ppid];
  const chain: number[] = [];
  let current = own.parent;
  while (current > 1) {
    const info = processInfo(current);
    if (!info || info.group !== own.group) break;
    chain.push(current);
    if (current === own.group) break;
    current = info.parent;
  }
  return chain.length > 0 ? chain : [own.parent];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return processInfo(pid)?.state !== 'Z';
  } catch (error) {
    // EPERM: there, but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Calls `onGone` once, with the pid that went away, when any launcher exits (or this process is
 * handed to another parent). Checked twice a second; the timer never keeps the process alive.
 */
export function watchLaunchers(onGone: (pid: number) => void, intervalMs = 500): () => void {
  const watched = launchers();
  const parent = process.ppid;
  const timer = setInterval(() => {
    const gone = process.ppid !== parent ? parent : watched.find((launcher) => !alive(launcher));
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
