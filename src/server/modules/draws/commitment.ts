import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FairnessCrypto } from '../../../shared/fairness.ts';
import type { Executor } from '../../db/client.ts';
import { appendFairnessRecord } from '../fairness/log.ts';

const DIGEST_CHUNK = 10_000;

/**
 * entriesDigestOf (sha256 of the ids joined by commas) for ids already in ascending order, fed
 * to the hash in chunks: a million ids would otherwise be one 7 MB text and its bytes.
 */
export function entriesDigestOfSorted(sortedIds: readonly number[]): string {
  const digest = createHash('sha256');
  for (let i = 0; i < sortedIds.length; i += DIGEST_CHUNK) {
    if (i > 0) digest.update(',');
    digest.update(sortedIds.slice(i, i + DIGEST_CHUNK).join(','));
  }
  return digest.digest('hex');
}

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
