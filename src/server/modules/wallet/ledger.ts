import { sql } from 'drizzle-orm';
import type { LedgerAccount, LedgerKind, PaymentClearingProvider } from '../../../shared/ledger.ts';
import type { Executor } from '../../db/client.ts';
import { pgCode } from '../../db/errors.ts';
import { AppError, ErrorCode } from '../../errors.ts';

/** Platform accounts; a player's wallet is the account `wallet` with their user id. */
export const ACCOUNTS = {
  wallet: 'wallet',
  /** Money received from a card provider and not yet settled to us (per provider). */
  paymentClearing: (provider: PaymentClearingProvider) => `clearing:payments:${provider}` as const,
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
} as const satisfies Record<string, LedgerAccount | ((provider: never) => LedgerAccount)>;

export interface LedgerLine {
  account: LedgerAccount;
  userId?: string;
  /** Kobo; positive credits the account, negative debits it. */
  amount: bigint;
}

export interface Posting {
  kind: LedgerKind;
  /** Unique per business event: posted again, the same lines are a no-op and others refused. */
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

/** SQLSTATEs raised by ledger_post (src/server/db/functions/ledger_post.sql). */
const WALLET_CANNOT_PAY = 'LE001';
const REFERENCE_REUSED = 'LE002';
const CHECK_VIOLATION = '23514';

/** A text[] literal: each element quoted, so account names and ids pass through unchanged. */
function arrayLiteral(values: readonly (string | null)[]): string {
  const quoted = values.map((value) =>
    value === null ? 'NULL' : `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
  );
  return `{${quoted.join(',')}}`;
}

/**
 * Posts one balanced transaction inside the caller's database transaction, through the SQL
 * function ledger_post (src/server/db/functions/ledger_post.sql), the ledger's one writer: it refuses unbalanced or
 * malformed lines, debits each wallet with one conditional statement in user-id order (so
 * concurrent postings neither overdraw nor deadlock) and writes the transaction and its lines.
 * Returns false when this reference was already posted with the same lines; the same reference
 * with other lines is refused. When it throws, the caller's transaction must roll back (or the
 * call must sit in a savepoint).
 */
export async function post(
  tx: Executor,
  posting: Posting,
  options: { insufficientMessage?: string } = {},
): Promise<boolean> {
  const lines = posting.lines.filter((line) => line.amount !== 0n);
  const accounts = arrayLiteral(lines.map((line) => line.account));
  const userIds = arrayLiteral(lines.map((line) => line.userId ?? null));
  const amounts = `{${lines.map((line) => line.amount.toString()).join(',')}}`;
  const at = posting.at?.toISOString() ?? null;
  try {
    const result = await tx.execute(sql`
      SELECT ledger_post(${posting.kind}::ledger_kind, ${posting.reference}, ${posting.description},
        ${accounts}::ledger_account[], ${userIds}::uuid[], ${amounts}::bigint[],
        ${at}::timestamptz)::text AS id`);
    const [row] = (result as unknown as { rows: { id: string | null }[] }).rows;
    return row?.id != null;
  } catch (error) {
    const code = pgCode(error);
    if (code === WALLET_CANNOT_PAY) throw new InsufficientFundsError(options.insufficientMessage);
    // A malformed posting or a reused reference is a bug in the caller: say what PostgreSQL said.
    if ((code === CHECK_VIOLATION || code === REFERENCE_REUSED) && error instanceof Error)
      throw error.cause instanceof Error ? error.cause : error;
    throw error;
  }
}
