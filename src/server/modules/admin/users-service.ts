import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, isNull, or } from 'drizzle-orm';
import { holdReasonsOf } from '../../../shared/aml.ts';
import { formatNaira, koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import { normalisePhone } from '../../../shared/phone.ts';
import type { AdminUserDetail, AdminUserPage } from '../../../shared/schemas/admin.ts';
import type { Database } from '../../db/client.ts';
import { newestRowsOf } from '../../db/newest-rows.ts';
import { entryOutcome, wonSql } from '../../db/outcome.ts';
import {
  gameEntries,
  games,
  ledgerEntries,
  ledgerTransactions,
  payments,
  plans,
  users,
  withdrawals,
} from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';
import { loadApiUser, publicUsername } from '../users/serialize.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';

const PAGE_SIZE = 20;
/** How many of each of a player's histories the console shows. */
const HISTORY_ROWS = 100;

/** Words that could be (part of) a phone number: digits, with spaces, brackets, hyphens or +. */
const PHONE_LIKE = /^[\d\s()+-]{4,}$/;

/** Players (deleted accounts left out) whose name, e-mail, phone or username has `q` in it. */
export async function searchUsers(
  db: Database,
  q: string | undefined,
  page: number,
): Promise<AdminUserPage> {
  const term = q ? `%${q.replace(/^plucker_/i, '').replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null;
  // A number as the console shows it (0803 123 4568) or as typed: matched in its stored form.
  const phone = q && PHONE_LIKE.test(q) ? normalisePhone(q) : '';
  const where = term
    ? and(
        isNull(users.deletedAt),
        or(
          ilike(users.fullname, term),
          ilike(users.email, term),
          ilike(users.phoneNumber, term),
          phone ? ilike(users.phoneNumber, `%${phone}%`) : undefined,
          ilike(users.handle, term),
        ),
      )
    : isNull(users.deletedAt);
  const [rows, [total]] = await Promise.all([
    db
      .select({ row: users, features: plans.features })
      .from(users)
      .leftJoin(plans, eq(plans.id, users.planId))
      .where(where)
      .orderBy(desc(users.createdAt))
      .limit(PAGE_SIZE)
      .offset((page - 1) * PAGE_SIZE),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return {
    users: rows.map(({ row, features }) => ({
      id: row.id,
      handle: row.handle,
      username: publicUsername(row.handle, features?.getVerifiedBadge === true),
      fullname: row.fullname,
      email: row.email,
      phoneNumber: row.phoneNumber,
      role: row.role,
      accountBalance: koboToNaira(row.accountBalance),
      suspended: row.suspendedAt !== null,
      createdAt: row.createdAt.toISOString(),
    })),
    pagination: paginate(total?.total ?? 0, page, PAGE_SIZE),
  };
}

/** A player with their latest wallet entries, plays, payments and withdrawals. */
export async function userDetail(db: Database, id: string): Promise<AdminUserDetail> {
  const user = await loadApiUser(db, id);
  const [[row], ledger, plays, paymentRows, withdrawalRows] = await Promise.all([
    db.select({ reason: users.suspendedReason }).from(users).where(eq(users.id, id)),
    db
      .select({
        id: ledgerEntries.id,
        kind: ledgerTransactions.kind,
        description: ledgerTransactions.description,
        amount: ledgerEntries.amount,
        createdAt: ledgerEntries.createdAt,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(and(eq(ledgerEntries.userId, id), eq(ledgerEntries.account, ACCOUNTS.wallet)))
      .orderBy(desc(ledgerEntries.id))
      .limit(HISTORY_ROWS),
    db
      .select({
        title: games.title,
        status: games.status,
        entry: gameEntries,
        won: wonSql(gameEntries),
      })
      .from(gameEntries)
      .innerJoin(games, eq(games.id, gameEntries.gameId))
      .where(eq(gameEntries.userId, id))
      .orderBy(desc(gameEntries.id))
      .limit(HISTORY_ROWS),
    newestRowsOf(db.select().from(payments).$dynamic(), payments, id, HISTORY_ROWS),
    newestRowsOf(db.select().from(withdrawals).$dynamic(), withdrawals, id, HISTORY_ROWS),
  ]);
  return {
    user,
    suspendedReason: row?.reason ?? null,
    ledger: ledger.map((entry) => ({
      ...entry,
      amount: koboToNaira(entry.amount),
      createdAt: entry.createdAt.toISOString(),
    })),
    plays: plays.map(({ title, status, entry, won }) => ({
      gameTitle: title,
      answer: entry.answer,
      amountPaid: koboToNaira(entry.amountPaid),
      isWinner: entryOutcome(won, status),
      createdAt: entry.createdAt.toISOString(),
    })),
    payments: paymentRows.map((p) => ({
      reference: p.reference,
      method: p.method,
      mode: p.mode,
      amount: koboToNaira(p.amount),
      status: p.status,
      createdAt: p.createdAt.toISOString(),
    })),
    withdrawals: withdrawalRows.map((w) => ({
      id: w.id,
      amount: koboToNaira(w.amount),
      fee: koboToNaira(w.fee),
      status: w.status,
      holdReasons: holdReasonsOf(w.holdReasons),
      createdAt: w.createdAt.toISOString(),
    })),
  };
}

export interface SuspensionChange {
  adminId: string;
  userId: string;
  /** The reason to suspend for; null lifts a suspension. */
  suspendFor: string | null;
  now: Date;
}

/**
 * Suspends a player or lifts their suspension, audited. The caller makes the auth plugin
 * forget the account afterwards, so its tokens stop (or start) working at once.
 */
export async function setSuspension(db: Database, change: SuspensionChange): Promise<void> {
  const { adminId, userId, suspendFor, now } = change;
  if (suspendFor !== null && userId === adminId) throw badRequest('You cannot suspend yourself');
  await inTransaction(db, async (tx) => {
    const [before] = await tx
      .select({ suspendedAt: users.suspendedAt, suspendedReason: users.suspendedReason })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!before) throw notFound('User not found');
    const [after] = await tx
      .update(users)
      .set(
        suspendFor !== null
          ? { suspendedAt: now, suspendedReason: suspendFor }
          : { suspendedAt: null, suspendedReason: null },
      )
      .where(eq(users.id, userId))
      .returning({ suspendedAt: users.suspendedAt, suspendedReason: users.suspendedReason });
    await recordAudit(tx, {
      adminId,
      action: suspendFor !== null ? 'user.suspend' : 'user.unsuspend',
      targetType: 'user',
      targetId: userId,
      before,
      after,
    });
  });
}

export interface WalletAdjustment {
  adminId: string;
  userId: string;
  /** Naira: positive credits the wallet, negative debits it. */
  amount: number;
  reason: string;
}

/** One balanced ledger transaction against the adjustments account, audited and notified; the new balance (kobo). */
export async function adjustWallet(db: Database, adjustment: WalletAdjustment): Promise<bigint> {
  const { adminId, userId, reason } = adjustment;
  const amount = nairaToKobo(adjustment.amount);
  return inTransaction(db, async (tx) => {
    const [before] = await tx
      .select({ balance: users.accountBalance })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!before) throw notFound('User not found');
    await post(
      tx,
      {
        kind: 'adjustment',
        reference: `adjustment:${randomUUID()}`,
        description: `Adjustment by operator: ${reason}`,
        lines: [
          { account: ACCOUNTS.wallet, userId, amount },
          { account: ACCOUNTS.adjustments, amount: -amount },
        ],
      },
      { insufficientMessage: 'The wallet does not hold enough to take that amount' },
    );
    const [after] = await tx
      .select({ balance: users.accountBalance })
      .from(users)
      .where(eq(users.id, userId));
    // Named in kobo, as every amount in the log is stored: "balance": "2500000" read as
    // ₦2.5 million to an operator; the reason belongs to the change, so it is in "after".
    await recordAudit(tx, {
      adminId,
      action: 'wallet.adjust',
      targetType: 'user',
      targetId: userId,
      before: { balanceKobo: before.balance },
      after: { balanceKobo: after?.balance, adjustmentKobo: amount, reason },
    });
    await notify(
      tx,
      userId,
      'Wallet adjusted',
      `Your wallet was ${amount > 0n ? 'credited' : 'debited'} ${formatNaira(Math.abs(adjustment.amount))} by the Pluckers team: ${reason}.`,
    );
    return after?.balance ?? 0n;
  });
}
