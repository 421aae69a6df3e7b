import { sql } from 'drizzle-orm';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sealEntries } from '../src/server/modules/draws/seal.ts';
import { runDraw } from '../src/server/modules/draws/service.ts';
import { leaderboard } from '../src/server/modules/leaderboard/service.ts';
import { checkLedger } from '../src/server/modules/wallet/ledger-check.ts';
import { testDatabasePerFile } from '../src/server/test/database.ts';
import { startFakeBeacon } from '../src/server/test/fake-beacon.ts';
import { firstRoundAfter } from '../src/shared/beacon.ts';
import { koboToNaira } from '../src/shared/money.ts';
import { USERNAME_PREFIX } from '../src/shared/schemas/users.ts';
import {
  benchGameId,
  benchUserId,
  generateDrawDataset,
  generateLeaderboardDataset,
  generateWriteDataset,
  oversoldGames,
} from './generate.ts';

// The benchmark's generators at test scale, so the data the figures stand on is checked by
// `npm test`: money only through balanced postings, and real services agree with it.
const database = testDatabasePerFile();

/** A dataset prefix of its own, so files sharing a PostgreSQL database never meet. */
const freshPrefix = (letter: string) => `${letter}${Math.random().toString(36).slice(2, 8)}`;

async function count(db: ReturnType<typeof database>['db'], query: ReturnType<typeof sql>) {
  const result = (await db.execute(query)) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]?.n ?? 0;
}

describe('bench data generators', () => {
  it('a draw dataset settles through the real draw: one in five wins, everyone hears, the ledger holds', async () => {
    const { db } = database();
    const prefix = freshPrefix('d');
    const { gameId } = await generateDrawDataset(db, { entries: 500, prefix });
    expect(await count(db, sql`SELECT player_count AS n FROM games WHERE id = ${gameId}`)).toBe(
      500,
    );

    await sealEntries(db, gameId);
    const beacon = await startFakeBeacon();
    onTestFinished(() => beacon.close());
    const round = beacon.sign(firstRoundAfter(beacon.chain, new Date()));
    expect(await runDraw(db, gameId, new Date(), round)).toBe('completed');

    expect(
      await count(db, sql`SELECT count(*)::int AS n FROM game_winners WHERE game_id = ${gameId}`),
    ).toBe(100);
    expect(
      await count(
        db,
        sql`SELECT count(DISTINCT e.user_id)::int AS n FROM game_entries e
          JOIN game_result_notices r ON r.game_id = e.game_id WHERE e.game_id = ${gameId}`,
      ),
    ).toBe(500);
    const ledger = await checkLedger(db, { sandbox: false });
    expect(ledger.invariants.filter((invariant) => !invariant.ok)).toEqual([]);
  });

  it('a leaderboard dataset ranks by winnings as the real leaderboard reads it', async () => {
    const { db } = database();
    const prefix = freshPrefix('l');
    // A far-off month of its own: no other test's entries fall in this window.
    const now = new Date(Date.UTC(2300 + Math.floor(Math.random() * 400), 5, 20, 12));
    const { games } = await generateLeaderboardDataset(db, {
      users: 600,
      entries: 3_000,
      days: 20,
      now,
      prefix,
    });
    expect(games).toBe(30);
    const dateFrom = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    const dateTo = now.toISOString().slice(0, 10);

    const page = await leaderboard(db, { dateFrom, dateTo, pageSize: 10 });

    const expected = (await db.execute(sql`
      SELECT sum(w.prize)::bigint AS won FROM game_winners w JOIN users u ON u.id = w.user_id
      WHERE u.handle LIKE ${`${prefix}%`}
      GROUP BY w.user_id ORDER BY won DESC LIMIT 10`)) as unknown as {
      rows: Array<{ won: string }>;
    };
    expect(page).toHaveLength(10);
    expect(page.map((row) => row.totalAmountWon)).toEqual(
      expected.rows.map((row) => koboToNaira(BigInt(row.won))),
    );
    // Half the entries come from the most active tenth of the players, so they lead.
    const regulars = new Set(Array.from({ length: 60 }, (_, index) => `${prefix}${index}`));
    const handles = page.map((row) => row.username.replace(USERNAME_PREFIX, ''));
    expect(handles.filter((handle) => regulars.has(handle)).length).toBeGreaterThan(5);
    expect((await checkLedger(db, { sandbox: false })).ok).toBe(true);
  });

  it('a write dataset funds every wallet through one balanced posting and oversells nothing', async () => {
    const { db } = database();
    const prefix = freshPrefix('w');
    await generateWriteDataset(db, {
      players: 50,
      games: 10,
      entryFeeKobo: 10_000n,
      fundKobo: 100_000n,
      largeCapacity: 1000,
      smallCapacity: 3,
      smallEvery: 5,
      historyGames: 3,
      prefix,
    });
    // The funding, plus what the player won in the history.
    expect(
      await count(
        db,
        sql`SELECT count(*)::int AS n FROM users u
          WHERE u.id = ${benchUserId(prefix, 49)} AND u.account_balance = 100000 +
            (SELECT coalesce(sum(w.prize), 0) FROM game_winners w WHERE w.user_id = u.id)`,
      ),
    ).toBe(1);
    // The history: 3 games of 50 entries, each entry fee posted on its own as a play posts it.
    expect(
      await count(
        db,
        sql`SELECT count(*)::int AS n FROM game_entries e
          JOIN ledger_transactions t ON t.reference = 'entry:' || e.id
          WHERE e.user_id IN (SELECT id FROM users WHERE email LIKE ${`${prefix}%@bench.test`})
            AND (SELECT sum(l.amount) FROM ledger_entries l
              WHERE l.transaction_id = t.id AND l.account = 'wallet') = -e.amount_paid`,
      ),
    ).toBe(150);
    expect(
      await count(
        db,
        sql`SELECT count(*)::int AS n FROM games
          WHERE title LIKE ${`Bench ${prefix} game %`} AND maximum_players = 3`,
      ),
    ).toBe(2);
    // Other files' tests on a shared PostgreSQL database set counts of their own games directly.
    const mine = new Set(Array.from({ length: 10 }, (_, index) => benchGameId(prefix, index)));
    expect((await oversoldGames(db)).filter((game) => mine.has(game.id))).toEqual([]);
    expect((await checkLedger(db, { sandbox: false })).ok).toBe(true);
  });
});
