import { createHash, hash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from './hex.ts';
import {
  answerHashOf,
  MerkleBuilder,
  merkleRootOf,
  type SealedEntry,
  type Sha256,
} from './merkle.ts';

const sha = (...parts: Array<Uint8Array | string>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const leaf = (entry: SealedEntry) =>
  sha(Uint8Array.of(0), `${entry.entryId}:${entry.playerId}:${entry.answerHash}`);
const node = (left: Uint8Array, right: Uint8Array) => sha(Uint8Array.of(1), left, right);

const entry = (entryId: number): SealedEntry => ({
  entryId,
  playerId: `player-${entryId}`,
  answerHash: answerHashOf(entryId, `answer ${entryId}`),
});

/** The documented tree level by level, every level held: what the streamed builder must equal. */
function levelByLevelRoot(entries: readonly SealedEntry[]): string {
  if (entries.length === 0) return bytesToHex(sha(''));
  let level: Uint8Array[] = entries.map(leaf);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array;
      const right = level[i + 1];
      next.push(right ? node(left, right) : left);
    }
    level = next;
  }
  return bytesToHex(level[0] as Uint8Array);
}

describe('the seal of a game (Merkle root)', () => {
  it('streamed one entry at a time, equals the level-by-level tree for every size, odd or even', () => {
    const entries = Array.from({ length: 4099 }, (_, i) => entry(i + 1));
    const sizes = [
      ...Array.from({ length: 70 }, (_, i) => i),
      127,
      128,
      129,
      1023,
      1025,
      4097,
      4099,
    ];
    for (const size of sizes) {
      const builder = new MerkleBuilder();
      for (const sealed of entries.slice(0, size)) builder.add(sealed);
      expect(builder.count).toBe(size);
      expect(builder.root(), `${size} entries`).toBe(levelByLevelRoot(entries.slice(0, size)));
    }
  });

  it('can be asked for its root midway and go on adding', () => {
    const entries = Array.from({ length: 11 }, (_, i) => entry(i + 1));
    const builder = new MerkleBuilder();
    for (const [i, sealed] of entries.entries()) {
      builder.add(sealed);
      expect(builder.root()).toBe(levelByLevelRoot(entries.slice(0, i + 1)));
    }
  });

  it('is the documented tree: leaves, pairs, an odd node carried up unchanged', () => {
    const [a, b, c] = [entry(1), entry(2), entry(3)];
    expect(merkleRootOf([])).toBe(bytesToHex(sha('')));
    expect(merkleRootOf([a])).toBe(bytesToHex(leaf(a)));
    expect(merkleRootOf([a, b])).toBe(bytesToHex(node(leaf(a), leaf(b))));
    expect(merkleRootOf([a, b, c])).toBe(bytesToHex(node(node(leaf(a), leaf(b)), leaf(c))));
    expect(answerHashOf(7, 'Jollof')).toBe(bytesToHex(sha('7:Jollof')));
  });

  it("moves with any entry's id, player, answer or place", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.nat(), fc.nat(), (size, pick, field) => {
        const entries = Array.from({ length: size }, (_, i) => entry(i + 1));
        const root = merkleRootOf(entries);
        const index = pick % size;
        const target = entries[index] as SealedEntry;
        const changed = [...entries];
        changed[index] = [
          { ...target, entryId: target.entryId + 1000 },
          { ...target, playerId: `${target.playerId}x` },
          { ...target, answerHash: answerHashOf(target.entryId, 'another answer') },
        ][field % 3] as SealedEntry;
        expect(merkleRootOf(changed)).not.toBe(root);
        const swapped = [...entries];
        swapped[0] = entries[1] as SealedEntry;
        swapped[1] = entries[0] as SealedEntry;
        expect(merkleRootOf(swapped)).not.toBe(root);
        expect(merkleRootOf(entries.slice(0, -1))).not.toBe(root);
      }),
    );
  });

  it('gives Node and the browser the same hashes and root (native sha256 on text, or noble)', () => {
    // The server's hasher: Node encodes text as UTF-8 itself and writes the hex.
    const native: Sha256 = {
      bytes: (data) => hash('sha256', data, 'buffer'),
      hex: (data) => hash('sha256', data, 'hex'),
    };
    const answers = ['Jollof', 'Ẹ kú àárọ̀ 🇳🇬', 'naïve café', ''];
    for (const [i, answer] of answers.entries())
      expect(answerHashOf(i + 1, answer, native)).toBe(answerHashOf(i + 1, answer));
    const entries = Array.from({ length: 1001 }, (_, i) => ({
      ...entry(i + 1),
      playerId: `plücker-${i + 1}`,
    }));
    expect(merkleRootOf(entries, native)).toBe(merkleRootOf(entries));
  });
});
