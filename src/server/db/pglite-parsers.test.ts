import { PGlite, types } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPgliteOptions } from '../test/empty-pglite.ts';
import { applyParsersOnce } from './pglite-parsers.ts';

/** A new, empty PGlite database: loaded from the run's template when there is one (no initdb). */
async function openPlainClient(): Promise<PGlite> {
  return PGlite.create(await emptyPgliteOptions());
}

async function openClient(): Promise<PGlite> {
  const client = await openPlainClient();
  applyParsersOnce(client);
  return client;
}

const DRIZZLE_OPTIONS = {
  rowMode: 'object' as const,
  parsers: { [types.TIMESTAMPTZ]: (value: string) => value },
};

describe('a PGlite client given the parsers Drizzle repeats', () => {
  let marked: PGlite;
  beforeAll(async () => {
    // The client's own parser marks what it parsed, so a test sees whose parser ran.
    marked = await openClient();
    marked.parsers[types.TIMESTAMPTZ] = (value: string) => `client:${value}`;
  });
  afterAll(() => marked.close());

  it("leaves a query's copy of them out, in and out of a transaction", async () => {
    const text = "SELECT '2026-11-29 12:00:00+00'::timestamptz AS at";
    const alone = await marked.query<{ at: string }>(text, [], DRIZZLE_OPTIONS);
    expect(alone.rows[0]?.at).toBe('client:2026-11-29 12:00:00+00');
    const inside = await marked.transaction(async (tx) => {
      const result = await tx.query<{ at: string }>(text, [], DRIZZLE_OPTIONS);
      expect(tx.closed).toBe(false);
      return result;
    });
    expect(inside.rows[0]?.at).toBe('client:2026-11-29 12:00:00+00');
  });

  it('keeps the parsers of a query that brings others', async () => {
    const { rows } = await marked.query<{ n: string }>('SELECT 7::int4 AS n', [], {
      parsers: { [types.INT4]: (value: string) => `query:${value}` },
    });
    expect(rows[0]?.n).toBe('query:7');
  });

  it('still rolls a failed transaction back', async () => {
    await marked.exec('CREATE TABLE kept (n int)');
    await expect(
      marked.transaction(async (tx) => {
        await tx.query('INSERT INTO kept VALUES (1)', [], DRIZZLE_OPTIONS);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await marked.query('SELECT * FROM kept')).rows).toEqual([]);
  });
});

describe('Drizzle on such a client', () => {
  const events = pgTable('events', {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  });
  const clients: PGlite[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.close())));

  /** What Drizzle reads back on `client`: a row it wrote in a transaction, and raw values. */
  async function readBack(client: PGlite) {
    clients.push(client);
    await client.exec(
      'CREATE TABLE events (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), at timestamptz NOT NULL)',
    );
    const db = drizzle({ client });
    await db.transaction(async (tx) => {
      await tx.insert(events).values({ at: new Date('2026-11-29T11:00:00.000Z') });
    });
    const rows = await db.select({ at: events.at }).from(events);
    const raw = await db.execute(
      sql`SELECT interval '90 minutes' AS span, date '2026-11-29' AS day,
        timestamp '2026-11-29 12:00' AS local, ARRAY[1.50, 2.25]::numeric[] AS amounts,
        ARRAY[timestamptz '2026-11-29 11:00+00'] AS times, 12.5::numeric AS amount`,
    );
    return { rows, raw: raw.rows };
  }

  it('reads what it reads on a PGlite without them: Dates, and the text of the rest', async () => {
    const plain = await openPlainClient();
    const expected = await readBack(plain);
    expect(expected.rows).toEqual([{ at: new Date('2026-11-29T11:00:00.000Z') }]);
    expect(await readBack(await openClient())).toEqual(expected);
  });
});
