import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type AdminGameBody, adminGameBodySchema } from '../../../shared/schemas/admin.ts';
import { gameEntries, games } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { actorFor, createGame, createPlayer, createUser } from '../../test/factories.ts';
import { updateGame } from './admin-service.ts';
import { playGame } from './service.ts';

const database = testDatabasePerFile();

/** Enough trials that the edit lands inside a play now and then (it did in some on old code). */
const TRIALS = 40;

type Outcome =
  | { played: true; amountToWin: number }
  | { played: false; code: string; data: unknown };

/**
 * An operator's edit of a game's terms (allowed while nobody has played it) and the game's first
 * play, sent together on their own connections; the edit starts a little later each trial so it
 * lands at different points of the play.
 */
async function race(terms: { entryFee: number; reward: number }, edit: Partial<AdminGameBody>) {
  const app = await buildTestApp(database());
  const admin = await createUser(app.db, { role: 'admin' });
  const results: Array<{
    game: typeof games.$inferSelect;
    play: Outcome;
    edited: boolean;
    paid: bigint[];
  }> = [];
  const ids: string[] = [];
  for (let trial = 0; trial < TRIALS; trial += 1) {
    const game = await createGame(app.db, {
      entryFee: BigInt(terms.entryFee * 100),
      reward: BigInt(terms.reward * 100),
      maximumPlayers: 10,
    });
    ids.push(game.id);
    const body = adminGameBodySchema.parse({
      title: game.title,
      entryFee: terms.entryFee,
      reward: terms.reward,
      maximumPlayers: 10,
      ...edit,
    });
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const actor = await actorFor(app.db, player);
    const delay = async () => {
      for (let turn = 0; turn < trial % 8; turn += 1)
        await new Promise((resolve) => setImmediate(resolve));
    };
    const [play, edited] = await Promise.all([
      playGame(
        app.db,
        actor,
        { gameID: game.id, submittedAnswer: 'first one in', ...terms },
        new Date(),
      ).then(
        (result): Outcome => ({ played: true, amountToWin: result.amountToWin }),
        (error: unknown): Outcome => {
          if (!(error instanceof AppError)) throw error;
          return { played: false, code: error.code, data: error.data };
        },
      ),
      delay()
        .then(() => updateGame(app.db, admin.id, game.id, body, new Date()))
        .then(
          () => true,
          (error: unknown) => {
            if (!(error instanceof AppError) || error.code !== 'CONFLICT') throw error;
            return false;
          },
        ),
    ]);
    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    if (!row) throw new Error('game gone');
    const entries = await app.db
      .select({ amountPaid: gameEntries.amountPaid })
      .from(gameEntries)
      .where(eq(gameEntries.gameId, game.id));
    results.push({ game: row, play, edited, paid: entries.map((entry) => entry.amountPaid) });
  }
  // Left live they would crowd other tests' lists.
  await app.db.update(games).set({ status: 'CANCELLED' }).where(inArray(games.id, ids));
  return results;
}

/** What a trial got wrong: the play and the edit both accepted, or a refusal without its terms. */
function problemsOf(
  results: Awaited<ReturnType<typeof race>>,
  expected: {
    kept: (game: typeof games.$inferSelect) => boolean;
    changed: (game: typeof games.$inferSelect) => boolean;
    refusal: object;
    toWin: number;
  },
): string[] {
  return results.flatMap(({ game, play, edited, paid }, trial) => {
    if (play.played && edited) return [`trial ${trial}: the play and the edit both accepted`];
    if (play.played) {
      const right = expected.kept(game) && play.amountToWin === expected.toWin;
      return right && paid.length === 1 && paid[0] === 10_000n
        ? []
        : [`trial ${trial}: played on other terms`];
    }
    if (!edited) return [`trial ${trial}: neither accepted (${play.code})`];
    try {
      expect(play).toMatchObject(expected.refusal);
    } catch {
      return [`trial ${trial}: refused with ${JSON.stringify(play)}`];
    }
    return expected.changed(game) && paid.length === 0 ? [] : [`trial ${trial}: charged anyway`];
  });
}

describe("an operator's edit racing a game's first play, on PostgreSQL", () => {
  it('fee ₦100 → ₦500: either the ₦100 play or the edit is accepted, never both', async () => {
    const results = await race({ entryFee: 100, reward: 300 }, { entryFee: 500 });
    expect(
      problemsOf(results, {
        kept: (game) => game.entryFee === 10_000n,
        changed: (game) => game.entryFee === 50_000n,
        refusal: { code: 'FEE_CHANGED', data: { entryFee: 500 } },
        toWin: 300,
      }),
    ).toEqual([]);
  });

  it('reward ₦300 → ₦30: a play told it plays for ₦300 is in a game that pays ₦300', async () => {
    const results = await race({ entryFee: 100, reward: 300 }, { reward: 30 });
    expect(
      problemsOf(results, {
        kept: (game) => game.reward === 30_000n,
        changed: (game) => game.reward === 3_000n,
        refusal: { code: 'REWARD_CHANGED', data: { reward: 30 } },
        toWin: 300,
      }),
    ).toEqual([]);
  });
});
