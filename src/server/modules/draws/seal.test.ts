import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { answerHashOf, leafHashOf, merkleRootOf } from '../../../shared/merkle.ts';
import type { Database } from '../../db/client.ts';
import { gameEntries } from '../../db/schema.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createGame, createPlayers } from '../../test/factories.ts';
import { entryBatches, leafPages, nodeSha256, streamedMerkleRoot } from './seal.ts';

const database = testDatabasePerFile();

/** Two games whose entries interleave by id, so paging one game must skip the other's. */
async function interleavedGames(db: Database, players: number) {
  const [first, second] = [await createGame(db), await createGame(db)];
  if (!first || !second) throw new Error('games not created');
  const people = await createPlayers(db, players);
  for (const [i, person] of people.entries()) {
    for (const game of [first, second])
      await db.insert(gameEntries).values({
        gameId: game.id,
        userId: person.id,
        answer: `answer ${i} ${game.title} ✓`,
        amountPaid: 0n,
      });
  }
  return first.id;
}

/** The root over every entry read at once, the way the seal was computed before it streamed. */
async function rootReadAtOnce(db: Database, gameId: string) {
  const rows = await db
    .select({ entryId: gameEntries.id, playerId: gameEntries.userId, answer: gameEntries.answer })
    .from(gameEntries)
    .where(eq(gameEntries.gameId, gameId))
    .orderBy(asc(gameEntries.id));
  return merkleRootOf(
    rows.map((row) => ({ ...row, answerHash: answerHashOf(row.entryId, row.answer) })),
  );
}

describe('the streamed seal', () => {
  it('gives the root of all entries read at once, whatever the batch size (odd game size)', async () => {
    const db = database().db;
    const gameId = await interleavedGames(db, 13);
    const expected = await rootReadAtOnce(db, gameId);
    for (const batchSize of [1, 2, 5, 13, 14, 10_000]) {
      const streamed = await streamedMerkleRoot(db, gameId, batchSize);
      expect(streamed, `batches of ${batchSize}`).toEqual({ merkleRoot: expected, entries: 13 });
    }
  });

  it("hands over every entry's leaf once, in id order, in pages no larger than asked, as the browser hashes it", async () => {
    const db = database().db;
    const gameId = await interleavedGames(db, 9);
    // Answers PostgreSQL and JavaScript must encode alike: accents, quotes, an emoji.
    await db
      .update(gameEntries)
      .set({ answer: `Ẹ kú "àárọ̀" 'o' 🌶️` })
      .where(eq(gameEntries.gameId, gameId));
    const pages: Uint8Array[] = [];
    for await (const page of leafPages(db, gameId, 4)) pages.push(Uint8Array.from(page));
    expect(pages.map((page) => page.length)).toEqual([4 * 32, 4 * 32, 32]);
    const rows = await db
      .select({ entryId: gameEntries.id, playerId: gameEntries.userId, answer: gameEntries.answer })
      .from(gameEntries)
      .where(eq(gameEntries.gameId, gameId))
      .orderBy(asc(gameEntries.id));
    const expected = rows.map((row) =>
      leafHashOf({ ...row, answerHash: answerHashOf(row.entryId, row.answer) }),
    );
    expect(Buffer.concat(pages).toString('hex')).toBe(Buffer.concat(expected).toString('hex'));
  });

  it('asks for no more batches than it needs, and stops early when its caller does', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ id: (i + 1) * 10 }));
    const asked: number[] = [];
    const readAfter = async (afterId: number, limit: number) => {
      asked.push(afterId);
      return rows.filter((row) => row.id > afterId).slice(0, limit);
    };
    const seen: number[] = [];
    for await (const batch of entryBatches(readAfter, 7)) seen.push(...batch.map((row) => row.id));
    expect(seen).toEqual(rows.map((row) => row.id));
    // A short (or empty) batch is the last one: seven rows in batches of 7 need a second look.
    expect(asked).toEqual([0, 70]);

    asked.length = 0;
    for await (const batch of entryBatches(readAfter, 3)) {
      expect(batch.map((row) => row.id)).toEqual([10, 20, 30]);
      break;
    }
    // The next batch was already on its way when the caller stopped; nothing after it.
    expect(asked).toEqual([0, 30]);
  });

  it("stores each entry's answer hash as written, equal to the hash the seal and the proof took before", async () => {
    const db = database().db;
    const gameId = await interleavedGames(db, 8);
    // Texts a byte-level shortcut could get wrong: backslashes and escape-like sequences (the
    // stored hash decodes the text with them doubled), accents, an emoji, quotes, nothing.
    const answers = ['\\', 'a\\000b\\\\c', '\\x41', 'Ẹ kú "àárọ̀" 🌶️', "it's", '', ' ', '\\\\'];
    const entries = await db
      .select({ id: gameEntries.id })
      .from(gameEntries)
      .where(eq(gameEntries.gameId, gameId))
      .orderBy(asc(gameEntries.id));
    for (const [index, entry] of entries.entries())
      await db
        .update(gameEntries)
        .set({ answer: answers[index] as string })
        .where(eq(gameEntries.id, entry.id));
    const rows = await db
      .select({
        id: gameEntries.id,
        answer: gameEntries.answer,
        stored: gameEntries.answerHash,
        // The seal's expression before the hash was stored (convert_to, not a generated column's).
        before: sql<string>`encode(sha256(convert_to(${gameEntries.id}::text || ':' || ${gameEntries.answer}, 'UTF8')), 'hex')`,
      })
      .from(gameEntries)
      .where(eq(gameEntries.gameId, gameId))
      .orderBy(asc(gameEntries.id));
    expect(rows.map((row) => row.answer)).toEqual(answers);
    for (const row of rows) {
      expect(row.stored.toString('hex'), row.answer).toBe(answerHashOf(row.id, row.answer));
      expect(row.stored.toString('hex'), row.answer).toBe(row.before);
    }
    // No writer can store another hash: the column is the database's to compute.
    const [first] = rows;
    await expect(
      db.execute(
        sql`UPDATE game_entries SET answer_hash = sha256('forged'::bytea) WHERE id = ${first?.id}`,
      ),
    ).rejects.toThrow();
  });

  it('hashes answers with Node as the browser does', () => {
    expect(answerHashOf(5, 'Ẹ kú àárọ̀', nodeSha256)).toBe(answerHashOf(5, 'Ẹ kú àárọ̀'));
  });
});
