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

/** An entry's leaf: the server's seal has PostgreSQL compute the same bytes (draws/seal.ts). */
export function leafHashOf(entry: SealedEntry, hash = portableSha256): Uint8Array {
  return hash.bytes(`${LEAF_PREFIX}${entry.entryId}:${entry.playerId}:${entry.answerHash}`);
}

/**
 * Root over entries already in id order (the caller's order is the sealed order). `hash` lets the
 * server use Node's native sha256 on 100,000 entries; the browser uses the same code with noble's.
 */
export function merkleRootOf(entries: readonly SealedEntry[], hash = portableSha256): string {
  const builder = new MerkleBuilder(hash);
  for (const entry of entries) builder.add(entry);
  return builder.root();
}

/**
 * The same root, built one entry at a time while keeping O(log n) nodes: the server seals a
 * million entries streamed from the database in batches. Carrying an odd node up unchanged makes
 * the tree the perfect subtrees of n's binary decomposition (largest first), joined from the
 * right, so `pending[k]` holds the root of a finished subtree of 2^k leaves, like a binary
 * counter's bits.
 */
export class MerkleBuilder {
  readonly #hash: Sha256;
  readonly #pending: Array<Uint8Array | undefined> = [];
  readonly #pair = new Uint8Array(65);
  #count = 0;

  constructor(hash = portableSha256) {
    this.#hash = hash;
    this.#pair[0] = NODE;
  }

  get count(): number {
    return this.#count;
  }

  add(entry: SealedEntry): void {
    this.addLeaf(leafHashOf(entry, this.#hash));
  }

  /** The next entry by its leaf hash (32 bytes), computed elsewhere. */
  addLeaf(leaf: Uint8Array): void {
    let carry = leaf;
    let height = 0;
    for (let pending = this.#pending[height]; pending; pending = this.#pending[height]) {
      carry = this.#join(pending, carry);
      this.#pending[height] = undefined;
      height += 1;
    }
    this.#pending[height] = carry;
    this.#count += 1;
  }

  root(): string {
    if (this.#count === 0) return bytesToHex(this.#hash.bytes(new Uint8Array(0)));
    let right: Uint8Array | undefined;
    for (const subtree of this.#pending) {
      if (!subtree) continue;
      right = right ? this.#join(subtree, right) : subtree;
    }
    return bytesToHex(right as Uint8Array);
  }

  #join(left: Uint8Array, right: Uint8Array): Uint8Array {
    this.#pair.set(left, 1);
    this.#pair.set(right, 33);
    return this.#hash.bytes(this.#pair);
  }
}

/** Whether `hex` looks like a sha256 (64 lower-case hex digits). */
export function isSha256Hex(hex: string): boolean {
  return /^[0-9a-f]{64}$/.test(hex) && hexToBytes(hex).length === 32;
}
