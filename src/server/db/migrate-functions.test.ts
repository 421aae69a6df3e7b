import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testDatabasePerFile } from '../test/database.ts';
import { applyFunctionFiles, type RunSql, readFunctionFiles } from './migrate-functions.ts';
import { rowsOf } from './rows.ts';

const database = testDatabasePerFile();
const functionsFolder = fileURLToPath(new URL('./functions', import.meta.url));
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * What node-postgres's clients and PGlite both answer. Without values, PGlite's exec and
 * node-postgres's simple query take a file of several statements (a function and its trigger),
 * as the migrator's runners do (db/client.ts).
 */
interface PositionalClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec?(text: string): Promise<Array<{ rows: unknown[] }>>;
}

/** A connection of its own, as the migrator's: PGlite's only one, or one from the pool. */
async function connection(): Promise<{ run: RunSql; texts: string[] }> {
  const client = (database().db as unknown as { $client: PositionalClient | pg.Pool }).$client;
  let one: PositionalClient = client;
  if (client instanceof pg.Pool) {
    const pooled = await client.connect();
    onTestFinished(() => pooled.release());
    one = pooled;
  }
  const texts: string[] = [];
  return {
    texts,
    run: async (text, values) => {
      texts.push(text);
      if (values) return one.query(text, values);
      if (one.exec) return (await one.exec(text)).at(-1) ?? { rows: [] };
      return one.query(text);
    },
  };
}

describe('one source for SQL functions', () => {
  it('runs the text of each function file, and every function of ours has one', async () => {
    const rows = await rowsOf<{ name: string; body: string }>(
      database().db,
      sql`SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p
          JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d
            WHERE d.objid = p.oid AND d.deptype = 'e')
          ORDER BY 1`,
    );
    const files = (await readdir(functionsFolder)).filter((name) => name.endsWith('.sql'));
    expect(rows.map((row) => `${row.name}.sql`)).toEqual(files.sort());
    for (const row of rows) {
      const text = await readFile(path.join(functionsFolder, `${row.name}.sql`), 'utf8');
      expect(text, row.name).toContain(row.body);
    }
  });

  it('applies the files again only when one of them changed', async () => {
    const current = await readFunctionFiles();
    const unchanged = await connection();
    expect(await applyFunctionFiles(unchanged.run, current)).toBe(false);
    expect(unchanged.texts).toHaveLength(1);

    // The same functions with a comment added: a new digest, so every file runs again.
    const folder = await mkdtemp(path.join(tmpdir(), 'pluckers-functions-'));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    for (const name of await readdir(functionsFolder)) {
      const text = await readFile(path.join(functionsFolder, name), 'utf8');
      await writeFile(path.join(folder, name), `-- edited\n${text}`);
    }
    const edited = await readFunctionFiles(folder);
    expect(edited.digest).not.toBe(current.digest);
    const applied = await connection();
    expect(await applyFunctionFiles(applied.run, edited)).toBe(true);
    expect(applied.texts.filter((text) => text.startsWith('-- edited'))).toHaveLength(
      edited.texts.length,
    );
    // Back to the files as they are, so the next start has nothing to do.
    expect(await applyFunctionFiles(applied.run, current)).toBe(true);
    expect(await applyFunctionFiles(applied.run, current)).toBe(false);
  });

  it('leaves no function to be restated by a migration from 0030 on', async () => {
    const journal = JSON.parse(
      await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
    ) as { entries: Array<{ idx: number; tag: string }> };
    for (const entry of journal.entries.filter((entry) => entry.idx >= 30)) {
      const text = await readFile(path.join(migrationsFolder, `${entry.tag}.sql`), 'utf8');
      expect(text, entry.tag).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?FUNCTION/i);
    }
  });
});
