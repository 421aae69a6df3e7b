import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import {
  banks,
  ledgerEntries,
  ledgerTransactions,
  notifications,
  payments,
  users,
} from '../db/schema.ts';
import { ACCOUNTS, post } from '../modules/wallet/ledger.ts';
import { nubanCheckDigit } from '../modules/withdrawals/nuban.ts';
import { createUser, type UserRow, uniqueSuffix } from './factories.ts';

/**
 * Money fixtures for wallet tests: wallets funded through a balanced ledger posting (a "fake"
 * top-up from a test clearing account), players with a saved bank account, operators, and
 * read-backs of balances, ledger rows and notifications. Everything is unique per call, so
 * tests sharing one database never step on each other.
 */

/** A valid 10-digit NUBAN at a 3-digit bank code, with a random serial. */
export function validNuban(bankCode: string): string {
  const serial = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return `${serial}${nubanCheckDigit(serial, bankCode)}`;
}

/** The same serial with every other check digit: each one is an invalid NUBAN. */
export function invalidNubans(valid: string): string[] {
  const serial = valid.slice(0, 9);
  return Array.from({ length: 10 }, (_, digit) => `${serial}${digit}`).filter((n) => n !== valid);
}

export async function bankByCode(db: Executor, code: string) {
  const [bank] = await db.select().from(banks).where(eq(banks.code, code));
  if (!bank) throw new Error(`bank ${code} is not seeded`);
  return bank;
}

/** Credits a wallet from the `clearing:payments:test` account (a balanced posting). */
export async function fundWallet(db: Database, userId: string, kobo: bigint): Promise<void> {
  await db.transaction((tx) =>
    post(tx, {
      kind: 'test_topup',
      reference: `test-topup:${uniqueSuffix()}`,
      description: 'test funds',
      lines: [
        { account: ACCOUNTS.wallet, userId, amount: kobo },
        { account: ACCOUNTS.paymentClearing('test'), amount: -kobo },
      ],
    }),
  );
}

/** A verified player with `kobo` in the wallet and, unless `bank: null`, a saved GTBank account. */
export async function createPlayer(
  db: Database,
  options: {
    kobo?: bigint;
    bank?: string | null;
    overrides?: Partial<typeof users.$inferInsert>;
  } = {},
): Promise<UserRow> {
  let bankFields: Partial<typeof users.$inferInsert> = {};
  if (options.bank !== null) {
    const bank = await bankByCode(db, options.bank ?? '058');
    bankFields = {
      bankId: bank.id,
      bankAccountNumber: validNuban(bank.code),
      bankAccountName: 'ADA OBI',
    };
  }
  const user = await createUser(db, { ...bankFields, ...options.overrides });
  if (options.kobo && options.kobo > 0n) await fundWallet(db, user.id, options.kobo);
  const [fresh] = await db.select().from(users).where(eq(users.id, user.id));
  if (!fresh) throw new Error('createPlayer: user vanished');
  return fresh;
}

export function createAdmin(db: Executor): Promise<UserRow> {
  return createUser(db, { role: 'admin' });
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

export async function notificationTitles(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .select({ title: notifications.title })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(notifications.id);
  return rows.map((row) => row.title);
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

/** A clock tests can move: starts at the real time, `advance` adds milliseconds. */
export function movableClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(date: Date) {
      now = date.getTime();
    },
  };
}

/**
 * Marks a user's successful sandbox top-ups reviewed, as an operator would. Sandbox-mode tests
 * call it when they finish: on the PostgreSQL run every file shares one database, and test money
 * left unreviewed there would pause the payouts of live-mode tests in other files.
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
