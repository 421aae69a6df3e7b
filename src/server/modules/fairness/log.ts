import { and, asc, eq, gte, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  type FairnessLogRecord,
  fairnessRecordHash,
  GENESIS_HASH,
} from '../../../shared/fairness-log.ts';
import type { FairnessLogPage } from '../../../shared/schemas/fairness.ts';
import type { Database, Executor } from '../../db/client.ts';
import { fairnessLog } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';

type LogKind = (typeof fairnessLog.$inferInsert)['kind'];

/** Only the chaining step takes it, so writers of records never wait on each other. */
const CHAIN_LOCK = 0x4c4f47; // "LOG"
const CHAIN_BATCH = 1000;

/**
 * Adds a record in the caller's transaction: it commits or rolls back with the event it
 * describes. The worker gives it its place in the chain moments later (chainFairnessLog).
 */
export async function appendFairnessRecord(
  db: Executor,
  record: { kind: LogKind; gameId: string; fields: Record<string, unknown> },
): Promise<void> {
  const body = JSON.stringify({ kind: record.kind, gameId: record.gameId, ...record.fields });
  await db.insert(fairnessLog).values({ kind: record.kind, gameId: record.gameId, body });
}

/**
 * Gives every committed, unchained record the next position and links it to the head. One
 * instance chains at a time (advisory lock); the others skip and leave it to that one.
 * Returns how many records it chained.
 */
export async function chainFairnessLog(db: Database): Promise<number> {
  return inTransaction(db, async (tx) => {
    const locked = await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${CHAIN_LOCK}) AS locked`);
    if (!(locked as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked) return 0;
    const pending = await tx
      .select({ id: fairnessLog.id, body: fairnessLog.body })
      .from(fairnessLog)
      .where(isNull(fairnessLog.position))
      .orderBy(asc(fairnessLog.id))
      .limit(CHAIN_BATCH);
    if (pending.length === 0) return 0;
    const [head] = await tx
      .select({ position: fairnessLog.position, hash: fairnessLog.hash })
      .from(fairnessLog)
      .where(isNotNull(fairnessLog.position))
      .orderBy(sql`${fairnessLog.position} DESC`)
      .limit(1);
    let position = head?.position ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    for (const record of pending) {
      position += 1;
      const hash = fairnessRecordHash(prevHash, record.body);
      await tx
        .update(fairnessLog)
        .set({ position, prevHash, hash })
        .where(eq(fairnessLog.id, record.id));
      prevHash = hash;
    }
    return pending.length;
  });
}

type LogRow = typeof fairnessLog.$inferSelect;

function toRecord(row: LogRow): FairnessLogRecord {
  return {
    position: row.position as number,
    kind: row.kind,
    gameId: row.gameId,
    body: row.body,
    prevHash: row.prevHash as string,
    hash: row.hash as string,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function readFairnessLog(
  db: Database,
  from: number,
  limit: number,
): Promise<FairnessLogPage> {
  const [rows, [head]] = await Promise.all([
    db
      .select()
      .from(fairnessLog)
      .where(gte(fairnessLog.position, from))
      .orderBy(asc(fairnessLog.position))
      .limit(limit),
    db
      .select({ position: fairnessLog.position, hash: fairnessLog.hash })
      .from(fairnessLog)
      .where(isNotNull(fairnessLog.position))
      .orderBy(sql`${fairnessLog.position} DESC`)
      .limit(1),
  ]);
  const records = rows.map(toRecord);
  const last = records.at(-1);
  return {
    records,
    prevHash: records[0]?.prevHash ?? GENESIS_HASH,
    head: head?.position ? { position: head.position, hash: head.hash as string } : null,
    next: last && head?.position && last.position < head.position ? last.position + 1 : null,
  };
}

/** A game's chained records, in log order: what its proof shows. */
export async function gameFairnessRecords(
  db: Executor,
  gameId: string,
): Promise<FairnessLogRecord[]> {
  const rows = await db
    .select()
    .from(fairnessLog)
    .where(and(eq(fairnessLog.gameId, gameId), isNotNull(fairnessLog.position)))
    .orderBy(asc(fairnessLog.position));
  return rows.map(toRecord);
}
