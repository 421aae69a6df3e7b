import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  secondFactorCodeBodySchema,
  secondFactorConfirmedSchema,
  secondFactorEnrolmentSchema,
  secondFactorProvedSchema,
  secondFactorStatusSchema,
} from '../../../shared/schemas/second-factor.ts';
import type { AppConfig } from '../../config.ts';
import { requireUser } from '../../plugins/auth.ts';
import {
  confirmEnrolment,
  proveSecondFactor,
  secondFactorStatus,
  startEnrolment,
} from './second-factor.ts';
import { authContextOf } from './service.ts';

/**
 * The operator's second factor, under /api/v1/admin/second-factor: the only operator routes a
 * session may call before proving it (api.ts registers them behind requireOperatorAccount).
 */
export async function operatorSecondFactorRoutes(
  app: FastifyInstance,
  { config }: { config: AppConfig },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const context = authContextOf(app, config.publicUrl);
  const tags = ['admin'];

  typed.get(
    '/second-factor',
    {
      schema: {
        tags,
        summary: 'Whether the operator has an authenticator, and when this session last proved it',
        response: { 200: envelope(secondFactorStatusSchema) },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { data: await secondFactorStatus(app.db, user.id, user.sessionId) };
    },
  );

  typed.post(
    '/second-factor/enrolment',
    {
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: a new secret and its otpauth URI',
        description:
          'Only while no authenticator is confirmed (409 after): the secret is shown during enrolment only.',
        response: { 200: envelope(secondFactorEnrolmentSchema) },
      },
    },
    async (request) => ({ data: await startEnrolment(context, requireUser(request).id) }),
  );

  typed.post(
    '/second-factor/enrolment/confirm',
    {
      schema: {
        tags,
        summary:
          'Confirm the authenticator with its current code: answers the recovery codes, once',
        body: secondFactorCodeBodySchema,
        response: { 200: envelope(secondFactorConfirmedSchema) },
      },
    },
    async (request) => ({
      message: 'Authenticator set up',
      data: await confirmEnrolment(context, requireUser(request), request.body.code),
    }),
  );

  typed.post(
    '/second-factor/verify',
    {
      schema: {
        tags,
        summary:
          "Prove the second factor on this session: the authenticator's code or a recovery code",
        description:
          'Wrong codes count in the per-account throttle (429 with Retry-After); each code is accepted once.',
        body: secondFactorCodeBodySchema,
        response: { 200: envelope(secondFactorProvedSchema) },
      },
    },
    async (request) => ({
      message: 'Code accepted',
      data: await proveSecondFactor(context, requireUser(request), request.body.code),
    }),
  );
}
