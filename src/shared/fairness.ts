/**
 * The provably fair draw of docs/product.md#fairness, shared by the server, the browser's Fairness view and
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
import { bytesToHex, hexToBytes } from './hex.ts';

export interface FairnessCrypto {
  sha256(data: Uint8Array): Uint8Array | Promise<Uint8Array>;
  hmacSha256(key: Uint8Array, data: Uint8Array): Uint8Array | Promise<Uint8Array>;
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
  return { entriesDigest, winners: await pickWinners(crypto, seedHex, entriesDigest, ordered) };
}

/**
 * Version 2 (games created since sealed draws): the stream's message is
 * sha256("v2:" + merkleRoot + ":" + beaconRandomness) instead of the entries digest, so the
 * winners depend on the seed committed before play, the entries sealed at close and a public
 * beacon round that did not exist at close. Knowing the seed no longer tells anyone who would win.
 */
export async function drawMixOf(
  crypto: FairnessCrypto,
  merkleRoot: string,
  beaconRandomness: string,
): Promise<string> {
  const text = `v2:${merkleRoot}:${beaconRandomness}`;
  return bytesToHex(await crypto.sha256(new TextEncoder().encode(text)));
}

export async function drawWinnersV2(
  crypto: FairnessCrypto,
  seedHex: string,
  entryIds: readonly number[],
  merkleRoot: string,
  beaconRandomness: string,
): Promise<number[]> {
  const ordered = [...entryIds].sort((a, b) => a - b);
  const mix = await drawMixOf(crypto, merkleRoot, beaconRandomness);
  return pickWinners(crypto, seedHex, mix, ordered);
}

/** Partial Fisher–Yates over entries in id order, driven by HMAC(seed, message ‖ counter). */
async function pickWinners(
  crypto: FairnessCrypto,
  seedHex: string,
  messageHex: string,
  ordered: readonly number[],
): Promise<number[]> {
  const count = winnerCount(ordered.length);
  const stream = randomStream(crypto, hexToBytes(seedHex), hexToBytes(messageHex));
  const pool = [...ordered];
  for (let i = 0; i < count; i += 1) {
    const j = i + (await stream.below(pool.length - i));
    const picked = pool[j] as number;
    pool[j] = pool[i] as number;
    pool[i] = picked;
  }
  return pool.slice(0, count);
}

/** sha256 of the winning entry ids in ascending order joined by ',': what the log records. */
export async function winnersDigestOf(
  crypto: FairnessCrypto,
  winners: readonly number[],
): Promise<string> {
  const sorted = [...winners].sort((a, b) => a - b);
  return bytesToHex(await crypto.sha256(new TextEncoder().encode(sorted.join(','))));
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
