import { hash } from 'node:crypto';
import { and, asc, eq, gt } from 'drizzle-orm';
import {
  answerHashOf,
  MerkleBuilder,
  type SealedEntry,
  type Sha256,
} from '../../../shared/merkle.ts';
import type { Executor } from '../../db/client.ts';
import { gameEntries, games } from '../../db/schema.ts';
import { appendFairnessRecord } from '../fairness/log.ts';

/** One-shot native sha256: sealing 1,000,000 entries hashes 2,000,000 times. */
export const nodeSha256: Sha256 = {
  bytes: (data) => hash('sha256', data, 'buffer'),
  hex: (data) => hash('sha256', data, 'hex'),
};

/**
 * Rows read per query while walking a game's entries: a million-entry game is never held in
 * Node's memory at once, only one batch and what is built from it. Small enough that a batch
 * dies young: sealing 1,000,000 entries grew the RSS by ~115 MB in batches of 10,000 (rows kept
 * across awaits reach V8's old space) and by ~45 MB in batches of 2,000.
 */
export const ENTRY_BATCH = 2_000;

/**
 * A game's entries in sealed (id) order, `batchSize` at a time, keyset-paged on the id so every
 * query starts where the last one ended (works in a transaction and on PGlite, unlike a cursor).
 * The next batch is asked for before this one is handed over, so PostgreSQL reads it while the
 * caller hashes.
 */
export async function* entryBatches<Row extends { id: number }>(
  readAfter: (afterId: number, limit: number) => Promise<Row[]>,
  batchSize = ENTRY_BATCH,
): AsyncGenerator<Row[]> {
  let next = readAfter(0, batchSize);
  for (;;) {
    const rows = await next;
    const last = rows[rows.length - 1];
    if (!last) return;
    const more = rows.length === batchSize;
    if (more) {
      next = readAfter(last.id, batchSize);
      // Awaited on the next turn; a caller that stops early must not leave it unhandled.
      next.catch(() => {});
    }
    yield rows;
    if (!more) return;
  }
}

/** What the Merkle tree commits to for each entry, batch by batch in sealed order. */
export async function* sealedEntryBatches(
  db: Executor,
  gameId: string,
  batchSize = ENTRY_BATCH,
): AsyncGenerator<SealedEntry[]> {
  const batches = entryBatches(
    (afterId, limit) =>
      db
        .select({ id: gameEntries.id, playerId: gameEntries.userId, answer: gameEntries.answer })
        .from(gameEntries)
        .where(and(eq(gameEntries.gameId, gameId), gt(gameEntries.id, afterId)))
        .orderBy(asc(gameEntries.id))
        .limit(limit),
    batchSize,
  );
  for await (const rows of batches)
    yield rows.map((row) => ({
      entryId: row.id,
      playerId: row.playerId,
      answerHash: answerHashOf(row.id, row.answer, nodeSha256),
    }));
}

/** The Merkle root over a game's entries as they are now, streamed in batches. */
export async function streamedMerkleRoot(
  db: Executor,
  gameId: string,
  batchSize = ENTRY_BATCH,
): Promise<{ merkleRoot: string; entries: number }> {
  const builder = new MerkleBuilder(nodeSha256);
  for await (const batch of sealedEntryBatches(db, gameId, batchSize))
    for (const entry of batch) builder.add(entry);
  return { merkleRoot: builder.root(), entries: builder.count };
}

/**
 * Seals a game's entries in the transaction that closes it: the Merkle root goes on the game
 * and into the fairness log before the beacon round the draw will use exists, so no entry can be
 * added, removed or changed once anyone could know the outcome. Games of the seed-only rules
 * (version 1) are left as they were promised.
 */
export async function sealEntries(tx: Executor, gameId: string): Promise<void> {
  const [game] = await tx
    .select({ drawVersion: games.drawVersion, closedAt: games.closedAt })
    .from(games)
    .where(eq(games.id, gameId));
  if (!game || game.drawVersion < 2 || !game.closedAt) return;
  const { merkleRoot, entries } = await streamedMerkleRoot(tx, gameId);
  await tx.update(games).set({ merkleRoot }).where(eq(games.id, gameId));
  await appendFairnessRecord(tx, {
    kind: 'seal',
    gameId,
    fields: { closedAt: game.closedAt.toISOString(), entries, merkleRoot },
  });
}
