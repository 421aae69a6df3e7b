import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { ExclusionDuration } from '../../../shared/responsible-play.ts';

/** Starts a break as the player does, through the route, and checks it started. */
export async function startBreak(
  app: FastifyInstance,
  headers: Record<string, string>,
  duration: ExclusionDuration = '7d',
): Promise<void> {
  const started = await app.inject({
    method: 'POST',
    url: '/api/v1/responsible-play/exclusion',
    headers,
    payload: { duration, confirm: true },
  });
  expect(started.statusCode, started.body).toBe(201);
}
