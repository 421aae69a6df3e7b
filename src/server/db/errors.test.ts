import { sql } from 'drizzle-orm';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort } from '../test/instances.ts';
import { openDatabase } from './client.ts';
import { isDatabaseUnavailable } from './errors.ts';

describe('isDatabaseUnavailable', () => {
  it('recognises a query on a PostgreSQL that refuses connections, as drizzle reports it', async () => {
    const gone = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${await freePort()}/gone`,
      dataDir: '',
      poolSize: 1,
    });
    onTestFinished(() => gone.close());

    const failure = await gone.db.execute(sql`SELECT 1`).then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).not.toBeNull();
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });

  it('recognises a server shutting down, crashed or starting, and a standby refusing a write', () => {
    for (const code of ['57P01', '57P02', '57P03', '25006', '08006', '08001'])
      expect(
        isDatabaseUnavailable(Object.assign(new Error('server said no'), { code })),
        code,
      ).toBe(true);
    const wrapped = new Error('Failed query: select 1', {
      cause: new Error('Connection terminated unexpectedly'),
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it('leaves every other failure alone: a constraint, a bug, a message that merely mentions connections', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })),
    ).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(
      isDatabaseUnavailable(new Error('connection to 10.0.0.5 refused: password=hunter2')),
    ).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
