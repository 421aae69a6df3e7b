/**
 * The seal of a game's entries at close: a Merkle tree over the entries in id order, so the
 * published root fixes every entry (id, player, answer) and its place before any randomness is
 * known, and one entry can be shown to be in it without publishing the rest.
 *
 * leaf   = sha256(0x00 ‖ "<entryId>:<playerId>:<answerHash>")
 * node   = sha256(0x01 ‖ left ‖ right); an odd node at the end of a level moves up unchanged
 * answerHash = sha256("<entryId>:<answer>"), so the seal fixes answers without showing them
 * The root of no entries is sha256 of nothing.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from './hex.ts';

export interface SealedEntry {
  entryId: number;
  playerId: string;
  answerHash: string;
}

/**
 * sha256 of UTF-8 text or bytes. Portable by default (noble); the server passes Node's native
 * one-shot hash, which takes the text as it is and writes hex itself: sealing 100,000 entries
 * hashes 200,000 times, and the encoding around each hash cost more than the hash.
 */
export interface Sha256 {
  bytes(data: string | Uint8Array): Uint8Array;
  hex(data: string): string;
}

const encoder = new TextEncoder();
const LEAF = 0x00;
const NODE = 0x01;

const toBytes = (data: string | Uint8Array) =>
  typeof data === 'string' ? encoder.encode(data) : data;
export const portableSha256: Sha256 = {
  bytes: (data) => sha256(toBytes(data)),
  hex: (data) => bytesToHex(sha256(toBytes(data))),
};

export function answerHashOf(entryId: number, answer: string, hash = portableSha256): string {
  return hash.hex(`${entryId}:${answer}`);
}

// U+0000 encodes to the single byte 0x00: the leaf prefix and the text in one encoding.
const LEAF_PREFIX = String.fromCharCode(LEAF);

function leafHash(entry: SealedEntry, hash: Sha256): Uint8Array {
  return hash.bytes(`${LEAF_PREFIX}${entry.entryId}:${entry.playerId}:${entry.answerHash}`);
}

/**
 * Root over entries already in id order (the caller's order is the sealed order). `hash` lets the
 * server use Node's native sha256 on 100,000 entries; the browser uses the same code with noble's.
 */
export function merkleRootOf(entries: readonly SealedEntry[], hash = portableSha256): string {
  if (entries.length === 0) return bytesToHex(hash.bytes(new Uint8Array(0)));
  let level = entries.map((entry) => leafHash(entry, hash));
  const pair = new Uint8Array(65);
  pair[0] = NODE;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array;
      const right = level[i + 1];
      if (!right) {
        next.push(left);
        continue;
      }
      pair.set(left, 1);
      pair.set(right, 33);
      next.push(hash.bytes(pair));
    }
    level = next;
  }
  return bytesToHex(level[0] as Uint8Array);
}

/** Whether `hex` looks like a sha256 (64 lower-case hex digits). */
export function isSha256Hex(hex: string): boolean {
  return /^[0-9a-f]{64}$/.test(hex) && hexToBytes(hex).length === 32;
}
