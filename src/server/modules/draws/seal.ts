import { hash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { MerkleBuilder, type Sha256 } from '../../../shared/merkle.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { games } from '../../db/schema.ts';
import { appendFairnessRecord } from '../fairness/log.ts';

/** One-shot native sha256: sealing 1,000,000 entries hashes 2,000,000 times. */
export const nodeSha256: Sha256 = {
  bytes: (data) => hash('sha256', data, 'buffer'),
  hex: (data) => hash('sha256', data, 'hex'),
};

/**
 * Rows read per query while walking a game's entries (the public proof): a million-entry game is
 * never held in Node's memory at once, only one batch and what is built from it. Small enough
 * that a batch dies young: walking 1,000,000 entries grew the RSS by ~115 MB in batches of
 * 10,000 (rows kept across awaits reach V8's old space) and by ~45 MB in batches of 2,000.
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

/**
 * An entry's leaf hash computed by PostgreSQL, byte for byte `leafHashOf` (src/shared/merkle.ts):
 * sha256(0x00 ‖ "<id>:<player>:<sha256 hex of "<id>:<answer>">"), texts in UTF-8. The answer's
 * hash is the one stored with the entry when it was written (game_entries.answer_hash, the same
 * bytes: seal.test.ts), so sealing hashes each entry once.
 */
const LEAF_SQL = sql`sha256(decode('00', 'hex') || convert_to(e.id::text || ':' || e.user_id::text
  || ':' || encode(e.answer_hash, 'hex'), 'UTF8'))`;

/**
 * Entries per page of leaves: 32 bytes each, one bytea per page, so a page costs Node one
 * buffer rather than a row object per entry.
 */
export const LEAF_PAGE = 20_000;
/**
 * A game's leaf hashes in sealed (id) order, a page at a time as one buffer of 32-byte leaves.
 * PostgreSQL hashes the entries (two sha256 each) while Node joins the previous page's leaves
 * into the tree: the next page is asked for before this one is handed over, so on two cores
 * the seal's hashing runs on both.
 */
export async function* leafPages(
  db: Executor,
  gameId: string,
  pageSize = LEAF_PAGE,
): AsyncGenerator<Uint8Array> {
  const read = async (afterId: number) => {
    const [page] = await rowsOf<{ last: string | null; n: number; leaves: Uint8Array | null }>(
      db,
      sql`
      SELECT max(id)::text AS last, count(*)::int AS n, string_agg(leaf, ''::bytea ORDER BY id) AS leaves
      FROM (SELECT e.id, ${LEAF_SQL} AS leaf FROM game_entries e
        WHERE e.game_id = ${gameId} AND e.id > ${afterId} ORDER BY e.id LIMIT ${pageSize}) page`,
    );
    return page;
  };
  let next = read(0);
  for (;;) {
    const page = await next;
    if (!page?.leaves || page.n === 0) return;
    const more = page.n === pageSize;
    if (more) {
      next = read(Number(page.last));
      // Awaited on the next turn; a caller that stops early must not leave it unhandled.
      next.catch(() => {});
    }
    yield page.leaves;
    if (!more) return;
  }
}

/** The Merkle root over a game's entries as they are now, streamed in pages of leaves. */
export async function streamedMerkleRoot(
  db: Executor,
  gameId: string,
  pageSize = LEAF_PAGE,
): Promise<{ merkleRoot: string; entries: number }> {
  const builder = new MerkleBuilder(nodeSha256);
  for await (const leaves of leafPages(db, gameId, pageSize))
    for (let at = 0; at < leaves.length; at += LEAF_BYTES)
      builder.addLeaf(leaves.subarray(at, at + LEAF_BYTES));
  return { merkleRoot: builder.root(), entries: builder.count };
}

const LEAF_BYTES = 32;

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
