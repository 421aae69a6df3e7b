import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.ts';
import { AppError, codeForStatus, ErrorCode } from '../errors.ts';

const INTERNAL_MESSAGE = 'Something went wrong';
const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a few seconds.';
/** About how long a failover of the database takes to be noticed and finished. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * One error handler for the whole API: every error body is `{ message, statusCode, code }`
 * (the code from src/shared/error-codes.ts), validation failures carry the first failing
 * rule's text, and 5xx details stay in the logs.
 */
export default fp(
  async function errorsPlugin(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const message = error.validation[0]?.message ?? 'Invalid request';
        return reply
          .status(400)
          .send({ message, statusCode: 400, code: ErrorCode.ValidationFailed });
      }
      if (error instanceof AppError) {
        if (error.retryAfterSeconds !== undefined)
          reply.header('retry-after', error.retryAfterSeconds);
        return reply.status(error.statusCode).send({
          message: error.message,
          statusCode: error.statusCode,
          code: error.code,
          ...(error.data === undefined ? {} : { data: error.data }),
        });
      }
      if (isResponseSerializationError(error)) {
        request.log.error(
          { err: error, issues: error.cause.issues },
          'response did not match its schema',
        );
        return reply
          .status(500)
          .send({ message: INTERNAL_MESSAGE, statusCode: 500, code: ErrorCode.Internal });
      }
      if (isDatabaseUnavailable(error)) {
        // A failover or restart of PostgreSQL: worth retrying, unlike a bug, and said so.
        request.log.warn({ err: error }, 'request failed: the database is unavailable');
        return reply.status(503).header('retry-after', DATABASE_RETRY_AFTER_SECONDS).send({
          message: DATABASE_UNAVAILABLE_MESSAGE,
          statusCode: 503,
          code: ErrorCode.Unavailable,
        });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply
          .status(status)
          .send({ message: error.message, statusCode: status, code: codeForStatus(status) });
      }
      request.log.error({ err: error }, 'request failed');
      // A status below 400 on an error (e.g. a library's 3xx) is still a server failure.
      const serverStatus = status >= 500 && status < 600 ? status : 500;
      return reply.status(serverStatus).send({
        message: INTERNAL_MESSAGE,
        statusCode: serverStatus,
        code: codeForStatus(serverStatus),
      });
    });
  },
  { name: 'errors' },
);
