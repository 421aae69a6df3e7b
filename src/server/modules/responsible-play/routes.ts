import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  playExclusionSchema,
  preferencesBodySchema,
  realityCheckSchema,
  responsiblePlaySchema,
  setLimitBodySchema,
  startExclusionBodySchema,
  statementSchema,
} from '../../../shared/schemas/responsible-play.ts';
import { inTransaction } from '../../db/transaction.ts';
import { requireUser } from '../../plugins/auth.ts';
import { lockLiveAccount } from '../auth/live-account.ts';
import { monthlyStatement, realityCheck, statementCsv } from './activity.ts';
import { startExclusion } from './exclusions.ts';
import { setLimit } from './limits.ts';
import { readResponsiblePlay, updatePreferences } from './service.ts';

const tags = ['responsible-play'];

export async function responsiblePlayRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const base = '/responsible-play';

  typed.get(
    base,
    {
      schema: {
        tags,
        summary: "The caller's limits (with what is used this period), break and reminders",
        response: { 200: envelope(responsiblePlaySchema) },
      },
    },
    async (request) => ({
      data: await readResponsiblePlay(app.db, requireUser(request).id, app.clock.now()),
    }),
  );

  typed.put(
    `${base}/limits`,
    {
      schema: {
        tags,
        summary:
          'Set a deposit or spend limit per day, week or month: lower applies now, higher or removed (null) after 24 hours',
        body: setLimitBodySchema,
        response: { 200: envelope(responsiblePlaySchema) },
      },
    },
    async (request) => {
      const actor = requireUser(request);
      const now = app.clock.now();
      const message = await inTransaction(app.db, async (tx) => {
        await lockLiveAccount(tx, actor, now);
        return setLimit(tx, actor.id, request.body, now);
      });
      return { message, data: await readResponsiblePlay(app.db, actor.id, now) };
    },
  );

  typed.post(
    `${base}/exclusion`,
    {
      schema: {
        tags,
        summary:
          'Start a time-out (24h, 7d, 30d) or self-exclusion (6m, 1y, 5y); it cannot be ended early',
        body: startExclusionBodySchema,
        response: { 201: envelope(playExclusionSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireUser(request);
      const now = app.clock.now();
      const { exclusion, message } = await inTransaction(app.db, async (tx) => {
        await lockLiveAccount(tx, actor, now);
        return startExclusion(tx, actor.id, request.body.duration, now);
      });
      reply.code(201);
      return { message, data: exclusion };
    },
  );

  typed.put(
    `${base}/preferences`,
    {
      schema: {
        tags,
        summary: 'Reality-check reminders (15, 30, 60 minutes or null) and marketing e-mails',
        body: preferencesBodySchema,
        response: { 200: envelope(responsiblePlaySchema) },
      },
    },
    async (request) => {
      const { id } = requireUser(request);
      await updatePreferences(app.db, id, request.body);
      return {
        message: 'Saved',
        data: await readResponsiblePlay(app.db, id, app.clock.now()),
      };
    },
  );

  typed.get(
    `${base}/reality-check`,
    {
      schema: {
        tags,
        summary: 'Time spent and net spent or won since this sign-in started',
        response: { 200: envelope(realityCheckSchema) },
      },
    },
    async (request) => ({
      data: await realityCheck(app.db, requireUser(request), app.clock.now()),
    }),
  );

  typed.get(
    `${base}/statement`,
    {
      schema: {
        tags,
        summary:
          'Deposits, entry fees, winnings and withdrawals per month (Lagos time), last 24 months',
        response: { 200: envelope(statementSchema) },
      },
    },
    async (request) => ({
      data: await monthlyStatement(app.db, requireUser(request).id, app.clock.now()),
    }),
  );

  typed.get(
    `${base}/statement.csv`,
    {
      schema: {
        tags,
        summary: 'The monthly statement as a CSV download (text/csv, naira)',
        response: {
          200: {
            description:
              'One row per month: deposits, entry fees, winnings, withdrawals, other, net',
            content: { 'text/csv': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const now = app.clock.now();
      const statement = await monthlyStatement(app.db, requireUser(request).id, now);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="pluckers-statement-${now.toISOString().slice(0, 10)}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(statementCsv(statement));
    },
  );
}
