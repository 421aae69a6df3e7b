/**
 * Figure 3, the draw: one CLOSED game of 100,000 entries (generated set-based), settled by the
 * real `runDraw` (provably fair winner selection, crediting through the ledger, stats and a
 * result notice for every player) in this process, timed from call to commit.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/server/db/client.ts';
import { sealEntries } from '../../src/server/modules/draws/seal.ts';
import { type DrawStep, runDraw } from '../../src/server/modules/draws/service.ts';
import { checkLedger } from '../../src/server/modules/wallet/ledger-check.ts';
import { startFakeBeacon } from '../../src/server/test/fake-beacon.ts';
import { firstRoundAfter, verifyBeaconRound } from '../../src/shared/beacon.ts';
import { generateDrawDataset } from '../generate.ts';
import type { RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { round, since } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

export interface Settled {
  sealMs: number;
  /** Seal, beacon verification and runDraw, from the first call to the commit. */
  drawMs: number;
  /** Milliseconds per statement of the draw, the seal first. */
  steps: Array<{ step: 'seal' | DrawStep; ms: number }>;
  winners: number;
  notified: number;
  ledgerOk: boolean;
  problems: string[];
}

/**
 * A closing play seals the entries (Merkle root over all of them); the draw then verifies its
 * beacon round's BLS signature and derives the winners from seed, root and round: all of it
 * counts against the budget. `around` wraps only that timed part (the RSS measurement).
 */
export async function settleGeneratedGame(
  db: Database,
  gameId: string,
  entries: number,
  around: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): Promise<Settled> {
  const beacon = await startFakeBeacon();
  const beaconRound = beacon.sign(firstRoundAfter(beacon.chain, new Date()));
  await beacon.close();
  const steps: Settled['steps'] = [];
  let sealMs = 0;
  const started = performance.now();
  const outcome = await around(async () => {
    await sealEntries(db, gameId);
    sealMs = since(started);
    steps.push({ step: 'seal', ms: sealMs });
    if (!verifyBeaconRound(beacon.chain, beaconRound).ok)
      throw new Error('draw: test beacon round refused');
    return runDraw(db, gameId, new Date(), beaconRound, (step, ms) => steps.push({ step, ms }));
  });
  const drawMs = since(started);

  const problems: string[] = [];
  const count = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
  const winners = await count(
    sql`SELECT count(*)::int AS n FROM game_winners WHERE game_id = ${gameId}`,
  );
  // Players told the result: every entry of the game reads its one result notice.
  const notified = await count(sql`
    SELECT count(*)::int AS n FROM game_entries e JOIN game_result_notices r ON r.game_id = e.game_id
    WHERE e.game_id = ${gameId}`);
  const ledger = await checkLedger(db, { sandbox: false });
  if (outcome !== 'completed') problems.push(`draw: outcome ${outcome}, expected completed`);
  if (winners !== Math.floor(entries / 5))
    problems.push(`draw: ${winners} winners, expected ${Math.floor(entries / 5)}`);
  if (notified !== entries) problems.push(`draw: ${notified} notifications for ${entries} players`);
  if (!ledger.ok) problems.push('draw: ledger check failed after the draw');
  return { sealMs, drawMs, steps, winners, notified, ledgerOk: ledger.ok, problems };
}

/** "seal 0.4 s, read entries 0.1 s, …": where a draw's time went. */
export const describeSteps = (steps: Settled['steps']) =>
  steps.map(({ step, ms }) => `${step} ${round(ms / 1000, 2)} s`).join(', ');

export const stepSeconds = (steps: Settled['steps']) =>
  Object.fromEntries(steps.map(({ step, ms }) => [step, round(ms / 1000, 3)]));

export async function runDrawFigure(target: Target, options: RunOptions): Promise<ScenarioResult> {
  const entries = options.quick ? 10_000 : 100_000;
  const slot = await target.fresh('draw');
  return withPreparedDatabase(slot, async ({ handle }) => {
    const db = handle.db;
    options.log(`draw: generating ${entries} entries`);
    const started = performance.now();
    const { gameId } = await generateDrawDataset(db, { entries });
    const generatedMs = since(started);

    options.log('draw: seal, verify the beacon round, runDraw');
    const settled = await settleGeneratedGame(db, gameId, entries);
    const seconds = settled.drawMs / 1000;
    const scaled = entries === 100_000;
    return {
      figures: [
        {
          section: 'draw',
          name: `settle a game of ${entries.toLocaleString('en')} entries`,
          value: round(seconds, 2),
          unit: 's',
          budget: scaled ? '< 5 s' : '< 5 s at 100,000 (quick: 10,000)',
          pass: scaled ? seconds < 5 : undefined,
          note: `${describeSteps(settled.steps)}; beacon verified, ${settled.winners} winners credited, ${settled.notified} players notified, ledger ${settled.ledgerOk ? 'ok' : 'FAILED'}`,
        },
      ],
      details: {
        entries,
        generateSeconds: round(generatedMs / 1000, 2),
        drawSeconds: round(seconds, 3),
        sealSeconds: round(settled.sealMs / 1000, 3),
        stepSeconds: stepSeconds(settled.steps),
        winners: settled.winners,
        notifications: settled.notified,
        ledgerOk: settled.ledgerOk,
      },
      problems: settled.problems,
    };
  });
}
