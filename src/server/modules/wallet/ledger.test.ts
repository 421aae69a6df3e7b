import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { ledgerTransactions, payments, users, withdrawals } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createAdmin, createUser, fundWallet, uniqueSuffix } from '../../test/factories.ts';
import { balanceOf, walletEntryCount } from '../../test/fake-money.ts';
import { newShortReference } from '../withdrawals/short-reference.ts';
import { ACCOUNTS, InsufficientFundsError, post } from './ledger.ts';
import { checkLedger } from './ledger-check.ts';

/** The double-entry ledger's posting rules, and that checkLedger notices every broken invariant. */
const database = testDatabasePerFile();

const debit = (db: Database, userId: string, kobo: bigint, reference = `t:${uniqueSuffix()}`) =>
  inTransaction(db, (tx) =>
    post(tx, {
      kind: 'adjustment',
      reference,
      description: 'test debit',
      lines: [
        { account: ACCOUNTS.wallet, userId, amount: -kobo },
        { account: ACCOUNTS.entryFees, amount: kobo },
      ],
    }),
  );

/** Runs `corrupt` in a transaction that is always rolled back, and returns what checkLedger saw. */
async function checkAfter(db: Database, corrupt: (tx: Database) => Promise<unknown>) {
  const rollback = new Error('rollback');
  let seen: Awaited<ReturnType<typeof checkLedger>> | undefined;
  await db
    .transaction(async (tx) => {
      await corrupt(tx as unknown as Database);
      seen = await checkLedger(tx, { sandbox: false });
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  if (!seen) throw new Error('checkAfter: no result');
  return Object.fromEntries(seen.invariants.map((i) => [i.name, i.ok]));
}

describe('posting', () => {
  it('refuses unbalanced postings and malformed lines before touching anything', async () => {
    const db = database().db;
    const user = await createUser(db);
    const attempt = (lines: Parameters<typeof post>[1]['lines']) =>
      db.transaction((tx) =>
        post(tx, {
          kind: 'adjustment',
          reference: `bad:${uniqueSuffix()}`,
          description: 'bad',
          lines,
        }),
      );
    await expect(
      attempt([
        { account: ACCOUNTS.wallet, userId: user.id, amount: 100n },
        { account: ACCOUNTS.prizeExpense, amount: -99n },
      ]),
    ).rejects.toThrow(/unbalanced/);
    await expect(attempt([{ account: ACCOUNTS.prizeExpense, amount: 0n }])).rejects.toThrow(
      /two or more lines/,
    );
    await expect(
      attempt([
        { account: ACCOUNTS.wallet, amount: 100n },
        { account: ACCOUNTS.prizeExpense, amount: -100n },
      ]),
    ).rejects.toThrow(/only wallet lines carry a user id/);
    await expect(
      attempt([
        { account: ACCOUNTS.prizeExpense, userId: user.id, amount: 100n },
        { account: ACCOUNTS.entryFees, amount: -100n },
      ]),
    ).rejects.toThrow(/only wallet lines carry a user id/);
    expect(await balanceOf(db, user.id)).toBe(0n);
    expect(await walletEntryCount(db, user.id)).toBe(0);
  });

  it('posts a reference once: a repeat is a no-op', async () => {
    const db = database().db;
    const user = await createUser(db);
    await fundWallet(db, user.id, 10_000n);
    const reference = `once:${uniqueSuffix()}`;
    expect(await debit(db, user.id, 1_000n, reference)).toBe(true);
    expect(await debit(db, user.id, 1_000n, reference)).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => debit(db, user.id, 500n, `same:${reference}`)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(db, user.id)).toBe(8_500n);
    expect((await checkLedger(db, { sandbox: false })).ok).toBe(true);
  });

  it('never overdraws: concurrent debits beyond the balance fail with the insufficient-funds error', async () => {
    const db = database().db;
    const user = await createUser(db);
    await fundWallet(db, user.id, 5_000n);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () => debit(db, user.id, 1_000n)),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const failure of refused) {
      expect((failure as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientFundsError);
      expect((failure as PromiseRejectedResult).reason.message).toBe(
        'Insufficient wallet balance. Top up and try again.',
      );
    }
    expect(await balanceOf(db, user.id)).toBe(0n);
    // A failed posting leaves no transaction behind (it rolled back with the caller's transaction).
    expect(await walletEntryCount(db, user.id)).toBe(6);
    expect((await checkLedger(db, { sandbox: false })).ok).toBe(true);
  });

  it('locks wallets in one order, so crossing transfers between two wallets never deadlock', async () => {
    const db = database().db;
    const [a, b] = await Promise.all([createUser(db), createUser(db)]);
    if (!a || !b) throw new Error('users');
    await fundWallet(db, a.id, 100_000n);
    await fundWallet(db, b.id, 100_000n);
    const move = (from: string, to: string) =>
      inTransaction(db, (tx) =>
        post(tx, {
          kind: 'adjustment',
          reference: `move:${uniqueSuffix()}`,
          description: 'move',
          lines: [
            { account: ACCOUNTS.wallet, userId: from, amount: -1_000n },
            { account: ACCOUNTS.wallet, userId: to, amount: 1_000n },
          ],
        }),
      );
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? move(a.id, b.id) : move(b.id, a.id))),
    );
    expect(await balanceOf(db, a.id)).toBe(100_000n);
    expect(await balanceOf(db, b.id)).toBe(100_000n);
  });
});

describe('checkLedger', () => {
  it('is clean on a consistent ledger and reachable by admins only', async () => {
    const { buildTestApp } = await import('../../test/app.ts');
    const { bearerFor } = await import('../../test/factories.ts');
    const app = await buildTestApp(database());
    const admin = await createAdmin(app.db);
    const player = await createUser(app.db);
    const response = await app.inject({
      url: '/api/v1/admin/ledger/check',
      headers: await bearerFor(app, admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'The books balance', data: { ok: true } });
    const names = response.json().data.invariants.map((i: { name: string }) => i.name);
    expect(names).toEqual([
      'balanced_transactions',
      'ledger_sums_to_zero',
      'wallet_balances_match_entries',
      'no_negative_balances',
      'top_ups_match_payments',
      'held_payments_accounted',
      'bank_transfers_landed',
      'withdrawals_settled_once',
      'payout_clearing_matches_open_withdrawals',
      'transactions_have_entries',
      'lines_have_their_transaction_and_player',
      'winners_are_drawn_entries',
    ]);
    const refused = await app.inject({
      url: '/api/v1/admin/ledger/check',
      headers: await bearerFor(app, player),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('notices a cached balance that drifted from the entries', async () => {
    const db = database().db;
    const user = await createUser(db);
    await fundWallet(db, user.id, 1_000n);
    const seen = await checkAfter(db, (tx) =>
      tx.update(users).set({ accountBalance: 2_000n }).where(eq(users.id, user.id)),
    );
    expect(seen.wallet_balances_match_entries).toBe(false);
    expect(seen.balanced_transactions).toBe(true);
  });

  it('notices a line without its transaction or player, and a winner that is not a drawn entry', async () => {
    const db = database().db;
    const user = await createUser(db);
    const clean = await checkAfter(db, async () => {});
    expect(clean.lines_have_their_transaction_and_player).toBe(true);
    expect(clean.winners_are_drawn_entries).toBe(true);
    // What the foreign keys and the winners' trigger refused before, written past them.
    const seen = await checkAfter(db, async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`SELECT set_config('pluckers.ledger_post', 'on', true)`);
      await tx.execute(sql`INSERT INTO ledger_entries (transaction_id, account, user_id, amount)
        VALUES (-1, 'expense:adjustments', NULL, 5), (-1, 'wallet', ${crypto.randomUUID()}, -5)`);
      await tx.execute(sql`INSERT INTO game_winners (game_id, entry_id, user_id, prize, created_at)
        VALUES (${crypto.randomUUID()}, -1, ${user.id}, 100, now())`);
    });
    expect(seen.lines_have_their_transaction_and_player).toBe(false);
    expect(seen.winners_are_drawn_entries).toBe(false);
  });

  it('notices an unbalanced transaction and one without entries', async () => {
    const db = database().db;
    const user = await createUser(db);
    // What a writer that went round ledger_post would leave, seen before the commit refuses it.
    const seen = await checkAfter(db, async (tx) => {
      await tx.execute(sql`SELECT set_config('pluckers.ledger_post', 'on', true)`);
      const [t] = await tx
        .insert(ledgerTransactions)
        .values({ kind: 'adjustment', reference: `bad:${uniqueSuffix()}`, description: 'bad' })
        .returning({ id: ledgerTransactions.id });
      await tx.execute(
        sql`INSERT INTO ledger_entries (transaction_id, account, user_id, amount) VALUES (${t?.id}, 'wallet', ${user.id}, 500)`,
      );
      await tx.insert(ledgerTransactions).values({
        kind: 'adjustment',
        reference: `empty:${uniqueSuffix()}`,
        description: 'empty',
      });
    });
    expect(seen.balanced_transactions).toBe(false);
    expect(seen.ledger_sums_to_zero).toBe(false);
    expect(seen.transactions_have_entries).toBe(false);
    expect(seen.wallet_balances_match_entries).toBe(false);
  });

  it('notices a successful payment that was not credited, and a top-up without a payment', async () => {
    const db = database().db;
    const user = await createUser(db);
    const uncredited = await checkAfter(db, (tx) =>
      tx.insert(payments).values({
        userId: user.id,
        method: 'paystack',
        reference: `PLK-${uniqueSuffix()}`,
        amount: 10_000n,
        status: 'SUCCESS',
        mode: 'live',
      }),
    );
    expect(uncredited.top_ups_match_payments).toBe(false);

    const orphan = await checkAfter(db, (tx) =>
      post(tx, {
        kind: 'top_up',
        reference: `topup:paystack:PLK-${uniqueSuffix()}`,
        description: 'no payment behind it',
        lines: [
          { account: ACCOUNTS.wallet, userId: user.id, amount: 10_000n },
          { account: ACCOUNTS.paymentClearing('paystack'), amount: -10_000n },
        ],
      }),
    );
    expect(orphan.top_ups_match_payments).toBe(false);
    expect(orphan.balanced_transactions).toBe(true);
  });

  it('notices a withdrawal that was never reserved or is refunded and paid', async () => {
    const db = database().db;
    const user = await createUser(db);
    const seen = await checkAfter(db, (tx) =>
      tx.insert(withdrawals).values({
        shortReference: newShortReference(),
        userId: user.id,
        amount: 10_000n,
        fee: 5_000n,
        bankCode: '058',
        bankName: 'Guaranty Trust Bank',
        accountNumber: '0123456789',
        accountName: 'X',
      }),
    );
    expect(seen.withdrawals_settled_once).toBe(false);
    expect(seen.payout_clearing_matches_open_withdrawals).toBe(false);
  });
});
