import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { GameStatus } from '../../../shared/constants.ts';
import type { Executor } from '../../db/client.ts';
import { games } from '../../db/schema.ts';
import { type GameMover, openingStatus, sourcesOf } from './machine.ts';

type GameRow = typeof games.$inferSelect;
type NewGame = typeof games.$inferInsert;
/** What a move may write beside the status: never the status itself, the id or the count. */
type MoveColumns = Omit<Partial<NewGame>, 'id' | 'status' | 'playerCount'>;

/**
 * The only writes of `games.status`. Each move's condition on the current status comes from
 * the table in `machine.ts`, so a game that is no longer where the mover may take it from is
 * left as it is and the caller is told by an empty answer.
 */
export async function moveGames(
  db: Executor,
  by: GameMover,
  to: GameStatus,
  where: SQL,
  set: MoveColumns = {},
): Promise<GameRow[]> {
  const from = sourcesOf(by, to);
  if (from.length === 0) throw new Error(`the ${by} never moves a game to ${to}`);
  return db
    .update(games)
    .set({ ...set, status: to })
    .where(and(where, inArray(games.status, from)))
    .returning();
}

/** One game moved; undefined when it does not exist or is not where `by` may move it from. */
export async function moveGame(
  db: Executor,
  gameId: string,
  by: GameMover,
  to: GameStatus,
  set: MoveColumns = {},
): Promise<GameRow | undefined> {
  const [row] = await moveGames(db, by, to, eq(games.id, gameId), set);
  return row;
}

/** New games, each UPCOMING or ONGOING by its start time. */
export async function insertGames(
  db: Executor,
  rows: ReadonlyArray<Omit<NewGame, 'status'>>,
  now: Date,
): Promise<GameRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(games)
    .values(rows.map((row) => ({ ...row, status: openingStatus(row.startsAt ?? null, now) })))
    .returning();
}

/** The schedule opens the upcoming games whose start has come. */
export const openDueGames = (db: Executor, now: Date) =>
  moveGames(db, 'schedule', 'ONGOING', lte(games.startsAt, now));

/** The schedule closes the ongoing games whose end has passed. */
export const closeEndedGames = (db: Executor, now: Date) =>
  moveGames(db, 'schedule', 'CLOSED', lte(games.endsAt, now), { closedAt: now });

/**
 * An operator's edit of a game nobody has played: live now, or upcoming again when its start
 * moved into the future. The game moved, or undefined when it already had that status.
 */
export async function rescheduleUnplayed(
  db: Executor,
  gameId: string,
  startsAt: Date | null,
  now: Date,
): Promise<GameRow | undefined> {
  const to = openingStatus(startsAt, now);
  const [row] = await moveGames(
    db,
    'operator',
    to,
    sql`${eq(games.id, gameId)} AND ${eq(games.playerCount, 0)}`,
  );
  return row;
}
