/**
 * The million-entry draw (`--only=draw1m`, never in the quick run: generating the players and
 * entries alone takes minutes): one CLOSED game of 1,000,000 entries, sealed and settled by the
 * real code in this process, which has the app built on the same database as the server would.
 * Budgets: < 15 s from seal to commit, and this process's RSS at its peak during the draw less
 * than 256 MB above what it was before: the draw streams entries and writes set-based, so
 * neither grows with the game in Node.
 */
import { generateDrawDataset } from '../generate.ts';
import type { RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { measureRssGrowth } from '../lib/rss.ts';
import { round, since } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';
import { describeSteps, settleGeneratedGame, stepSeconds } from './draw.ts';

const ENTRIES = 1_000_000;
const BUDGET_SECONDS = 15;
const BUDGET_RSS_MB = 256;
const MB = 1024 * 1024;

export async function runMillionDrawFigure(
  target: Target,
  options: RunOptions,
): Promise<ScenarioResult> {
  const slot = await target.fresh('draw1m');
  return withPreparedDatabase(slot, async ({ handle }) => {
    const db = handle.db;
    options.log(`draw1m: generating ${ENTRIES.toLocaleString('en')} players and entries`);
    const started = performance.now();
    const { gameId } = await generateDrawDataset(db, { entries: ENTRIES, prefix: 'dm' });
    const generatedMs = since(started);

    options.log('draw1m: seal, verify the beacon round, runDraw');
    let rss = { beforeBytes: 0, peakBytes: 0, method: 'sampled' };
    const settled = await settleGeneratedGame(db, gameId, ENTRIES, async (work) => {
      const measured = await measureRssGrowth(work);
      rss = measured;
      return measured.result;
    });
    const seconds = settled.drawMs / 1000;
    const growthMb = (rss.peakBytes - rss.beforeBytes) / MB;
    const stepFigures = settled.steps.map(({ step, ms }) => ({
      section: 'draw1m',
      name: `  ${step}`,
      value: round(ms / 1000, 2),
      unit: 's',
    }));
    return {
      figures: [
        {
          section: 'draw1m',
          name: 'settle a game of 1,000,000 entries',
          value: round(seconds, 2),
          unit: 's',
          budget: `< ${BUDGET_SECONDS} s`,
          pass: seconds < BUDGET_SECONDS,
          note: `${describeSteps(settled.steps)}; ${settled.winners} winners credited, ${settled.notified} players notified, ledger ${settled.ledgerOk ? 'ok' : 'FAILED'}`,
        },
        ...stepFigures,
        {
          section: 'draw1m',
          name: "server's RSS growth during the draw (peak − before)",
          value: round(growthMb, 0),
          unit: 'MB',
          budget: `< ${BUDGET_RSS_MB} MB`,
          pass: growthMb < BUDGET_RSS_MB,
          note: `RSS ${round(rss.beforeBytes / MB, 0)} MB before, peak ${round(rss.peakBytes / MB, 0)} MB (${rss.method === 'kernel' ? "kernel's VmHWM, reset before the draw" : 'sampled every 10 ms'})`,
        },
      ],
      details: {
        entries: ENTRIES,
        generateSeconds: round(generatedMs / 1000, 1),
        drawSeconds: round(seconds, 3),
        stepSeconds: stepSeconds(settled.steps),
        rssBeforeMb: round(rss.beforeBytes / MB, 1),
        rssPeakMb: round(rss.peakBytes / MB, 1),
        rssGrowthMb: round(growthMb, 1),
        rssMethod: rss.method,
        winners: settled.winners,
        notifications: settled.notified,
        ledgerOk: settled.ledgerOk,
      },
      problems: settled.problems,
    };
  });
}
