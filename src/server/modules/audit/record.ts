import type { Executor } from '../../db/client.ts';
import { adminAudit } from '../../db/schema.ts';

/**
 * The operators' audit trail: every change an operator makes is recorded in the transaction
 * that makes it, with the record before and after. Written by every module whose routes
 * operators call; read by the console (log.ts).
 */
/** JSON-safe copy of a record: bigints (kobo) become strings, dates ISO strings. */
export function snapshot(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value ?? null, (_key, item) =>
      typeof item === 'bigint' ? item.toString() : item,
    ),
  );
}

export async function recordAudit(
  db: Executor,
  entry: {
    /** Null: the server's own action (a rule applied), shown as "Pluckers (automatic)". */
    adminId: string | null;
    action: string;
    targetType: string;
    targetId: string;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db.insert(adminAudit).values({
    adminId: entry.adminId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: snapshot(entry.before),
    after: snapshot(entry.after),
  });
}
