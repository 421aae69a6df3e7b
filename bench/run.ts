/**
 * `npm run bench` — measures Pluckers against the budgets of docs/decisions.md#budgets and against the physical
 * limit (a bare node:http server sending the same bytes), all in one run:
 *   1. read path   2. write path   3. draw   4. leaderboard   5. web   6. start-up
 *   7. scale-out: the read path through HAProxy to 1 and to 3 instances (PostgreSQL only)
 *   8. draw1m: a 1,000,000-entry draw, time and RSS growth (only when asked for: --only=draw1m)
 *   9. headers: Lighthouse through proxies that drop one security header each, or the service
 *      worker, throttled and not (only when asked for: --only=headers)
 * Runs on PostgreSQL when DATABASE_URL is set (in a database of its own, `pluckers_bench` or the
 * name in BENCH_DATABASE, created and dropped on that server), else on embedded PGlite in
 * temporary directories. BENCH_DATABASE lets two benches share one server without dropping each
 * other's database.
 *
 *   npm run bench                    full run; writes bench/results/latest.json and bench/RESULTS.md
 *   npm run bench -- --quick         smoke run (smaller data, short loads, no Lighthouse): CI-sized
 *   npm run bench -- --only=read,web only these sections (RESULTS.md is left alone)
 *   npm run bench -- --only=draw1m   the million-entry draw (minutes of data generation)
 *   npm run bench -- --strict        full run exits 1 when a figure misses its budget
 *   npm run bench -- --keep-db       leave pluckers_bench on the server afterwards
 *
 * Timings are reported, never asserted: the exit code is 1 only for broken invariants (ledger
 * check, an oversold game, wrong answers) or, with --strict, a missed budget.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Figure, RunOptions, ScenarioResult } from './lib/figures.ts';
import { ROOT } from './lib/server.ts';
import { round } from './lib/stats.ts';
import { pgliteTarget, postgresTarget, type Target } from './lib/target.ts';
import { runClusterFigures } from './scenarios/cluster.ts';
import { runDrawFigure } from './scenarios/draw.ts';
import { runMillionDrawFigure } from './scenarios/draw1m.ts';
import { runLeaderboardFigure } from './scenarios/leaderboard.ts';
import { runReadPath } from './scenarios/read.ts';
import { runStartupFigure } from './scenarios/startup.ts';
import { ensureBuilt, runWebFigures } from './scenarios/web.ts';
import { runHeaderStudy } from './scenarios/web-headers.ts';
import { runWritePath } from './scenarios/write.ts';

const SECTIONS = [
  'read',
  'web',
  'write',
  'draw',
  'leaderboard',
  'startup',
  'cluster',
  'draw1m',
  'headers',
] as const;
type Section = (typeof SECTIONS)[number];
/** Run only when named in --only: minutes of data generation for one figure. */
const ON_REQUEST: readonly Section[] = ['draw1m', 'headers'];
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const RESULTS_MD = path.join(ROOT, 'bench/RESULTS.md');
const START_MARK = '<!-- bench:results:start -->';
const END_MARK = '<!-- bench:results:end -->';

function parseArgs(argv: string[]) {
  const flags = new Set(argv.filter((arg) => !arg.startsWith('--only=')));
  const only = argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  const sections = only
    ? only.split(',').map((name) => {
        if (!(SECTIONS as readonly string[]).includes(name))
          throw new Error(`unknown section ${name}; one of ${SECTIONS.join(', ')}`);
        return name as Section;
      })
    : SECTIONS.filter((section) => !ON_REQUEST.includes(section));
  for (const flag of flags) {
    if (!['--quick', '--strict', '--keep-db'].includes(flag))
      throw new Error(`unknown option ${flag}`);
  }
  return {
    quick: flags.has('--quick'),
    strict: flags.has('--strict'),
    keepDb: flags.has('--keep-db'),
    sections: new Set<Section>(sections),
    partial: Boolean(only),
  };
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverage: os.loadavg().map((value) => round(value, 2)),
  };
}

function commit() {
  const hash = git(['rev-parse', '--short=12', 'HEAD']) || 'unknown';
  const dirty = git(['status', '--porcelain']) !== '';
  return dirty ? `${hash} (with uncommitted changes)` : hash;
}

function formatValue(figure: Figure): string {
  if (figure.display) return figure.display;
  if (figure.value === null || Number.isNaN(figure.value)) return 'n/a';
  const number = figure.value.toLocaleString('en', { maximumFractionDigits: 2 });
  return figure.unit ? `${number} ${figure.unit}` : number;
}

const verdict = (figure: Figure) =>
  figure.pass === undefined ? '' : figure.pass ? 'PASS' : 'FAIL';

function table(figures: Figure[]): string[][] {
  return figures.map((figure) => [
    figure.section,
    figure.name,
    formatValue(figure),
    figure.budget ?? '',
    verdict(figure),
    figure.note ?? '',
  ]);
}

function printTable(figures: Figure[]) {
  const header = ['section', 'figure', 'value', 'budget', 'verdict', 'note'];
  const rows = [header, ...table(figures)];
  const widths = header.map((_, column) =>
    Math.min(60, Math.max(...rows.map((row) => (row[column] ?? '').length))),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  console.info('');
  console.info(line(header));
  console.info(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows.slice(1)) console.info(line(row));
  console.info('');
}

function markdownTable(figures: Figure[]): string {
  const escapeCell = (text: string) => text.replaceAll('|', '\\|');
  const lines = [
    '| section | figure | value | budget | verdict | note |',
    '|---|---|---|---|---|---|',
    ...table(figures).map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

async function updateResultsMarkdown(report: {
  date: string;
  machine: ReturnType<typeof machine>;
  commit: string;
  database: string;
  figures: Figure[];
  problems: string[];
  durationSeconds: number;
}) {
  const m = report.machine;
  const generated = [
    START_MARK,
    `Latest full run: **${report.date}**, ${report.durationSeconds} s.`,
    '',
    `- Machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB memory, ${m.os}, Node ${m.node}; load average at the start ${m.loadAverage.join(' / ')}`,
    `- Commit: ${report.commit}`,
    `- Database: ${report.database}`,
    '',
    markdownTable(report.figures),
    '',
    report.problems.length === 0
      ? 'Invariants: all held (ledger check, no game oversold, expected answers).'
      : `Invariants broken:\n${report.problems.map((problem) => `- ${problem}`).join('\n')}`,
    END_MARK,
  ].join('\n');
  let current = '';
  try {
    current = await readFile(RESULTS_MD, 'utf8');
  } catch {
    current = `# Benchmark results\n\nWritten by \`npm run bench\` (full run); see docs/benchmarks.md.\n\n${START_MARK}\n${END_MARK}\n`;
  }
  const start = current.indexOf(START_MARK);
  const end = current.indexOf(END_MARK);
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${generated}${current.slice(end + END_MARK.length)}`
      : `${current.trimEnd()}\n\n${generated}\n`;
  await writeFile(RESULTS_MD, next);
  // The repository's formatter (Biome) aligns Markdown tables; keep the file lint-clean.
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', RESULTS_MD], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  } catch {
    console.warn('Could not run Biome on bench/RESULTS.md; `npm run format` will align it.');
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const atStart = machine();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'pluckers-bench-run-'));
  const log = (message: string) =>
    console.info(`[bench ${round((performance.now() - started) / 1000, 0)} s] ${message}`);
  const options: RunOptions = { quick: args.quick, workDir, log };

  const databaseUrl = process.env.DATABASE_URL || undefined;
  const target: Target = databaseUrl
    ? postgresTarget(databaseUrl, {
        keep: args.keepDb,
        database: process.env.BENCH_DATABASE || undefined,
      })
    : pgliteTarget();
  const pglite = databaseUrl ? pgliteTarget() : target;
  try {
    await target.claim();
  } catch (error) {
    console.error(`[bench] ${error instanceof Error ? error.message : String(error)}`);
    await rm(workDir, { recursive: true, force: true });
    process.exitCode = 1;
    return;
  }
  const database = await target.describe();
  log(`${args.quick ? 'quick' : 'full'} run on ${database}; logs in ${workDir}`);

  const results: Partial<Record<Section, ScenarioResult>> = {};
  const failures: string[] = [];
  const attempt = async (section: Section, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      const cause =
        error instanceof Error && error.cause ? `\ncaused by: ${String(error.cause)}` : '';
      const message = `${error instanceof Error ? (error.stack ?? error.message) : String(error)}${cause}`;
      failures.push(`${section}: ${message}`);
      console.error(`[bench] ${section} failed: ${message}`);
    }
  };

  try {
    const wantsWeb = args.sections.has('web');
    const wantsHeaders = args.sections.has('headers');
    const needsServer = args.sections.has('read') || wantsWeb || wantsHeaders;
    const buildError = needsServer ? await ensureBuilt(options) : null;
    if (needsServer) {
      await attempt('read', async () => {
        const { read } = await runReadPath(
          target,
          { ...options, measure: args.sections.has('read') },
          async (server) => {
            if (wantsWeb) results.web = await runWebFigures(server, options, buildError);
            if (wantsHeaders) results.headers = await runHeaderStudy(server, options);
          },
        );
        if (read) results.read = read;
      });
    }
    if (args.sections.has('write'))
      await attempt('write', async () => {
        results.write = await runWritePath(target, options);
      });
    if (args.sections.has('draw'))
      await attempt('draw', async () => {
        results.draw = await runDrawFigure(target, options);
      });
    if (args.sections.has('leaderboard'))
      await attempt('leaderboard', async () => {
        results.leaderboard = await runLeaderboardFigure(target, options);
      });
    if (args.sections.has('startup'))
      await attempt('startup', async () => {
        results.startup = await runStartupFigure(
          databaseUrl ? [pglite, target] : [pglite],
          options,
        );
      });
    if (args.sections.has('cluster'))
      await attempt('cluster', async () => {
        results.cluster = await runClusterFigures(target, options);
      });
    if (args.sections.has('draw1m'))
      await attempt('draw1m', async () => {
        results.draw1m = await runMillionDrawFigure(target, options);
      });
  } finally {
    await target.cleanup();
    if (pglite !== target) await pglite.cleanup();
  }

  const ordered = SECTIONS.map((section) => results[section]).filter(
    (result): result is ScenarioResult => result !== undefined,
  );
  const figures = ordered.flatMap((result) => result.figures);
  const problems = [...ordered.flatMap((result) => result.problems), ...failures];
  const report = {
    date: new Date().toISOString(),
    mode: args.quick ? 'quick' : 'full',
    sections: [...args.sections],
    machine: atStart,
    commit: commit(),
    database,
    durationSeconds: round((performance.now() - started) / 1000, 0),
    figures,
    problems,
    details: Object.fromEntries(
      SECTIONS.filter((section) => results[section]).map((section) => [
        section,
        results[section]?.details,
      ]),
    ),
  };

  printTable(figures);
  const missed = figures.filter((figure) => figure.pass === false);
  console.info(
    `${figures.filter((figure) => figure.pass === true).length} budgets met, ${missed.length} missed` +
      `${args.quick ? ' (quick run: smaller data, budgets at full scale are not judged)' : ''}.`,
  );
  for (const problem of problems) console.error(`PROBLEM: ${problem}`);

  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.info(`Wrote ${path.relative(ROOT, path.join(RESULTS_DIR, 'latest.json'))}`);
  if (!args.quick && !args.partial) {
    await updateResultsMarkdown(report);
    console.info(`Updated ${path.relative(ROOT, RESULTS_MD)}`);
  }
  if (problems.length === 0) await rm(workDir, { recursive: true, force: true });
  else console.error(`Logs kept in ${workDir}`);

  if (problems.length > 0) process.exitCode = 1;
  else if (args.strict && !args.quick && missed.length > 0) process.exitCode = 1;
}

main().then(
  // Child processes and sockets are all closed by now; exit even if a library left a timer.
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
