import { createHash, randomBytes } from 'node:crypto';

/** A fresh secret draw seed and the sha256 commitment published before anyone plays. */
export function createDrawSeed(): { seed: string; commitment: string } {
  const seed = randomBytes(32).toString('hex');
  return { seed, commitment: commitmentFor(seed) };
}

export function commitmentFor(seedHex: string): string {
  return createHash('sha256').update(Buffer.from(seedHex, 'hex')).digest('hex');
}
