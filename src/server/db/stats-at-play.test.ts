import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it, onTestFinished } from 'vitest';

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

describe('migration 0021: games played counted at play', () => {
  it("counts the entries of games not yet drawn or cancelled, and only those, in their players' stats", async () => {
    const folder = await migrationsBefore('0021_stats_at_play');
    const client = new PGlite();
    onTestFinished(async () => {
      await client.close();
      await rm(folder, { recursive: true, force: true });
    });
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder: folder });

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
