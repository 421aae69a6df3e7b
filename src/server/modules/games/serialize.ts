import { koboToNaira } from '../../../shared/money.ts';
import type { Game } from '../../../shared/schemas/games.ts';
import type { games } from '../../db/schema.ts';

export type GameRow = typeof games.$inferSelect;

export function toApiGame(row: GameRow, hasPlayedGame: boolean): Game {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    categoryID: row.categoryId,
    entryFee: koboToNaira(row.entryFee),
    reward: koboToNaira(row.reward),
    maximumPlayers: row.maximumPlayers,
    playerCount: row.playerCount,
    status: row.status,
    isTournament: row.isTournament,
    hasPlayedGame,
    startsAt: row.startsAt?.toISOString() ?? null,
    endsAt: row.endsAt?.toISOString() ?? null,
    commitment: row.commitment,
    createdAt: row.createdAt.toISOString(),
  };
}
