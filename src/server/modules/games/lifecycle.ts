import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { queueDraw } from '../draws/queue.ts';
import { closeEndedGames, openDueGames } from '../game-lifecycle/moves.ts';
import { announceTournament } from './announcements.ts';

/**
 * The schedule's moves of the game lifecycle (game-lifecycle/machine.ts), on every worker tick:
 * open UPCOMING games whose start has come (announcing the tournaments among them), close
 * ONGOING games whose end has passed, and queue their draws.
 * Each change shares a transaction with its follow-up: a crash in between must not leave a
 * CLOSED game that nothing will ever draw, or a tournament opened without its announcement.
 * Returns how many games it opened or closed.
 */
export async function sweepGames(db: Database, now: Date): Promise<number> {
  const openedCount = await inTransaction(db, async (tx) => {
    const opened = await openDueGames(tx, now);
    for (const game of opened)
      if (game.isTournament) await announceTournament(tx, game, 'everyone-else');
    return opened.length;
  });
  const closedCount = await inTransaction(db, async (tx) => {
    const closed = await closeEndedGames(tx, now);
    for (const game of closed) await queueDraw(tx, game.id, now);
    return closed.length;
  });
  return openedCount + closedCount;
}
