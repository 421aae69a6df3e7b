/**
 * `npm test`: the whole suite as two Vitest runs side by side, the browser tests in one and
 * everything else in the other.
 *
 * Why two: the browser files spend most of their time waiting on Chromium and their servers.
 * Side by side, they run on workers of their own while the server and web files fill the cores;
 * when they ran one at a time in the same run, Vitest started them only once every other file
 * had finished, which left a core idle for half the run.
 *
 * With arguments (`npm test -- --project server`, a file name) it is one plain `vitest run`.
 * Each run's lines are prefixed with its name; the exit code is the worse of the two.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';

const vitest = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

interface Run {
  name: string;
  args: string[];
}

function start({ name, args }: Run, prefix: boolean): Promise<number> {
  const child = spawn(process.execPath, [vitest, 'run', ...args], {
    stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: process.env,
  });
  if (prefix) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => out.write(`[${name}] ${line}\n`));
    }
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => child.kill(signal));
  }
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const passedOn = process.argv.slice(2);
if (passedOn.length > 0) {
  process.exitCode = await start({ name: 'vitest', args: passedOn }, false);
} else {
  const startedAt = Date.now();
  const runs: Run[] = [
    { name: 'e2e', args: ['--project', 'e2e'] },
    { name: 'unit', args: ['--project', 'shared', '--project', 'server', '--project', 'web'] },
  ];
  const codes = await Promise.all(runs.map((run) => start(run, true)));
  const seconds = Math.round((Date.now() - startedAt) / 1000);
  for (const [index, run] of runs.entries()) {
    console.info(`${run.name}: ${codes[index] === 0 ? 'passed' : 'FAILED'}`);
  }
  console.info(`npm test: ${seconds} s in all`);
  process.exitCode = Math.max(...codes);
}
