import { asc, eq } from 'drizzle-orm';
import type { DrawProofResponse } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { gameEntries, games, plans, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { publicUsername } from '../users/serialize.ts';

/**
 * What anyone may check: the commitment from the start; after the draw the seed, the ordered
 * entry list (entry id + public username, never answers or e-mails) and the winners.
 */
export async function loadDrawProof(db: Database, gameId: string): Promise<DrawProofResponse> {
  const [game] = await db.select().from(games).where(eq(games.id, gameId)).limit(1);
  if (!game) throw notFound('Game not found');
  const revealed = game.status === 'COMPLETED';
  const base = {
    gameId: game.id,
    status: game.status,
    commitment: game.commitment,
    seed: revealed ? game.seed : null,
    entriesDigest: revealed ? game.entriesDigest : null,
  };
  if (!revealed) return { ...base, entries: [], winners: [], winnerUsernames: [] };

  const rows = await db
    .select({
      id: gameEntries.id,
      isWinner: gameEntries.isWinner,
      handle: users.handle,
      features: plans.features,
    })
    .from(gameEntries)
    .innerJoin(users, eq(users.id, gameEntries.userId))
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(eq(gameEntries.gameId, gameId))
    .orderBy(asc(gameEntries.id));
  const entries = rows.map((row) => ({
    entryId: row.id,
    username: publicUsername(row.handle, row.features?.getVerifiedBadge === true),
  }));
  const winnerRows = rows.filter((row) => row.isWinner);
  return {
    ...base,
    entries,
    winners: winnerRows.map((row) => row.id),
    winnerUsernames: winnerRows.map((row) =>
      publicUsername(row.handle, row.features?.getVerifiedBadge === true),
    ),
  };
}
