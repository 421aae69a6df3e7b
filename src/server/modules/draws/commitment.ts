import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FairnessCrypto } from '../../../shared/fairness.ts';

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
