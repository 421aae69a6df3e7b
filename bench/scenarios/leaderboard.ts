/**
 * Figure 4, the leaderboard: 1,000,000 drawn entries over 100,000 players, created evenly over
 * the last 120 days, then the real `leaderboard` service (what GET /api/v1/leaderboard runs) for
 * last week and last month as the web app's date presets name them, page size 10, repeated.
 */
import { sql } from 'drizzle-orm';
import { leaderboard } from '../../src/server/modules/leaderboard/service.ts';
import {
  monthlyPresets,
  weeklyPresets,
} from '../../src/web/features/leaderboard/lib/date-presets.ts';
import { generateLeaderboardDataset } from '../generate.ts';
import type { Figure, RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { percentile, round, since } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

const SPREAD_DAYS = 120;

export async function runLeaderboardFigure(
  target: Target,
  options: RunOptions,
): Promise<ScenarioResult> {
  const users = options.quick ? 10_000 : 100_000;
  const entries = options.quick ? 100_000 : 1_000_000;
  const iterations = options.quick ? 15 : 200;
  const slot = await target.fresh('leaderboard');
  return withPreparedDatabase(slot, async ({ handle }) => {
    const db = handle.db;
    const now = new Date();
    options.log(`leaderboard: generating ${entries} entries over ${users} players`);
    let started = performance.now();
    await generateLeaderboardDataset(db, { users, entries, days: SPREAD_DAYS, now });
    const generatedMs = since(started);

    const windows = {
      week: weeklyPresets(now)[1],
      month: monthlyPresets(now)[1],
    };
    const samples: Record<string, number[]> = { week: [], month: [] };
    const rowsInWindow: Record<string, number> = {};
    const problems: string[] = [];
    for (const [name, window] of Object.entries(windows)) {
      if (!window) throw new Error(`no ${name} preset`);
      const result = (await db.execute(sql`
        SELECT count(*)::int AS n FROM game_entries
        WHERE created_at >= ${`${window.dateFrom}T00:00:00+01:00`}::timestamptz
          AND created_at < ${`${window.dateTo}T00:00:00+01:00`}::timestamptz + interval '1 day'`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      rowsInWindow[name] = result.rows[0]?.n ?? 0;
      // Warm-up, and a check that the answer is a full page.
      for (let i = 0; i < 3; i += 1) {
        const page = await leaderboard(db, { ...window, pageSize: 10 });
        if (page.length !== 10)
          problems.push(`leaderboard ${name}: ${page.length} rows, expected 10`);
      }
    }
    options.log(`leaderboard: ${iterations} queries per window`);
    for (let i = 0; i < iterations; i += 1) {
      for (const [name, window] of Object.entries(windows)) {
        if (!window) continue;
        started = performance.now();
        await leaderboard(db, { dateFrom: window.dateFrom, dateTo: window.dateTo, pageSize: 10 });
        samples[name]?.push(since(started));
      }
    }

    const scaled = entries === 1_000_000;
    const figures: Figure[] = [];
    for (const name of ['week', 'month'] as const) {
      const list = samples[name] ?? [];
      const p99 = percentile(list, 0.99);
      figures.push(
        {
          section: 'leaderboard',
          name: `${name} (${windows[name]?.dateFrom} to ${windows[name]?.dateTo}) p50`,
          value: round(percentile(list, 0.5), 1),
          unit: 'ms',
          note: `${(rowsInWindow[name] ?? 0).toLocaleString('en')} entries in the window`,
        },
        {
          section: 'leaderboard',
          name: `${name} p99`,
          value: round(p99, 1),
          unit: 'ms',
          budget: scaled ? '< 100 ms' : '< 100 ms at 1,000,000 entries (quick: 100,000)',
          pass: scaled ? p99 < 100 : undefined,
        },
      );
    }
    return {
      figures,
      details: {
        users,
        entries,
        spreadDays: SPREAD_DAYS,
        generateSeconds: round(generatedMs / 1000, 1),
        windows,
        rowsInWindow,
        iterations,
        latencyMs: Object.fromEntries(
          Object.entries(samples).map(([name, list]) => [
            name,
            { p50: percentile(list, 0.5), p99: percentile(list, 0.99), max: percentile(list, 1) },
          ]),
        ),
      },
      problems,
    };
  });
}
