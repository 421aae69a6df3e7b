import { inArray } from 'drizzle-orm';
import { nairaToKobo } from '../../shared/money.ts';
import type { Database } from '../db/client.ts';
import { banks, categories, plans, settings } from '../db/schema.ts';
import { createDrawSeed, publishCommitment } from '../modules/draws/commitment.ts';
import { insertGames } from '../modules/game-lifecycle/moves.ts';
import { CATEGORIES, DEFAULT_SETTINGS, DEMO_GAMES, NIGERIAN_BANKS, VIP_PLAN } from './seed-data.ts';

const HOUR_MS = 3_600_000;

/**
 * Idempotent: reference data is inserted with ON CONFLICT DO NOTHING, and demo games only in
 * the same transaction that creates the settings row, i.e. on the first start of a database.
 */
export async function seedDatabase(
  db: Database,
  options: { demoGames: boolean; now?: Date },
): Promise<void> {
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    const created = await tx
      .insert(settings)
      .values({
        id: 1,
        withdrawalTransactionFee: nairaToKobo(DEFAULT_SETTINGS.withdrawalTransactionFeeNaira),
        minimumPaymentAmount: nairaToKobo(DEFAULT_SETTINGS.minimumPaymentAmountNaira),
        dailyGameLimit: DEFAULT_SETTINGS.dailyGameLimit,
        tournamentLaunchAt: DEFAULT_SETTINGS.tournamentLaunchAt,
      })
      .onConflictDoNothing()
      .returning({ id: settings.id });

    await tx
      .insert(categories)
      .values([...CATEGORIES])
      .onConflictDoNothing();
    await tx
      .insert(banks)
      .values([...NIGERIAN_BANKS])
      .onConflictDoNothing();
    await tx
      .insert(plans)
      .values({
        planName: VIP_PLAN.planName,
        amountPerDay: nairaToKobo(VIP_PLAN.amountPerDayNaira),
        features: VIP_PLAN.features,
      })
      .onConflictDoNothing();

    if (created.length === 0 || !options.demoGames) return;

    const categoryRows = await tx
      .select({ id: categories.id, title: categories.title })
      .from(categories)
      .where(
        inArray(
          categories.title,
          DEMO_GAMES.map((game) => game.category),
        ),
      );
    const categoryId = new Map(categoryRows.map((row) => [row.title, row.id]));

    // Each UPCOMING or ONGOING by its start, as the lifecycle opens every new game.
    const demoGames = await insertGames(
      tx,
      DEMO_GAMES.map((game, index) => ({
        title: game.title,
        description: game.description,
        categoryId: categoryId.get(game.category) ?? null,
        entryFee: nairaToKobo(game.entryFeeNaira),
        reward: nairaToKobo(game.rewardNaira),
        maximumPlayers: game.maximumPlayers,
        isTournament: game.isTournament,
        startsAt:
          game.startsInHours === undefined
            ? null
            : new Date(now.getTime() + game.startsInHours * HOUR_MS),
        endsAt:
          game.endsInHours === undefined
            ? null
            : new Date(now.getTime() + game.endsInHours * HOUR_MS),
        // Spread creation times so "newest first" has a stable, meaningful order.
        createdAt: new Date(now.getTime() - (DEMO_GAMES.length - index) * 60_000),
        ...createDrawSeed(),
      })),
      now,
    );
    for (const game of demoGames) await publishCommitment(tx, game);
  });
}
