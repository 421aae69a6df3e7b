import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../shared/schemas/common.ts';

// The dialect of every schema in the document (jsonSchemaTransform reads it, errorBody below
// is written for it): OpenAPI 3.0's, so `nullable` rather than `type: [..., 'null']`.
const OPENAPI_VERSION = '3.0.3';

// Errors never pass a route's serializer (plugins/errors.ts writes them all alike), so they are
// declared here once rather than on each route, where a wrong one would turn an error into a 500.
const { $schema: _dialect, ...errorBody } = z.toJSONSchema(errorBodySchema, {
  target: 'openapi-3.0',
  io: 'output',
});
const errorResponse = {
  ...errorBody,
  description: 'An error: `message` is fit to show a player',
};

/**
 * The zod schemas as JSON schemas, plus what every API route shares: the error body, and
 * redirects documented by their `Location` rather than a body they do not have.
 */
export const documentRoute: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input);
  if (!url.startsWith('/api/') || schema.hide) return { schema, url };
  const response: Record<string, unknown> = {};
  for (const [status, declared] of Object.entries(schema.response ?? {})) {
    response[status] = status.startsWith('3')
      ? {
          type: 'null',
          description: (declared as { description?: string }).description ?? 'Redirect',
          headers: { location: { type: 'string', description: 'Where the browser goes next' } },
        }
      : declared;
  }
  response['4XX'] ??= errorResponse;
  response['5XX'] ??= errorResponse;
  return { schema: { ...schema, response }, url };
};

/** OpenAPI generated from the same zod schemas the routes validate with. */
export default fp(
  async function docsPlugin(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        openapi: OPENAPI_VERSION,
        info: {
          title: 'Pluckers API',
          description: 'Play-to-earn contests in naira. Amounts are naira; times are ISO-8601.',
          version: '1.0.0',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: documentRoute,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'docs' },
);
