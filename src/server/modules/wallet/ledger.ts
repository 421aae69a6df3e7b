import { and, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerEntries, ledgerTransactions, users } from '../../db/schema.ts';
import { AppError, ErrorCode } from '../../errors.ts';

/** Platform accounts; a player's wallet is the account `wallet` with their user id. */
export const ACCOUNTS = {
  wallet: 'wallet',
  /** Money received from a card provider and not yet settled to us (per provider). */
  paymentClearing: (provider: string) => `clearing:payments:${provider}`,
  /**
   * Payments that landed past a player's deposit limit: neither in a wallet nor returned yet.
   * An operator releases each to the wallet or returns it; nothing else moves money here.
   */
  heldPayments: 'held:payments',
  /** Withdrawals reserved from wallets until they are paid out or refunded. */
  payoutClearing: 'clearing:payouts',
  /** Money that has left for players' bank accounts. */
  bankPayouts: 'bank:payouts',
  entryFees: 'revenue:entry_fees',
  planRevenue: 'revenue:plans',
  withdrawalFees: 'revenue:withdrawal_fees',
  prizeExpense: 'expense:prizes',
  adjustments: 'expense:adjustments',
} as const;

/** Ledger kinds that charge a plan to a wallet: spend limits count them. */
export const PLAN_CHARGE_KINDS = ['plan', 'plan_renewal'];

export interface LedgerLine {
  account: string;
  userId?: string;
  /** Kobo; positive credits the account, negative debits it. */
  amount: bigint;
}

export interface Posting {
  kind: string;
  /** Unique per business event: posting the same reference twice is a no-op. */
  reference: string;
  description: string;
  lines: LedgerLine[];
  /** When it happened on the caller's clock (limits count charges by it); the database's otherwise. */
  at?: Date;
}

export const INSUFFICIENT_FUNDS = 'Insufficient wallet balance. Top up and try again.';

export class InsufficientFundsError extends AppError {
  constructor(message: string = INSUFFICIENT_FUNDS) {
    super(ErrorCode.InsufficientFunds, message);
  }
}

/**
 * Posts one balanced transaction inside the caller's database transaction. Wallet debits are
 * single conditional statements (never read-modify-write), so concurrent postings can't overdraw;
 * the CHECK on users.account_balance is the last line of defence.
 * Returns false when this reference was already posted. When it throws, the caller's
 * transaction must roll back (or the call must sit in a savepoint): the transaction row is
 * written before the debits are tried.
 */
export async function post(
  tx: Executor,
  posting: Posting,
  options: { insufficientMessage?: string } = {},
): Promise<boolean> {
  const lines = posting.lines.filter((line) => line.amount !== 0n);
  const total = lines.reduce((sum, line) => sum + line.amount, 0n);
  if (total !== 0n) throw new Error(`unbalanced posting ${posting.reference}: sums to ${total}`);
  if (lines.length < 2) throw new Error(`posting ${posting.reference} needs two or more lines`);
  for (const line of lines) {
    if ((line.account === ACCOUNTS.wallet) !== (line.userId !== undefined)) {
      throw new Error(`posting ${posting.reference}: only wallet lines carry a user id`);
    }
  }

  const [created] = await tx
    .insert(ledgerTransactions)
    .values({
      kind: posting.kind,
      reference: posting.reference,
      description: posting.description,
      createdAt: posting.at,
    })
    .onConflictDoNothing({ target: ledgerTransactions.reference })
    .returning({ id: ledgerTransactions.id });
  if (!created) return false;

  // Wallets are locked in user-id order (one global order), so two postings that touch the same
  // wallets, whichever way the money moves, queue behind each other instead of deadlocking.
  const walletLines = lines
    .filter((line) => line.userId !== undefined)
    .sort((a, b) => {
      const byUser =
        (a.userId ?? '') < (b.userId ?? '') ? -1 : (a.userId ?? '') > (b.userId ?? '') ? 1 : 0;
      return byUser !== 0 ? byUser : a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0;
    });
  for (const line of walletLines) {
    const userId = line.userId as string;
    if (line.amount < 0n) {
      const debited = await tx
        .update(users)
        .set({ accountBalance: sql`${users.accountBalance} + ${line.amount}` })
        .where(and(eq(users.id, userId), gte(users.accountBalance, -line.amount)))
        .returning({ id: users.id });
      if (debited.length === 0) throw new InsufficientFundsError(options.insufficientMessage);
    } else {
      await tx
        .update(users)
        .set({ accountBalance: sql`${users.accountBalance} + ${line.amount}` })
        .where(eq(users.id, userId));
    }
  }

  await tx.insert(ledgerEntries).values(
    lines.map((line) => ({
      transactionId: created.id,
      account: line.account,
      userId: line.userId ?? null,
      amount: line.amount,
    })),
  );
  return true;
}
