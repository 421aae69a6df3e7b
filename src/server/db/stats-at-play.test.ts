import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { emptyPgliteOptions, pgliteOptions } from '../test/empty-pglite.ts';

const MIGRATIONS = fileURLToPath(new URL('./migrations', import.meta.url));

/** The migrations as they stood before `tag`, in a folder of their own. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pluckers-migrations-'));
  await cp(MIGRATIONS, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  for (const entry of journal.entries.slice(at)) await rm(path.join(folder, `${entry.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

/** The earliest migration these tests stop before. */
const FIRST_TESTED = '0021_stats_at_play';

let base: Promise<Blob> | undefined;

/**
 * A database with the migrations before FIRST_TESTED applied, dumped once for the file: every
 * test starts from it and applies only the migrations up to its own, instead of creating a
 * database and applying the twenty before it again. It starts as an empty database loaded from
 * the run's template, rather than a cluster created anew (initdb).
 */
function baseDump(): Promise<Blob> {
  base ??= (async () => {
    const [folder, options] = await Promise.all([
      migrationsBefore(FIRST_TESTED),
      emptyPgliteOptions(),
    ]);
    const client = new PGlite(options);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      return await client.dumpDataDir('none');
    } finally {
      await client.close();
      await rm(folder, { recursive: true, force: true });
    }
  })();
  return base;
}
// Made before the first test, so its cost counts against the set-up's time, not that test's.
beforeAll(async () => {
  await baseDump();
});

/** A PGlite database with the migrations before `tag` applied, closed when the test ends. */
async function migratedUpTo(tag: string) {
  const [folder, options] = await Promise.all([
    migrationsBefore(tag),
    baseDump().then(pgliteOptions),
  ]);
  const client = new PGlite(options);
  onTestFinished(async () => {
    await client.close();
    await rm(folder, { recursive: true, force: true });
  });
  const db = drizzle({ client });
  await migrate(db, { migrationsFolder: folder });
  return { client, db };
}

describe('migration 0021: games played counted at play', () => {
  it("counts the entries of games not yet drawn or cancelled, and only those, in their players' stats", async () => {
    const { client, db } = await migratedUpTo('0021_stats_at_play');

    const users = await client.query<{ id: string }>(`
      INSERT INTO users (handle, fullname, email, points) VALUES
        ('near_two', 'Near Two', 'near@example.test', 95), ('fresh', 'Fresh', 'fresh@example.test', 0)
      RETURNING id`);
    const games = await client.query<{ id: string }>(`
      INSERT INTO games (title, reward, maximum_players, seed, commitment, status) VALUES
        ('open', 0, 10, 's', 'c', 'ONGOING'), ('closed', 0, 10, 's', 'c', 'CLOSED'),
        ('drawn', 0, 10, 's', 'c', 'COMPLETED'), ('off', 0, 10, 's', 'c', 'CANCELLED')
      RETURNING id`);
    const [nearTwo, fresh] = users.rows;
    for (const game of games.rows)
      await client.query(
        `INSERT INTO game_entries (game_id, user_id, answer, amount_paid) VALUES ($1, $2, 'x', 0)`,
        [game.id, nearTwo?.id],
      );
    await client.query(
      `INSERT INTO game_entries (game_id, user_id, answer, amount_paid) VALUES ($1, $2, 'x', 0)`,
      [games.rows[0]?.id, fresh?.id],
    );

    await migrate(db, { migrationsFolder: MIGRATIONS });
    const stats = await client.query(
      'SELECT handle, total_games_played AS played, points, level FROM users ORDER BY handle',
    );
    // The drawn game was counted by its draw, the cancelled one never was.
    expect(stats.rows).toEqual([
      { handle: 'fresh', played: 1, points: 10, level: 1 },
      { handle: 'near_two', played: 2, points: 115, level: 2 },
    ]);
  });
});

describe("migration 0022: the day's game count in the player's row", () => {
  it("counts each player's entries taken since Lagos midnight, refunded ones included", async () => {
    const { client, db } = await migratedUpTo('0022_play_in_batches');

    const users = await client.query<{ id: string }>(`
      INSERT INTO users (handle, fullname, email) VALUES
        ('busy', 'Busy', 'busy@example.test'), ('yesterday', 'Yesterday', 'yesterday@example.test')
      RETURNING id`);
    const games = await client.query<{ id: string }>(`
      INSERT INTO games (title, reward, maximum_players, seed, commitment, status) VALUES
        ('a', 0, 10, 's', 'c', 'ONGOING'), ('b', 0, 10, 's', 'c', 'CANCELLED'),
        ('c', 0, 10, 's', 'c', 'COMPLETED')
      RETURNING id`);
    const [busy, yesterday] = users.rows;
    const [a, b, c] = games.rows;
    // Lagos is UTC+1 all year: its midnight is 23:00 UTC the day before.
    const lagosMidnight = `(date_trunc('day', (now() AT TIME ZONE 'UTC') + interval '1 hour') - interval '1 hour') AT TIME ZONE 'UTC'`;
    const enter = (
      game: string | undefined,
      user: string | undefined,
      at: string,
      refunded = false,
    ) =>
      client.query(
        `INSERT INTO game_entries (game_id, user_id, answer, amount_paid, refunded, created_at)
         VALUES ($1, $2, 'x', 0, $3, ${at})`,
        [game, user, refunded],
      );
    await enter(a?.id, busy?.id, 'now()');
    await enter(b?.id, busy?.id, `${lagosMidnight} + interval '1 second'`, true);
    await enter(c?.id, busy?.id, `${lagosMidnight} - interval '1 second'`);
    await enter(c?.id, yesterday?.id, `${lagosMidnight} - interval '1 second'`);

    await migrate(db, { migrationsFolder: MIGRATIONS });
    const counts = await client.query(
      `SELECT handle, daily_games AS games, daily_games_day = ${lagosMidnight} AS today
       FROM users ORDER BY handle`,
    );
    expect(counts.rows).toEqual([
      { handle: 'busy', games: 2, today: true },
      { handle: 'yesterday', games: 0, today: null },
    ]);
  });
});

describe('migration 0032: short withdrawal references', () => {
  it('gives every existing withdrawal its own ten Crockford characters, and keeps them unique', async () => {
    const { client, db } = await migratedUpTo('0032_player_screens');
    const [player] = (
      await client.query<{ id: string }>(
        `INSERT INTO users (handle, fullname, email) VALUES ('payee', 'Payee', 'payee@example.test') RETURNING id`,
      )
    ).rows;
    for (let n = 0; n < 50; n += 1)
      await client.query(
        `INSERT INTO withdrawals (user_id, amount, fee, bank_code, bank_name, account_number, account_name)
         VALUES ($1, 10000, 5000, '058', 'Guaranty Trust Bank', '0123456789', 'PAYEE')`,
        [player?.id],
      );

    await migrate(db, { migrationsFolder: MIGRATIONS });
    const rows = (
      await client.query<{ short_reference: string }>('SELECT short_reference FROM withdrawals')
    ).rows.map((row) => row.short_reference);
    expect(rows).toHaveLength(50);
    for (const reference of rows) expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(new Set(rows).size).toBe(50);
    // The index refuses a second withdrawal under a reference already given.
    await expect(
      client.query(
        `INSERT INTO withdrawals (short_reference, user_id, amount, fee, bank_code, bank_name, account_number, account_name)
         VALUES ($1, $2, 10000, 5000, '058', 'Guaranty Trust Bank', '0123456789', 'PAYEE')`,
        [rows[0], player?.id],
      ),
    ).rejects.toThrow(/withdrawals_short_reference_unique/);
  });
});
