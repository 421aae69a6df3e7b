import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The current text of every PostgreSQL function, one file each (`functions/<name>.sql`, a
 * `CREATE OR REPLACE FUNCTION`). Migrations create tables, triggers and types, and drop a
 * function whose arguments or result change; they never restate a function's body. The body that
 * runs is the file's, applied after the migrations.
 */
const functionsFolder = fileURLToPath(new URL('./functions', import.meta.url));

export interface FunctionFiles {
  /** Every file's text, in file-name order. */
  texts: string[];
  /** One digest of them all: the database keeps the last one applied. */
  digest: string;
}

export async function readFunctionFiles(folder = functionsFolder): Promise<FunctionFiles> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.sql')).sort();
  const texts = await Promise.all(names.map((name) => readFile(path.join(folder, name), 'utf8')));
  const hash = createHash('sha256');
  for (const [index, name] of names.entries()) hash.update(`${name}\0${texts[index]}\0`);
  return { texts, digest: hash.digest('hex') };
}

/** Runs text (several statements allowed) on the connection that holds the migration lock. */
export type RunSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Applies the function files in one transaction, unless the database already holds this exact
 * set (`drizzle.pluckers_functions`, migration 0030): a start-up or a test's app then costs one
 * read. Function bodies are not checked as they are created (check_function_bodies off), so a
 * file may call a function another file creates.
 */
export async function applyFunctionFiles(run: RunSql, files: FunctionFiles): Promise<boolean> {
  const { rows } = await run('SELECT digest FROM drizzle.pluckers_functions');
  if ((rows[0] as { digest?: string } | undefined)?.digest === files.digest) return false;
  await run('BEGIN');
  try {
    await run('SET LOCAL check_function_bodies = off');
    for (const text of files.texts) await run(text);
    await run('DELETE FROM drizzle.pluckers_functions');
    await run('INSERT INTO drizzle.pluckers_functions (digest) VALUES ($1)', [files.digest]);
    await run('COMMIT');
  } catch (error) {
    await run('ROLLBACK');
    throw error;
  }
  return true;
}
