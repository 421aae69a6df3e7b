/**
 * Figure 3, the draw: one CLOSED game of 100,000 entries (generated set-based), settled by the
 * real `runDraw` (provably fair winner selection, crediting through the ledger, stats and a
 * notification for every player) in this process, timed from call to commit.
 */
import { sql } from 'drizzle-orm';
import { sealEntries } from '../../src/server/modules/draws/seal.ts';
import { runDraw } from '../../src/server/modules/draws/service.ts';
import { checkLedger } from '../../src/server/modules/wallet/ledger-check.ts';
import { startFakeBeacon } from '../../src/server/test/fake-beacon.ts';
import { firstRoundAfter, verifyBeaconRound } from '../../src/shared/beacon.ts';
import { generateDrawDataset } from '../generate.ts';
import type { RunOptions, ScenarioResult } from '../lib/figures.ts';
import { withPreparedDatabase } from '../lib/prepare.ts';
import { round, since } from '../lib/stats.ts';
import type { Target } from '../lib/target.ts';

export async function runDrawFigure(target: Target, options: RunOptions): Promise<ScenarioResult> {
  const entries = options.quick ? 10_000 : 100_000;
  const slot = await target.fresh('draw');
  return withPreparedDatabase(slot, async ({ handle }) => {
    const db = handle.db;
    options.log(`draw: generating ${entries} entries`);
    let started = performance.now();
    const { gameId } = await generateDrawDataset(db, { entries });
    const generatedMs = since(started);

    // A closing play seals the entries (Merkle root over all of them); the draw then verifies
    // its beacon round's BLS signature and derives the winners from seed, root and round: all
    // of it counts against the budget.
    const beacon = await startFakeBeacon();
    const beaconRound = beacon.sign(firstRoundAfter(beacon.chain, new Date()));
    await beacon.close();
    options.log('draw: seal, verify the beacon round, runDraw');
    started = performance.now();
    await sealEntries(db, gameId);
    const sealMs = since(started);
    if (!verifyBeaconRound(beacon.chain, beaconRound).ok)
      throw new Error('draw: test beacon round refused');
    const outcome = await runDraw(db, gameId, new Date(), beaconRound);
    const drawMs = since(started);

    const problems: string[] = [];
    const count = async (query: ReturnType<typeof sql>) =>
      ((await db.execute(query)) as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
    const winners = await count(
      sql`SELECT count(*)::int AS n FROM game_entries WHERE game_id = ${gameId} AND is_winner`,
    );
    const notified = await count(sql`SELECT count(*)::int AS n FROM notifications`);
    const ledger = await checkLedger(db, { sandbox: false });
    if (outcome !== 'completed') problems.push(`draw: outcome ${outcome}, expected completed`);
    if (winners !== Math.floor(entries / 5))
      problems.push(`draw: ${winners} winners, expected ${Math.floor(entries / 5)}`);
    if (notified !== entries)
      problems.push(`draw: ${notified} notifications for ${entries} players`);
    if (!ledger.ok) problems.push('draw: ledger check failed after the draw');

    const seconds = drawMs / 1000;
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
          note: `entries sealed in ${round(sealMs / 1000, 2)} s, beacon verified, ${winners} winners credited, ${notified} notifications, ledger ${ledger.ok ? 'ok' : 'FAILED'}`,
        },
      ],
      details: {
        entries,
        generateSeconds: round(generatedMs / 1000, 2),
        drawSeconds: round(seconds, 3),
        sealSeconds: round(sealMs / 1000, 3),
        winners,
        notifications: notified,
        ledgerOk: ledger.ok,
      },
      problems,
    };
  });
}
