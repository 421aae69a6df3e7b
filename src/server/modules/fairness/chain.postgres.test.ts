import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { verifyFairnessLog } from '../../../shared/fairness-log.ts';
import { fairnessLog } from '../../db/schema.ts';
import { eventually } from '../../test/cluster.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createGame } from '../../test/factories.ts';
import { appendFairnessRecord, chainFairnessLog, readFairnessLog } from './log.ts';

const database = testDatabasePerFile();

describe('chaining the fairness log under concurrency (PostgreSQL)', () => {
  it('records written and chained at the same time get one place each in an unbroken chain', async () => {
    const { db } = database();
    const game = await createGame(db);
    await Promise.all([
      ...Array.from({ length: 60 }, (_, index) =>
        db.transaction((tx) =>
          appendFairnessRecord(tx, {
            kind: 'result',
            gameId: game.id,
            fields: { index },
          }),
        ),
      ),
      ...Array.from({ length: 12 }, () => chainFairnessLog(db)),
    ]);
    // Other test files chain too: whoever holds the lock places our records.
    await eventually(async () => {
      await chainFairnessLog(db);
      const unchained = await db
        .select({ id: fairnessLog.id })
        .from(fairnessLog)
        .where(and(eq(fairnessLog.gameId, game.id), isNull(fairnessLog.position)));
      expect(unchained).toEqual([]);
    }, 10_000);

    const ours = await db
      .select({ position: fairnessLog.position })
      .from(fairnessLog)
      .where(eq(fairnessLog.gameId, game.id));
    const positions = ours.map((row) => row.position as number).sort((a, b) => a - b);
    expect(new Set(positions).size).toBe(61);
    const first = positions[0] as number;
    const last = positions.at(-1) as number;
    const page = await readFairnessLog(db, first, last - first + 1);
    expect(page.records.map((record) => record.position)).toEqual(
      Array.from({ length: last - first + 1 }, (_, i) => first + i),
    );
    expect(verifyFairnessLog(page.records, page.prevHash, first)).toMatchObject({ ok: true });
  });
});
