import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { BeaconChain } from '../../../shared/beacon.ts';
import { nairaToKobo } from '../../../shared/money.ts';
import type {
  AdminEntry,
  AdminGameBody,
  AdminGameFilters,
  AdminGamePage,
} from '../../../shared/schemas/admin.ts';
import type { Database } from '../../db/client.ts';
import { entryOutcome, wonSql } from '../../db/outcome.ts';
import { categories, gameEntries, games, plans, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { recordAudit } from '../audit/record.ts';
import { createDrawSeed, publishCommitment } from '../draws/commitment.ts';
import { queueDraw } from '../draws/queue.ts';
import { cancelWithRefunds, DRAW_MESSAGES, drawOutcomeIsPublic } from '../draws/service.ts';
import { insertGames, moveGame, rescheduleUnplayed } from '../game-lifecycle/moves.ts';
import { publicUsername } from '../users/serialize.ts';
import { announceTournament } from './announcements.ts';
import { toApiGame } from './serialize.ts';

const PAGE_SIZE = 20;
/** More entries than any game has places. */
const MAX_ENTRIES = 1000;

/** The operator's terms for a game; its status is the lifecycle's (game-lifecycle). */
function gameValues(body: AdminGameBody) {
  return {
    title: body.title,
    description: body.description,
    categoryId: body.categoryID,
    entryFee: nairaToKobo(body.entryFee),
    reward: nairaToKobo(body.reward),
    maximumPlayers: body.maximumPlayers,
    isTournament: body.isTournament,
    startsAt: body.startsAt ? new Date(body.startsAt) : null,
    endsAt: body.endsAt ? new Date(body.endsAt) : null,
  };
}

export const UNKNOWN_CATEGORY = 'That category does not exist';

/** A category id that names no category is the operator's mistake (400), not a crash (500). */
async function assertCategoryExists(db: Database, categoryId: string | null): Promise<void> {
  if (!categoryId) return;
  const [row] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(eq(categories.id, categoryId))
    .limit(1);
  if (!row) throw badRequest(UNKNOWN_CATEGORY);
}

export async function listGames(db: Database, filters: AdminGameFilters): Promise<AdminGamePage> {
  const { status, type, categoryID, page } = filters;
  const conditions: SQL[] = [];
  if (status) conditions.push(eq(games.status, status));
  if (type === 'TOURNAMENT') conditions.push(eq(games.isTournament, true));
  if (categoryID) conditions.push(eq(games.categoryId, categoryID));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(games)
      .where(where)
      .orderBy(desc(games.createdAt))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE),
    db.select({ total: count() }).from(games).where(where),
  ]);
  return {
    games: rows.map((row) => toApiGame(row, false)),
    pagination: paginate(total?.total ?? 0, page, PAGE_SIZE),
  };
}

/** A new game with its draw's commitment published, audited, and announced if a tournament. */
export async function createGame(db: Database, adminId: string, body: AdminGameBody, now: Date) {
  await assertCategoryExists(db, body.categoryID);
  const row = await inTransaction(db, async (tx) => {
    const [created] = await insertGames(tx, [{ ...gameValues(body), ...createDrawSeed() }], now);
    if (!created) throw new Error('game insert returned nothing');
    await publishCommitment(tx, created);
    return created;
  });
  await recordAudit(db, {
    adminId,
    action: 'game.create',
    targetType: 'game',
    targetId: row.id,
    after: { ...row, seed: undefined },
  });
  if (row.isTournament) {
    await announceTournament(db, row, 'early');
    if (row.status === 'ONGOING') await announceTournament(db, row, 'everyone-else');
  }
  return toApiGame(row, false);
}

export const NOT_EDITABLE =
  'This game already has players (or has ended) and can no longer be edited';

/**
 * Edits a game nobody has played and that has not ended; audited. The game's row is locked
 * first, so a play taking a place meanwhile either commits before the check below, which then
 * sees its player, or waits until the edit has committed.
 */
export async function updateGame(
  db: Database,
  adminId: string,
  id: string,
  body: AdminGameBody,
  now: Date,
) {
  await assertCategoryExists(db, body.categoryID);
  const row = await inTransaction(db, async (tx) => {
    const [game] = await tx
      .select({ playerCount: games.playerCount, status: games.status })
      .from(games)
      .where(eq(games.id, id))
      .for('no key update');
    if (!game) throw notFound('Game not found');
    if (game.playerCount > 0 || (game.status !== 'UPCOMING' && game.status !== 'ONGOING'))
      throw conflict(NOT_EDITABLE);
    const values = gameValues(body);
    const [edited] = await tx.update(games).set(values).where(eq(games.id, id)).returning();
    return (await rescheduleUnplayed(tx, id, values.startsAt, now)) ?? edited;
  });
  if (!row) throw notFound('Game not found');
  await recordAudit(db, {
    adminId,
    action: 'game.update',
    targetType: 'game',
    targetId: row.id,
    after: { ...row, seed: undefined },
  });
  return toApiGame(row, false);
}

/** Closes an upcoming or ongoing game now and queues its draw; audited. */
export async function closeGame(db: Database, adminId: string, id: string, now: Date) {
  const closed = await inTransaction(db, async (tx) => {
    const row = await moveGame(tx, id, 'operator', 'CLOSED', { closedAt: now });
    if (row) {
      await queueDraw(tx, row.id, now);
      await recordAudit(tx, {
        adminId,
        action: 'game.close',
        targetType: 'game',
        targetId: row.id,
      });
    }
    return row;
  });
  if (closed) return;
  const [existing] = await db.select({ status: games.status }).from(games).where(eq(games.id, id));
  if (!existing) throw notFound('Game not found');
  throw badRequest(`This game is already ${existing.status.toLowerCase()}`);
}

/**
 * Cancels a game and refunds every entry fee; the number of players refunded. A closed game
 * whose beacon round is out may not be: its winners are already known.
 */
export async function cancelGame(
  db: Database,
  chain: BeaconChain,
  id: string,
  reason: string,
  now: Date,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const [game] = await tx.select().from(games).where(eq(games.id, id)).for('update');
    if (!game) throw notFound('Game not found');
    if (game.status === 'COMPLETED' || game.status === 'CANCELLED') {
      throw badRequest(`This game is already ${game.status.toLowerCase()}`);
    }
    if (game.status === 'CLOSED' && drawOutcomeIsPublic(chain, game, now))
      throw badRequest(DRAW_MESSAGES.randomnessPublic);
    await cancelWithRefunds(tx, game, now, {
      rule: 'operator',
      why: `was cancelled by the Pluckers team (${reason})`,
      reason,
    });
    return game.playerCount;
  });
}

/** A game's entries with their answers, in the order they came. */
export async function listEntries(db: Database, gameId: string): Promise<AdminEntry[]> {
  const rows = await db
    .select({
      entry: gameEntries,
      won: wonSql(gameEntries),
      handle: users.handle,
      fullname: users.fullname,
      features: plans.features,
      status: games.status,
    })
    .from(gameEntries)
    .innerJoin(games, eq(games.id, gameEntries.gameId))
    .innerJoin(users, eq(users.id, gameEntries.userId))
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(eq(gameEntries.gameId, gameId))
    .orderBy(gameEntries.id)
    .limit(MAX_ENTRIES);
  return rows.map(({ entry, won, handle, fullname, features, status }) => ({
    entryId: entry.id,
    userId: entry.userId,
    // The draw proof's name for the player, so a winner reads alike in both lists.
    username: publicUsername(handle, features?.getVerifiedBadge === true),
    fullname,
    answer: entry.answer,
    amountPaid: Number(entry.amountPaid) / 100,
    isWinner: entryOutcome(won, status),
    refunded: entry.refunded,
    createdAt: entry.createdAt.toISOString(),
  }));
}
