import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { ledgerEntries, ledgerTransactions, notifications, payments, users } from '../db/schema.ts';
import { listNotifications } from '../modules/notifications/service.ts';
import { ACCOUNTS } from '../modules/wallet/ledger.ts';

/**
 * Read-backs for money tests: balances, ledger rows, notifications, invalid account numbers.
 * The data itself (funded players, operators, bank accounts) comes from ./factories.ts.
 */

/** The same serial with every other check digit: each one is an invalid NUBAN. */
export function invalidNubans(valid: string): string[] {
  const serial = valid.slice(0, 9);
  return Array.from({ length: 10 }, (_, digit) => `${serial}${digit}`).filter((n) => n !== valid);
}

export async function balanceOf(db: Executor, userId: string): Promise<bigint> {
  const [row] = await db
    .select({ balance: users.accountBalance })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row.balance;
}

/** The ledger transactions with this exact reference (0 or 1: references are unique). */
export async function ledgerTransactionsFor(db: Executor, reference: string) {
  return db.select().from(ledgerTransactions).where(eq(ledgerTransactions.reference, reference));
}

/** The entries of the ledger transaction with this reference (platform lines have no user id). */
export async function accountEntriesFor(db: Executor, reference: string) {
  return db
    .select({
      account: ledgerEntries.account,
      userId: ledgerEntries.userId,
      amount: ledgerEntries.amount,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(eq(ledgerTransactions.reference, reference));
}

/** A player's notice titles, oldest first, as the notification list reads them. */
export async function notificationTitles(db: Executor, userId: string): Promise<string[]> {
  const page = await listNotifications(db, userId, 1, 1_000);
  return page.notifications.map((notice) => notice.title).reverse();
}

export async function notificationsTitled(db: Executor, userId: string, title: string) {
  return db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.title, title)));
}

/** How many wallet entries a user has (each money event adds exactly one). */
export async function walletEntryCount(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.account, ACCOUNTS.wallet), eq(ledgerEntries.userId, userId)));
  return row?.n ?? 0;
}

/**
 * Marks a user's successful sandbox top-ups reviewed, as an operator would. Sandbox-mode tests
 * call it when they finish: a worker's files share its PGlite one after another, and test money
 * left unreviewed there would pause the payouts of the live-mode files after them.
 */
export async function reviewSandboxTopUpsOf(db: Executor, userId: string): Promise<void> {
  await db
    .update(payments)
    .set({ sandboxReviewedAt: new Date(), sandboxReviewNote: 'test finished' })
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.mode, 'sandbox'),
        eq(payments.status, 'SUCCESS'),
        isNull(payments.sandboxReviewedAt),
      ),
    );
}
