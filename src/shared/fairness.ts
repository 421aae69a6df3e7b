/**
 * The provably fair draw of DESIGN §4, shared by the server, the browser's Fairness view and
 * `npm run verify-draw`, so all three compute exactly the same thing.
 *
 * 1. Before play the server publishes commitment = sha256(seed), seed being 32 secret bytes.
 * 2. At the draw, entries are ordered by id; entriesDigest = sha256 of their ids joined by ','.
 * 3. Block i of a random stream is HMAC-SHA256(key = seed, message = entriesDigest ‖ i as a
 *    64-bit big-endian integer); each block yields eight 32-bit big-endian numbers.
 * 4. Uniform integers in [0, m) come from those numbers by rejection sampling (no modulo bias).
 * 5. A partial Fisher–Yates shuffle picks floor(n / 5) distinct entries: the winners.
 */
import { PLAYERS_PER_WINNER } from './constants.ts';

export interface FairnessCrypto {
  sha256(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
  hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new Error('not a hex string');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1)
    bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function winnerCount(players: number): number {
  return Math.floor(players / PLAYERS_PER_WINNER);
}

export async function commitmentOf(crypto: FairnessCrypto, seedHex: string): Promise<string> {
  return bytesToHex(await crypto.sha256(hexToBytes(seedHex)));
}

export async function entriesDigestOf(
  crypto: FairnessCrypto,
  entryIds: readonly number[],
): Promise<string> {
  const sorted = [...entryIds].sort((a, b) => a - b);
  return bytesToHex(await crypto.sha256(new TextEncoder().encode(sorted.join(','))));
}

/** Deterministic stream of uniform 32-bit numbers from (seed, entriesDigest). */
function randomStream(crypto: FairnessCrypto, seed: Uint8Array, digest: Uint8Array) {
  let counter = 0n;
  let block: DataView | null = null;
  let offset = 0;
  const message = new Uint8Array(digest.length + 8);
  message.set(digest, 0);
  const counterView = new DataView(message.buffer, digest.length, 8);

  async function nextUint32(): Promise<number> {
    if (!block || offset >= block.byteLength) {
      counterView.setBigUint64(0, counter);
      counter += 1n;
      const bytes = await crypto.hmacSha256(seed, message);
      block = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      offset = 0;
    }
    const value = block.getUint32(offset);
    offset += 4;
    return value;
  }

  /** Uniform in [0, bound) by rejection: numbers at or above the largest multiple are redrawn. */
  async function below(bound: number): Promise<number> {
    const limit = Math.floor(2 ** 32 / bound) * bound;
    for (;;) {
      const value = await nextUint32();
      if (value < limit) return value % bound;
    }
  }

  return { below };
}

export interface DrawResult {
  entriesDigest: string;
  /** Winning entry ids, in the order they were drawn. */
  winners: number[];
}

export async function drawWinners(
  crypto: FairnessCrypto,
  seedHex: string,
  entryIds: readonly number[],
): Promise<DrawResult> {
  const ordered = [...entryIds].sort((a, b) => a - b);
  const entriesDigest = await entriesDigestOf(crypto, ordered);
  const count = winnerCount(ordered.length);
  const stream = randomStream(crypto, hexToBytes(seedHex), hexToBytes(entriesDigest));
  const pool = [...ordered];
  for (let i = 0; i < count; i += 1) {
    const j = i + (await stream.below(pool.length - i));
    const picked = pool[j] as number;
    pool[j] = pool[i] as number;
    pool[i] = picked;
  }
  return { entriesDigest, winners: pool.slice(0, count) };
}

/** Web Crypto (browsers, Node 20+): used by the Fairness view and the verify script. */
export const webFairnessCrypto: FairnessCrypto = {
  async sha256(data) {
    return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data as BufferSource));
  },
  async hmacSha256(key, data) {
    const cryptoKey = await globalThis.crypto.subtle.importKey(
      'raw',
      key as BufferSource,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return new Uint8Array(
      await globalThis.crypto.subtle.sign('HMAC', cryptoKey, data as BufferSource),
    );
  },
};

export interface DrawProof {
  commitment: string;
  seed: string | null;
  entriesDigest: string | null;
  entries: Array<{ entryId: number; username: string }>;
  winners: number[];
}

export type ProofVerdict = { ok: true } | { ok: false; reason: string };

/** Re-runs the whole draw from a published proof. */
export async function verifyDrawProof(
  crypto: FairnessCrypto,
  proof: DrawProof,
): Promise<ProofVerdict> {
  if (!proof.seed || !proof.entriesDigest)
    return { ok: false, reason: 'The draw has not happened yet' };
  if ((await commitmentOf(crypto, proof.seed)) !== proof.commitment) {
    return {
      ok: false,
      reason: 'The revealed seed does not match the commitment published before play',
    };
  }
  const result = await drawWinners(
    crypto,
    proof.seed,
    proof.entries.map((entry) => entry.entryId),
  );
  if (result.entriesDigest !== proof.entriesDigest) {
    return { ok: false, reason: 'The entry list does not match the one the draw used' };
  }
  const expected = [...result.winners].sort((a, b) => a - b).join(',');
  const published = [...proof.winners].sort((a, b) => a - b).join(',');
  if (expected !== published)
    return { ok: false, reason: 'The published winners differ from the recomputed ones' };
  return { ok: true };
}
