import type { Executor } from '../../db/client.ts';
import { enqueueJob } from '../../jobs/queue.ts';
import { sealEntries } from './seal.ts';

export const DRAW_JOB = 'draw';

export const drawJobKey = (gameId: string) => `draw:${gameId}`;

/**
 * Called in the transaction that closes a game: seals its entries (the seal must exist before
 * the beacon round the draw waits for) and queues the draw.
 */
export async function queueDraw(db: Executor, gameId: string, runAt?: Date) {
  await sealEntries(db, gameId);
  await enqueueJob(db, { kind: DRAW_JOB, key: drawJobKey(gameId), payload: { gameId }, runAt });
}
