/**
 * Figure 6, start-up: from spawning the built server (scripts/build-server.ts) to the first 200 of
 * GET /api/health. "Empty": a database with no tables (first start: migrations, seed, demo
 * games). "Seeded": the same database started again. Always on PGlite (a fresh DATA_DIR), and
 * also on PostgreSQL when DATABASE_URL is set. Each start is a real `npm start` minus the
 * builds, as a container of the image starts.
 */
import path from 'node:path';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { startRealServer } from '../lib/server.ts';
import { median, round } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

export async function runStartupFigure(
  targets: Target[],
  options: RunOptions,
): Promise<ScenarioResult> {
  const repeats = options.quick ? 1 : 3;
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  for (const target of targets) {
    const empty: number[] = [];
    const seeded: number[] = [];
    const logFile = path.join(options.workDir, `startup-${target.kind}.log`);
    for (let i = 0; i < repeats; i += 1) {
      // --quick skips PGlite's first start (initdb in WebAssembly takes most of a minute on a
      // busy 2-core machine) and starts once on a migrated, seeded copy instead.
      const slot = await target.fresh(`startup-${target.kind}`, { empty: !options.quick });
      const env = { ...slot.env, SEED_DEMO: 'true', LOG_LEVEL: 'warn' };
      for (const list of options.quick ? [seeded] : [empty, seeded]) {
        const server = await startRealServer({ env, logFile });
        list.push(server.readyAfterMs);
        await server.stop();
      }
    }
    const label = target.kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
    if (empty.length > 0) {
      figures.push({
        section: 'startup',
        name: `${label}: empty database (migrate + seed)`,
        value: round(median(empty), 0),
        unit: 'ms',
        note: repeats > 1 ? `median of ${repeats}` : undefined,
      });
    }
    figures.push({
      section: 'startup',
      name: `${label}: seeded database`,
      value: round(median(seeded), 0),
      unit: 'ms',
      note: repeats > 1 ? `median of ${repeats}` : undefined,
    });
    details[target.kind] = { emptyMs: empty, seededMs: seeded };
    const measured = [
      ...(empty.length > 0 ? [`empty ${empty.map(Math.round).join(', ')} ms`] : []),
      `seeded ${seeded.map(Math.round).join(', ')} ms`,
    ];
    options.log(`start-up on ${label}: ${measured.join(', ')}`);
  }
  return { figures, details, problems: [] };
}
