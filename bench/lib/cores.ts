/**
 * Keeps the load off the server instances' cores while the scale-out figures are measured: this
 * process (the load generator) and the balancer it starts on the lower half of the cores, the
 * instances on the upper half, with util-linux's `taskset`. Sharing every core, an instance's CPU
 * per answer moved by a factor of two between runs minutes apart, as the generator and the
 * balancer took turns with it on the same caches (bench/RESULTS.md, Scale-out).
 */
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { findSystemBinary } from '../../scripts/system-binary.ts';

const run = promisify(execFile);

export interface CoreSplit {
  /** The cores of this process and what it starts, and those of the instances, as taskset lists. */
  load: string;
  instances: string;
  /** Moves every thread of an instance onto the instances' cores. */
  pinInstance(pid: number): Promise<void>;
  /** Gives this process every core again. */
  release(): Promise<void>;
}

const coreList = (first: number, last: number) =>
  first === last ? `${first}` : `${first}-${last}`;

/**
 * Pins this process to the load's cores and returns the split; null (nothing pinned) without
 * taskset or with a single core.
 */
export async function splitCores(): Promise<CoreSplit | null> {
  const taskset = findSystemBinary('taskset', 'TASKSET');
  const count = cpus().length;
  if (!taskset || count < 2) return null;
  const loadCores = Math.floor(count / 2);
  const load = coreList(0, loadCores - 1);
  const instances = coreList(loadCores, count - 1);
  const pin = async (pid: number, list: string) => {
    await run(taskset, ['--all-tasks', '--pid', '--cpu-list', list, String(pid)]);
  };
  await pin(process.pid, load);
  return {
    load,
    instances,
    pinInstance: (pid) => pin(pid, instances),
    release: () => pin(process.pid, coreList(0, count - 1)),
  };
}
