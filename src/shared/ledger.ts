/**
 * The ledger's closed lists: every posting kind and every account, in the order of the
 * PostgreSQL enums `ledger_kind` and `ledger_account` (db/schema.ts, migration 0026), which
 * refuse anything else. A new kind or account is added here and by a migration together.
 */
import type { PaymentMethod } from './schemas/wallet.ts';

export const LEDGER_KINDS = [
  'top_up',
  'payment_hold',
  'payment_hold_release',
  'payment_hold_return',
  'entry_fee',
  'prize',
  'refund',
  'plan',
  'plan_renewal',
  'withdrawal',
  'withdrawal_refund',
  'payout',
  'payout_reversal',
  'adjustment',
  /** The test factories' and the bench's funding of wallets from the `test` clearing account. */
  'test_topup',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Where money received from a card provider waits until it is settled to us. */
export type PaymentClearingProvider = PaymentMethod | 'test';
export type PaymentClearingAccount = `clearing:payments:${PaymentClearingProvider}`;

export const LEDGER_ACCOUNTS = [
  /** A player's wallet: the only account whose lines carry a user id. */
  'wallet',
  'clearing:payments:transactpay',
  'clearing:payments:paystack',
  'clearing:payments:flutterwave',
  'clearing:payments:test',
  'held:payments',
  'clearing:payouts',
  'bank:payouts',
  'revenue:entry_fees',
  'revenue:plans',
  'revenue:withdrawal_fees',
  'expense:prizes',
  'expense:adjustments',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
