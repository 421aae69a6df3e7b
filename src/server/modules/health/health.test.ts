import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';

const database = testDatabasePerFile();

/** A second handle on the test database (same kind), which this test may close. */
async function ownDatabase(): Promise<DatabaseHandle> {
  const databaseUrl = inject('testDatabaseUrl');
  if (databaseUrl) return openDatabase({ databaseUrl, dataDir: '', poolSize: 2 });
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('the PGlite template was not prepared by global-setup');
  return openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    inMemory: true,
    loadDataDir: new Blob([await readFile(template)]),
  });
}

describe('GET /api/health', () => {
  it('answers 200 with the database checked', async () => {
    const app = await buildTestApp(database());

    const response = await app.inject({ url: '/api/health' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      status: 'ok',
      database: 'ok',
      databaseKind: database().kind,
    });
  });

  it('needs no token', async () => {
    const app = await buildTestApp(database());
    const response = await app.inject({
      url: '/api/health',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 503 when the database cannot be reached', async () => {
    const handle = await ownDatabase();
    const app = await buildTestApp(handle);
    await handle.close();

    const response = await app.inject({ url: '/api/health' });

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      database: 'unreachable',
      databaseKind: handle.kind,
    });
  });
});
