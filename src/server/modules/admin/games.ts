import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { nairaToKobo } from '../../../shared/money.ts';
import {
  type AdminGameBody,
  adminEntrySchema,
  adminGameBodySchema,
  adminGameListQuerySchema,
  adminGamePageSchema,
  cancelGameBodySchema,
} from '../../../shared/schemas/admin.ts';
import { envelope, idParamsSchema, messageSchema } from '../../../shared/schemas/common.ts';
import { gameSchema } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { categories, gameEntries, games, plans, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { requireUser } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/record.ts';
import { createDrawSeed, publishCommitment } from '../draws/commitment.ts';
import { queueDraw } from '../draws/queue.ts';
import { cancelWithRefunds, DRAW_MESSAGES, drawOutcomeIsPublic } from '../draws/service.ts';
import { announceTournament } from '../games/announcements.ts';
import { toApiGame } from '../games/serialize.ts';
import { publicUsername } from '../users/serialize.ts';

const PAGE_SIZE = 20;

function gameValues(body: AdminGameBody, now: Date) {
  const startsAt = body.startsAt ? new Date(body.startsAt) : null;
  return {
    title: body.title,
    description: body.description,
    categoryId: body.categoryID,
    entryFee: nairaToKobo(body.entryFee),
    reward: nairaToKobo(body.reward),
    maximumPlayers: body.maximumPlayers,
    isTournament: body.isTournament,
    startsAt,
    endsAt: body.endsAt ? new Date(body.endsAt) : null,
    status: startsAt && startsAt > now ? ('UPCOMING' as const) : ('ONGOING' as const),
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

export async function adminGameRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  // Every write below changes games that players' lists show; whether it succeeded or not,
  // the lists are rebuilt before the operator sees the answer.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET') app.gameLists.invalidate();
    return payload;
  });

  typed.get(
    '/games',
    {
      schema: {
        tags,
        summary: 'All games, newest first, filtered by status, list type or category',
        querystring: adminGameListQuerySchema,
        response: {
          200: envelope(adminGamePageSchema),
        },
      },
    },
    async (request) => {
      const { status, type, categoryID, page } = request.query;
      const filters: SQL[] = [];
      if (status) filters.push(eq(games.status, status));
      if (type === 'TOURNAMENT') filters.push(eq(games.isTournament, true));
      if (categoryID) filters.push(eq(games.categoryId, categoryID));
      const where = filters.length > 0 ? and(...filters) : undefined;
      const [rows, [total]] = await Promise.all([
        app.db
          .select()
          .from(games)
          .where(where)
          .orderBy(desc(games.createdAt))
          .limit(PAGE_SIZE)
          .offset((page - 1) * PAGE_SIZE),
        app.db.select({ total: count() }).from(games).where(where),
      ]);
      return {
        data: {
          games: rows.map((row) => toApiGame(row, false)),
          pagination: paginate(total?.total ?? 0, page, PAGE_SIZE),
        },
      };
    },
  );

  typed.post(
    '/games',
    {
      schema: {
        tags,
        summary: 'Create a game',
        body: adminGameBodySchema,
        response: { 201: envelope(gameSchema) },
      },
    },
    async (request, reply) => {
      await assertCategoryExists(app.db, request.body.categoryID);
      const row = await inTransaction(app.db, async (tx) => {
        const [created] = await tx
          .insert(games)
          .values({ ...gameValues(request.body, app.clock.now()), ...createDrawSeed() })
          .returning();
        if (!created) throw new Error('game insert returned nothing');
        await publishCommitment(tx, created);
        return created;
      });
      await recordAudit(app.db, {
        adminId: requireUser(request).id,
        action: 'game.create',
        targetType: 'game',
        targetId: row.id,
        after: { ...row, seed: undefined },
      });
      if (row.isTournament) {
        await announceTournament(app.db, row, 'early');
        if (row.status === 'ONGOING') await announceTournament(app.db, row, 'everyone-else');
      }
      return reply.status(201).send({ message: 'Game created', data: toApiGame(row, false) });
    },
  );

  typed.put(
    '/games/:id',
    {
      schema: {
        tags,
        summary: 'Edit a game nobody has played yet',
        params: idParamsSchema,
        body: adminGameBodySchema,
        response: { 200: envelope(gameSchema) },
      },
    },
    async (request) => {
      await assertCategoryExists(app.db, request.body.categoryID);
      const [row] = await app.db
        .update(games)
        .set(gameValues(request.body, app.clock.now()))
        .where(
          and(
            eq(games.id, request.params.id),
            eq(games.playerCount, 0),
            inArray(games.status, ['UPCOMING', 'ONGOING']),
          ),
        )
        .returning();
      if (row) {
        await recordAudit(app.db, {
          adminId: requireUser(request).id,
          action: 'game.update',
          targetType: 'game',
          targetId: row.id,
          after: { ...row, seed: undefined },
        });
        return { message: 'Game updated', data: toApiGame(row, false) };
      }
      const [existing] = await app.db
        .select({ id: games.id })
        .from(games)
        .where(eq(games.id, request.params.id));
      if (!existing) throw notFound('Game not found');
      throw conflict('This game already has players (or has ended) and can no longer be edited');
    },
  );

  typed.post(
    '/games/:id/close',
    {
      schema: {
        tags,
        summary: 'Close a game now and queue its draw',
        params: idParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const closed = await inTransaction(app.db, async (tx) => {
        const [row] = await tx
          .update(games)
          .set({ status: 'CLOSED', closedAt: now })
          .where(
            and(eq(games.id, request.params.id), inArray(games.status, ['UPCOMING', 'ONGOING'])),
          )
          .returning({ id: games.id });
        if (row) {
          await queueDraw(tx, row.id, now);
          await recordAudit(tx, {
            adminId: requireUser(request).id,
            action: 'game.close',
            targetType: 'game',
            targetId: row.id,
          });
        }
        return row;
      });
      if (closed) return { message: 'Game closed. The draw runs in a moment.' };
      const [existing] = await app.db
        .select({ status: games.status })
        .from(games)
        .where(eq(games.id, request.params.id));
      if (!existing) throw notFound('Game not found');
      throw badRequest(`This game is already ${existing.status.toLowerCase()}`);
    },
  );

  typed.post(
    '/games/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a game and refund every entry fee',
        params: idParamsSchema,
        body: cancelGameBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const outcome = await inTransaction(app.db, async (tx) => {
        const [game] = await tx
          .select()
          .from(games)
          .where(eq(games.id, request.params.id))
          .for('update');
        if (!game) throw notFound('Game not found');
        if (game.status === 'COMPLETED' || game.status === 'CANCELLED') {
          throw badRequest(`This game is already ${game.status.toLowerCase()}`);
        }
        const now = app.clock.now();
        if (game.status === 'CLOSED' && drawOutcomeIsPublic(app.beacon.chain, game, now))
          throw badRequest(DRAW_MESSAGES.randomnessPublic);
        await cancelWithRefunds(tx, game, now, {
          rule: 'operator',
          why: `was cancelled by the Pluckers team (${request.body.reason})`,
          reason: request.body.reason,
        });
        return game.playerCount;
      });
      return { message: `Game cancelled; ${outcome} player(s) refunded and notified` };
    },
  );

  typed.get(
    '/games/:id/entries',
    {
      schema: {
        tags,
        summary: "A game's entries with answers",
        params: idParamsSchema,
        response: { 200: envelope(z.array(adminEntrySchema)) },
      },
    },
    async (request) => {
      const rows = await app.db
        .select({
          entry: gameEntries,
          handle: users.handle,
          fullname: users.fullname,
          features: plans.features,
        })
        .from(gameEntries)
        .innerJoin(users, eq(users.id, gameEntries.userId))
        .leftJoin(plans, eq(plans.id, users.planId))
        .where(eq(gameEntries.gameId, request.params.id))
        .orderBy(gameEntries.id)
        .limit(1000);
      return {
        data: rows.map(({ entry, handle, fullname, features }) => ({
          entryId: entry.id,
          userId: entry.userId,
          // The draw proof's name for the player, so a winner reads alike in both lists.
          username: publicUsername(handle, features?.getVerifiedBadge === true),
          fullname,
          answer: entry.answer,
          amountPaid: Number(entry.amountPaid) / 100,
          isWinner: entry.isWinner,
          refunded: entry.refunded,
          createdAt: entry.createdAt.toISOString(),
        })),
      };
    },
  );
}
