import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LEDGER_ACCOUNTS, LEDGER_KINDS } from '../../../shared/ledger.ts';
import type { Database } from '../../db/client.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createUser, fundWallet, uniqueSuffix } from '../../test/factories.ts';
import { balanceOf, walletEntryCount } from '../../test/fake-money.ts';
import { ACCOUNTS, post } from './ledger.ts';
import { checkLedger } from './ledger-check.ts';

/**
 * What PostgreSQL itself refuses, whoever writes: raw SQL below stands for a writer that went
 * round post(). Each refusal leaves nothing behind and the ledger check clean.
 */
const database = testDatabasePerFile();

async function rowsOf<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** What PostgreSQL said when it refused `work` (Drizzle wraps its error), or that it did not. */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return cause instanceof Error ? cause.message : String(cause);
  }
  return 'not refused';
}

async function transactionCount(db: Database, reference: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${reference}`,
  );
  return row?.n ?? -1;
}

/**
 * Writes a transaction and its lines with plain INSERTs, as a writer that set ledger_post's own
 * switch would, and commits. Resolves to whether the commit went through.
 */
async function rawPosting(
  db: Database,
  reference: string,
  lines: { account: string; userId: string | null; amount: bigint }[],
): Promise<{ committed: boolean; inserted: boolean; error?: string }> {
  let inserted = false;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('pluckers.ledger_post', 'on', true)`);
      const [created] = (
        (await tx.execute(sql`
          INSERT INTO ledger_transactions (kind, reference, description)
          VALUES ('adjustment', ${reference}, 'raw') RETURNING id`)) as unknown as {
          rows: { id: number }[];
        }
      ).rows;
      for (const line of lines)
        await tx.execute(sql`
          INSERT INTO ledger_entries (transaction_id, account, user_id, amount)
          VALUES (${created?.id}, ${line.account}, ${line.userId}, ${line.amount})`);
      inserted = true;
    });
    return { committed: true, inserted };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return { committed: false, inserted, error: String((cause as Error).message) };
  }
}

describe('the database refuses, at commit, a transaction whose lines do not balance', () => {
  it('refuses lines that do not sum to zero, written with raw SQL', async () => {
    const db = database().db;
    const user = await createUser(db);
    const reference = `raw-unbalanced:${uniqueSuffix()}`;
    const outcome = await rawPosting(db, reference, [
      { account: 'wallet', userId: user.id, amount: 500n },
      { account: 'expense:adjustments', userId: null, amount: -400n },
    ]);
    // Every statement ran; the commit is what refused them.
    expect(outcome).toMatchObject({ committed: false, inserted: true });
    expect(outcome.error).toMatch(/unbalanced/);
    expect(await transactionCount(db, reference)).toBe(0);
    expect(await walletEntryCount(db, user.id)).toBe(0);
  });

  it('refuses a transaction of one line or of none', async () => {
    const db = database().db;
    const user = await createUser(db);
    const single = `raw-single:${uniqueSuffix()}`;
    const empty = `raw-empty:${uniqueSuffix()}`;
    expect(
      await rawPosting(db, single, [{ account: 'wallet', userId: user.id, amount: 500n }]),
    ).toMatchObject({ committed: false, inserted: true });
    expect(await rawPosting(db, empty, [])).toMatchObject({ committed: false, inserted: true });
    expect(await transactionCount(db, single)).toBe(0);
    expect(await transactionCount(db, empty)).toBe(0);
  });

  it('commits balanced raw lines, so it is the balance that is refused, not the writer', async () => {
    const db = database().db;
    const user = await createUser(db);
    await fundWallet(db, user.id, 1_000n);
    const reference = `raw-balanced:${uniqueSuffix()}`;
    const outcome = await rawPosting(db, reference, [
      { account: 'revenue:entry_fees', userId: null, amount: 300n },
      { account: 'expense:adjustments', userId: null, amount: -300n },
    ]);
    expect(outcome).toMatchObject({ committed: true });
    expect(await transactionCount(db, reference)).toBe(1);
  });

  it('refuses, at commit, a wallet line of no player (ledger lines have no per-row key check)', async () => {
    const db = database().db;
    const reference = `raw-stray:${uniqueSuffix()}`;
    const outcome = await rawPosting(db, reference, [
      { account: 'wallet', userId: crypto.randomUUID(), amount: 500n },
      { account: 'expense:adjustments', userId: null, amount: -500n },
    ]);
    expect(outcome).toMatchObject({ committed: false, inserted: true });
    expect(outcome.error).toMatch(/credits or debits 1 wallets of no player/);
    expect(await transactionCount(db, reference)).toBe(0);
  });

  it("refuses a draw's bulk prize posting that does not balance, or that credits no player", async () => {
    const db = database().db;
    const winners = await Promise.all(Array.from({ length: 12 }, () => createUser(db)));
    // The draw's form: a wallet line per winner, the caller crediting the wallets, one
    // prize-expense line; more than 8 lines, so ledger_post checks them in one query.
    const prizes = (reference: string, players: string[], expense: bigint) =>
      rowsOf(
        db,
        sql`SELECT ledger_post('prize', ${reference}, 'prizes',
          array_append(array_agg('wallet'::ledger_account), 'expense:prizes'::ledger_account),
          array_append(array_agg(p.id ORDER BY p.id), NULL::uuid),
          array_append(array_agg(100::bigint), ${expense}::bigint),
          p_caller_credits_wallets => true)
        FROM unnest(${`{${players.join(',')}}`}::uuid[]) AS p(id)`,
      );
    const ids = winners.map((winner) => winner.id);
    const unbalanced = `prizes:unbalanced:${uniqueSuffix()}`;
    expect(await refusal(prizes(unbalanced, ids, -1_199n))).toMatch(
      /unbalanced posting .* sums to 1/,
    );
    const stray = `prizes:stray:${uniqueSuffix()}`;
    expect(
      await refusal(
        db.transaction((tx) =>
          tx.execute(sql`SELECT ledger_post('prize', ${stray}, 'prizes',
            array_append(array_agg('wallet'::ledger_account), 'expense:prizes'::ledger_account),
            array_append(array_agg(p.id ORDER BY p.id), NULL::uuid),
            array_append(array_agg(100::bigint), -1300::bigint),
            p_caller_credits_wallets => true)
          FROM unnest(${`{${[...ids, crypto.randomUUID()].join(',')}}`}::uuid[]) AS p(id)`),
        ),
      ),
    ).toMatch(/credits or debits 1 wallets of no player/);
    expect(await transactionCount(db, unbalanced)).toBe(0);
    expect(await transactionCount(db, stray)).toBe(0);
  });

  it('never lets a posted transaction be changed or deleted, which would orphan its lines', async () => {
    const db = database().db;
    const reference = `raw-kept:${uniqueSuffix()}`;
    expect(
      await rawPosting(db, reference, [
        { account: 'revenue:entry_fees', userId: null, amount: 300n },
        { account: 'expense:adjustments', userId: null, amount: -300n },
      ]),
    ).toMatchObject({ committed: true });
    expect(
      await refusal(
        db.execute(sql`DELETE FROM ledger_transactions WHERE reference = ${reference}`),
      ),
    ).toMatch(/ledger_transactions is written by ledger_post\(\) only/);
    expect(
      await refusal(
        db.execute(
          sql`UPDATE ledger_transactions SET id = id + 1000000 WHERE reference = ${reference}`,
        ),
      ),
    ).toMatch(/ledger_transactions is written by ledger_post\(\) only/);
    expect(await refusal(db.execute(sql`TRUNCATE ledger_transactions CASCADE`))).toMatch(
      /ledger_transactions is written by ledger_post\(\) only/,
    );
    expect(await transactionCount(db, reference)).toBe(1);
  });

  it('refuses ledger rows inserted by anything but ledger_post', async () => {
    const db = database().db;
    const reference = `raw-direct:${uniqueSuffix()}`;
    expect(
      await refusal(
        db.execute(sql`INSERT INTO ledger_transactions (kind, reference, description)
          VALUES ('adjustment', ${reference}, 'direct')`),
      ),
    ).toMatch(/ledger_transactions is written by ledger_post\(\) only/);
    expect(
      await refusal(
        db.execute(sql`INSERT INTO ledger_entries (transaction_id, account, amount)
          SELECT id, 'expense:adjustments', 1 FROM ledger_transactions LIMIT 1`),
      ),
    ).toMatch(/ledger_entries is written by ledger_post\(\) only/);
    expect(await transactionCount(db, reference)).toBe(0);
  });
});

describe('ledger_post, the one posting primitive', () => {
  const postSql = (
    db: Database,
    reference: string,
    userId: string,
    kobo: bigint,
    callerCredits = false,
  ) =>
    rowsOf<{ id: string | null }>(
      db,
      sql`SELECT ledger_post('adjustment', ${reference}, 'test',
        ARRAY['wallet', 'expense:adjustments']::ledger_account[], ARRAY[${userId}, NULL]::uuid[],
        ARRAY[${kobo}::bigint, ${-kobo}::bigint], p_caller_credits_wallets => ${callerCredits})::text AS id`,
    );

  it('refuses a wallet debit past its balance and leaves the wallet as it was', async () => {
    const db = database().db;
    const user = await createUser(db);
    await fundWallet(db, user.id, 1_000n);
    const reference = `overdraw:${uniqueSuffix()}`;
    expect(await refusal(postSql(db, reference, user.id, -1_001n))).toMatch(/cannot pay 1001 kobo/);
    expect(await balanceOf(db, user.id)).toBe(1_000n);
    expect(await transactionCount(db, reference)).toBe(0);
    expect(
      await refusal(db.execute(sql`UPDATE users SET account_balance = -1 WHERE id = ${user.id}`)),
    ).toMatch(/users_balance_non_negative/);
    expect((await postSql(db, `exact:${uniqueSuffix()}`, user.id, -1_000n))[0]?.id).not.toBeNull();
    expect(await balanceOf(db, user.id)).toBe(0n);
  });

  it('posts a reference once: the same lines again are a no-op, other lines are refused', async () => {
    const db = database().db;
    const user = await createUser(db);
    const reference = `reuse:${uniqueSuffix()}`;
    expect((await postSql(db, reference, user.id, 700n))[0]?.id).not.toBeNull();
    expect((await postSql(db, reference, user.id, 700n))[0]?.id).toBeNull();
    const reused = /already posted with different lines/;
    expect(await refusal(postSql(db, reference, user.id, 701n))).toMatch(reused);
    const other = await createUser(db);
    expect(await refusal(postSql(db, reference, other.id, 700n))).toMatch(reused);
    const lines = (amount: bigint) => [
      { account: ACCOUNTS.wallet, userId: user.id, amount },
      { account: ACCOUNTS.adjustments, amount: -amount },
    ];
    const again = (kind: 'adjustment' | 'prize', amount: bigint) =>
      db.transaction((tx) =>
        post(tx, { kind, reference, description: 'again', lines: lines(amount) }),
      );
    expect(await again('adjustment', 700n)).toBe(false);
    await expect(again('adjustment', 800n)).rejects.toThrow(reused);
    await expect(again('prize', 700n)).rejects.toThrow(reused);
    expect(await balanceOf(db, user.id)).toBe(700n);
    expect(await walletEntryCount(db, user.id)).toBe(1);
  });

  it('never leaves a wallet debit to the caller', async () => {
    const db = database().db;
    const user = await createUser(db);
    await fundWallet(db, user.id, 1_000n);
    expect(await refusal(postSql(db, `caller:${uniqueSuffix()}`, user.id, -100n, true))).toMatch(
      /a wallet debit is never left to the caller/,
    );
    expect(await balanceOf(db, user.id)).toBe(1_000n);
  });

  it('takes only the closed lists of kinds and accounts, which src/shared/ledger.ts mirrors', async () => {
    const db = database().db;
    const labels = async (type: string) =>
      (
        await rowsOf<{ label: string }>(
          db,
          sql`SELECT e.enumlabel AS label FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
            WHERE t.typname = ${type} ORDER BY e.enumsortorder`,
        )
      ).map((row) => row.label);
    expect(await labels('ledger_kind')).toEqual([...LEDGER_KINDS]);
    expect(await labels('ledger_account')).toEqual([...LEDGER_ACCOUNTS]);
    const closed = /invalid input value for enum/;
    expect(
      await refusal(
        db.execute(sql`SELECT ledger_post('gift', ${`k:${uniqueSuffix()}`}, 'x',
          ARRAY['expense:adjustments', 'revenue:plans']::ledger_account[], ARRAY[NULL, NULL]::uuid[],
          ARRAY[1, -1]::bigint[])`),
      ),
    ).toMatch(closed);
    expect(
      await refusal(
        db.execute(sql`SELECT ledger_post('adjustment', ${`a:${uniqueSuffix()}`}, 'x',
          ARRAY['expense:adjustments', 'revenue:gifts']::ledger_account[], ARRAY[NULL, NULL]::uuid[],
          ARRAY[1, -1]::bigint[])`),
      ),
    ).toMatch(closed);
    expect((await checkLedger(db, { sandbox: true })).ok).toBe(true);
  });
});

describe('the ledger in the code', () => {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const sources = (directory: string): string[] =>
    readdirSync(directory).flatMap((entry) => {
      const full = path.join(directory, entry);
      if (statSync(full).isDirectory()) return entry === 'node_modules' ? [] : sources(full);
      return /\.(ts|sql)$/.test(entry) && !/\.test\.ts$/.test(entry) ? [full] : [];
    });
  // Migrations are history: the writers they once created are replaced by the text in
  // src/server/db/functions, which is what runs (migrate-functions.test.ts: no migration from
  // 0030 on creates a function).
  const superseded = (file: string) => /migrations\/\d{4}_/.test(file);

  it('has one writer: ledger_post', () => {
    const writes =
      /INSERT\s+INTO\s+"?ledger_(entries|transactions)"?|\.insert\(ledger(Entries|Transactions)\)/i;
    const writers = ['src', 'bench', 'scripts']
      .flatMap((directory) => sources(path.join(root, directory)))
      .filter((file) => !superseded(file) && writes.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(writers).toEqual(['src/server/db/functions/ledger_post.sql']);
  });
});
