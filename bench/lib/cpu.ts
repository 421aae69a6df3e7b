/** CPU time from /proc (Linux): what a process, or the whole machine, has used so far. */
import { readFile } from 'node:fs/promises';

/** USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every mainstream Linux architecture. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used so far. */
export async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces; fields are counted after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds the whole machine has spent busy (every core, every process) so far. */
export async function machineBusySeconds(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  // cpu  user nice system idle iowait irq softirq steal …: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}
