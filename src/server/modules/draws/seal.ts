import { hash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { answerHashOf, merkleRootOf, type Sha256 } from '../../../shared/merkle.ts';
import type { Executor } from '../../db/client.ts';
import { gameEntries, games } from '../../db/schema.ts';
import { appendFairnessRecord } from '../fairness/log.ts';

/** One-shot native sha256: sealing 100,000 entries hashes 200,000 times. */
const nodeSha256: Sha256 = {
  bytes: (data) => hash('sha256', data, 'buffer'),
  hex: (data) => hash('sha256', data, 'hex'),
};

/** The entries in sealed order with what the Merkle tree commits to for each. */
export async function sealedEntries(db: Executor, gameId: string) {
  const rows = await db
    .select({ entryId: gameEntries.id, playerId: gameEntries.userId, answer: gameEntries.answer })
    .from(gameEntries)
    .where(eq(gameEntries.gameId, gameId))
    .orderBy(asc(gameEntries.id));
  return rows.map((row) => ({
    entryId: row.entryId,
    playerId: row.playerId,
    answerHash: answerHashOf(row.entryId, row.answer, nodeSha256),
  }));
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
  const entries = await sealedEntries(tx, gameId);
  const merkleRoot = merkleRootOf(entries, nodeSha256);
  await tx.update(games).set({ merkleRoot }).where(eq(games.id, gameId));
  await appendFairnessRecord(tx, {
    kind: 'seal',
    gameId,
    fields: { closedAt: game.closedAt.toISOString(), entries: entries.length, merkleRoot },
  });
}
