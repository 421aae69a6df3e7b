import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FairnessCrypto } from '../../../shared/fairness.ts';
import type { Executor } from '../../db/client.ts';
import { appendFairnessRecord } from '../fairness/log.ts';

/** A fresh secret draw seed and the sha256 commitment published before anyone plays. */
export function createDrawSeed(): { seed: string; commitment: string } {
  const seed = randomBytes(32).toString('hex');
  return { seed, commitment: commitmentFor(seed) };
}

export function commitmentFor(seedHex: string): string {
  return createHash('sha256').update(Buffer.from(seedHex, 'hex')).digest('hex');
}

/** Node's synchronous hashes: the server's draw runs the shared algorithm without awaiting I/O. */
export const nodeFairnessCrypto: FairnessCrypto = {
  sha256: (data) => createHash('sha256').update(data).digest(),
  hmacSha256: (key, data) => createHmac('sha256', key).update(data).digest(),
};

/** Puts a new game's commitment in the public fairness log, in the transaction creating it. */
export async function publishCommitment(
  db: Executor,
  game: { id: string; commitment: string; createdAt: Date },
): Promise<void> {
  await appendFairnessRecord(db, {
    kind: 'commitment',
    gameId: game.id,
    fields: { commitment: game.commitment, createdAt: game.createdAt.toISOString() },
  });
}
