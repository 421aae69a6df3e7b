import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { holdReasonsOf } from '../../../shared/aml.ts';
import { formatNaira, koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import {
  adjustmentBodySchema,
  adjustmentResultSchema,
  adminUserDetailSchema,
  adminUserPageSchema,
  adminUserQuerySchema,
  suspendBodySchema,
} from '../../../shared/schemas/admin.ts';
import { envelope, idParamsSchema, messageSchema } from '../../../shared/schemas/common.ts';
import {
  gameEntries,
  games,
  ledgerEntries,
  ledgerTransactions,
  payments,
  plans,
  users,
  withdrawals,
} from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { requireUser } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';
import { loadApiUser, publicUsername } from '../users/serialize.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';

export async function adminUserRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  typed.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Search players by name, e-mail, phone or username',
        querystring: adminUserQuerySchema,
        response: {
          200: envelope(adminUserPageSchema),
        },
      },
    },
    async (request) => {
      const { q, page } = request.query;
      const term = q
        ? `%${q.replace(/^plucker_/i, '').replace(/[%_\\]/g, (c) => `\\${c}`)}%`
        : null;
      const where = term
        ? and(
            isNull(users.deletedAt),
            or(
              ilike(users.fullname, term),
              ilike(users.email, term),
              ilike(users.phoneNumber, term),
              ilike(users.handle, term),
            ),
          )
        : isNull(users.deletedAt);
      const [rows, [total]] = await Promise.all([
        app.db
          .select({ row: users, features: plans.features })
          .from(users)
          .leftJoin(plans, eq(plans.id, users.planId))
          .where(where)
          .orderBy(desc(users.createdAt))
          .limit(20)
          .offset((page - 1) * 20),
        app.db.select({ total: count() }).from(users).where(where),
      ]);
      return {
        data: {
          users: rows.map(({ row, features }) => ({
            id: row.id,
            handle: row.handle,
            username: publicUsername(row.handle, features?.getVerifiedBadge === true),
            fullname: row.fullname,
            email: row.email,
            phoneNumber: row.phoneNumber,
            role: row.role,
            accountBalance: koboToNaira(row.accountBalance),
            suspended: row.suspendedAt !== null,
            createdAt: row.createdAt.toISOString(),
          })),
          pagination: paginate(total?.total ?? 0, page, 20),
        },
      };
    },
  );

  typed.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'A player with their wallet ledger, plays, payments and withdrawals',
        params: idParamsSchema,
        response: {
          200: envelope(adminUserDetailSchema),
        },
      },
    },
    async (request) => {
      const id = request.params.id;
      const user = await loadApiUser(app.db, id);
      const [[row], ledger, plays, paymentRows, withdrawalRows] = await Promise.all([
        app.db.select({ reason: users.suspendedReason }).from(users).where(eq(users.id, id)),
        app.db
          .select({
            id: ledgerEntries.id,
            kind: ledgerTransactions.kind,
            description: ledgerTransactions.description,
            amount: ledgerEntries.amount,
            createdAt: ledgerEntries.createdAt,
          })
          .from(ledgerEntries)
          .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
          .where(and(eq(ledgerEntries.userId, id), eq(ledgerEntries.account, ACCOUNTS.wallet)))
          .orderBy(desc(ledgerEntries.id))
          .limit(100),
        app.db
          .select({ title: games.title, entry: gameEntries })
          .from(gameEntries)
          .innerJoin(games, eq(games.id, gameEntries.gameId))
          .where(eq(gameEntries.userId, id))
          .orderBy(desc(gameEntries.id))
          .limit(100),
        app.db
          .select()
          .from(payments)
          .where(eq(payments.userId, id))
          .orderBy(desc(payments.createdAt))
          .limit(100),
        app.db
          .select()
          .from(withdrawals)
          .where(eq(withdrawals.userId, id))
          .orderBy(desc(withdrawals.createdAt))
          .limit(100),
      ]);
      return {
        data: {
          user,
          suspendedReason: row?.reason ?? null,
          ledger: ledger.map((entry) => ({
            ...entry,
            amount: koboToNaira(entry.amount),
            createdAt: entry.createdAt.toISOString(),
          })),
          plays: plays.map(({ title, entry }) => ({
            gameTitle: title,
            answer: entry.answer,
            amountPaid: koboToNaira(entry.amountPaid),
            isWinner: entry.isWinner,
            createdAt: entry.createdAt.toISOString(),
          })),
          payments: paymentRows.map((p) => ({
            reference: p.reference,
            method: p.method,
            mode: p.mode,
            amount: koboToNaira(p.amount),
            status: p.status,
            createdAt: p.createdAt.toISOString(),
          })),
          withdrawals: withdrawalRows.map((w) => ({
            id: w.id,
            amount: koboToNaira(w.amount),
            fee: koboToNaira(w.fee),
            status: w.status,
            holdReasons: holdReasonsOf(w.holdReasons),
            createdAt: w.createdAt.toISOString(),
          })),
        },
      };
    },
  );

  for (const suspend of [true, false]) {
    typed.post(
      `/users/:id/${suspend ? 'suspend' : 'unsuspend'}`,
      {
        schema: {
          tags,
          summary: suspend
            ? 'Suspend a player: their tokens stop working and login says why'
            : 'Lift a suspension',
          params: idParamsSchema,
          body: suspend ? suspendBodySchema : z.object({}).optional(),
          response: { 200: messageSchema },
        },
      },
      async (request) => {
        const adminId = requireUser(request).id;
        const reason = suspend ? (request.body as { reason: string }).reason : null;
        if (suspend && request.params.id === adminId)
          throw badRequest('You cannot suspend yourself');
        await inTransaction(app.db, async (tx) => {
          const [before] = await tx
            .select({ suspendedAt: users.suspendedAt, suspendedReason: users.suspendedReason })
            .from(users)
            .where(eq(users.id, request.params.id))
            .for('update');
          if (!before) throw notFound('User not found');
          const [after] = await tx
            .update(users)
            .set(
              suspend
                ? { suspendedAt: app.clock.now(), suspendedReason: reason }
                : { suspendedAt: null, suspendedReason: null },
            )
            .where(eq(users.id, request.params.id))
            .returning({ suspendedAt: users.suspendedAt, suspendedReason: users.suspendedReason });
          await recordAudit(tx, {
            adminId,
            action: suspend ? 'user.suspend' : 'user.unsuspend',
            targetType: 'user',
            targetId: request.params.id,
            before,
            after,
          });
        });
        app.tokens.forgetUser(request.params.id);
        return { message: suspend ? 'Player suspended' : 'Suspension lifted' };
      },
    );
  }

  typed.post(
    '/users/:id/adjust',
    {
      schema: {
        tags,
        summary: 'A manual wallet adjustment: one balanced ledger transaction with a reason',
        params: idParamsSchema,
        body: adjustmentBodySchema,
        response: { 200: messageSchema.extend({ data: adjustmentResultSchema }) },
      },
    },
    async (request) => {
      const adminId = requireUser(request).id;
      const amount = nairaToKobo(request.body.amount);
      const balance = await inTransaction(app.db, async (tx) => {
        const [before] = await tx
          .select({ balance: users.accountBalance })
          .from(users)
          .where(eq(users.id, request.params.id))
          .for('update');
        if (!before) throw notFound('User not found');
        await post(
          tx,
          {
            kind: 'adjustment',
            reference: `adjustment:${randomUUID()}`,
            description: `Adjustment by operator: ${request.body.reason}`,
            lines: [
              { account: ACCOUNTS.wallet, userId: request.params.id, amount },
              { account: ACCOUNTS.adjustments, amount: -amount },
            ],
          },
          { insufficientMessage: 'The wallet does not hold enough to take that amount' },
        );
        const [after] = await tx
          .select({ balance: users.accountBalance })
          .from(users)
          .where(eq(users.id, request.params.id));
        await recordAudit(tx, {
          adminId,
          action: 'wallet.adjust',
          targetType: 'user',
          targetId: request.params.id,
          before: { ...before, reason: request.body.reason },
          after,
        });
        await notify(
          tx,
          request.params.id,
          'Wallet adjusted',
          `Your wallet was ${amount > 0n ? 'credited' : 'debited'} ${formatNaira(Math.abs(request.body.amount))} by the Pluckers team: ${request.body.reason}.`,
        );
        return after?.balance ?? 0n;
      });
      return { message: 'Wallet adjusted', data: { accountBalance: koboToNaira(balance) } };
    },
  );
}
