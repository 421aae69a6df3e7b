import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { holdReasonsOf } from '../../../shared/aml.ts';
import { koboToNaira } from '../../../shared/money.ts';
import type {
  AdminWithdrawalPage,
  adminWithdrawalQuerySchema,
} from '../../../shared/schemas/admin.ts';
import { normaliseShortReference } from '../../../shared/short-reference.ts';
import type { Executor } from '../../db/client.ts';
import { plans, users, withdrawals } from '../../db/schema.ts';
import { paginate } from '../../lib/pagination.ts';
import { publicUsername } from '../users/serialize.ts';
import { transferReference } from './serialize.ts';

const PAGE_SIZE = 20;

/** The withdrawal a reference names: its short reference as read out, or the long `wd-<id>`. */
function byReference(reference: string): SQL {
  const short = normaliseShortReference(reference);
  if (short) return eq(withdrawals.shortReference, short);
  const id = /^wd-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(reference);
  // Neither form: no withdrawal has it.
  return id?.[1] ? eq(withdrawals.id, id[1].toLowerCase()) : sql`false`;
}

/**
 * The operators' withdrawal queue: pending first, then oldest first, optionally one status, only
 * the withdrawals the anti-money-laundering rules held (`held: 'true'`) or did not, or the one a
 * reference names.
 */
export async function listWithdrawalsForAdmin(
  db: Executor,
  { page, status, held, reference }: z.output<typeof adminWithdrawalQuerySchema>,
): Promise<AdminWithdrawalPage> {
  const where = and(
    reference ? byReference(reference) : undefined,
    status ? eq(withdrawals.status, status) : undefined,
    held === 'true' ? sql`${withdrawals.holdReasons} <> '[]'::jsonb` : undefined,
    held === 'false' ? sql`${withdrawals.holdReasons} = '[]'::jsonb` : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: withdrawals, handle: users.handle, features: plans.features })
      .from(withdrawals)
      .innerJoin(users, eq(users.id, withdrawals.userId))
      .leftJoin(plans, eq(plans.id, users.planId))
      .where(where)
      .orderBy(desc(sql`${withdrawals.status} = 'PENDING'`), asc(withdrawals.createdAt))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE),
    db.select({ total: count() }).from(withdrawals).where(where),
  ]);
  return {
    withdrawals: rows.map(({ row, handle, features }) => ({
      id: row.id,
      reference: transferReference(row.id),
      shortReference: row.shortReference,
      userId: row.userId,
      username: publicUsername(handle, features?.getVerifiedBadge === true),
      amount: koboToNaira(row.amount),
      fee: koboToNaira(row.fee),
      status: row.status,
      bankName: row.bankName,
      accountNumber: row.accountNumber,
      accountName: row.accountName,
      reason: row.reason,
      holdReasons: holdReasonsOf(row.holdReasons),
      createdAt: row.createdAt.toISOString(),
    })),
    pagination: paginate(total?.total ?? 0, page, PAGE_SIZE),
  };
}
