import {
  type ParserOptions,
  type PGlite,
  type QueryOptions,
  type Transaction,
  types,
} from '@electric-sql/pglite';

const asText = (value: string) => value;

/**
 * The types drizzle-orm/pglite asks PGlite to leave as the text PostgreSQL sends, for Drizzle to
 * map itself: timestamps, intervals and dates, and arrays of those and of numerics.
 */
const DRIZZLE_TEXT_PARSERS: ParserOptions = Object.fromEntries(
  [
    types.TIMESTAMP,
    types.TIMESTAMPTZ,
    types.INTERVAL,
    types.DATE,
    1115,
    1185,
    1187,
    1182,
    1231,
  ].map((type) => [type, asText]),
);

/** A query's options without parsers the client was given already. */
function withoutClientParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers || !Object.keys(parsers).every((type) => type in DRIZZLE_TEXT_PARSERS))
    return options;
  return { ...options, parsers: undefined };
}

/**
 * Gives an opened PGlite client the parsers Drizzle repeats, and drops them from each query, in
 * and out of transactions. Drizzle passes them with every query, and PGlite merges a query's
 * parsers into a copy of its whole table (hundreds of types) every time: half the CPU of a small
 * query. Set after opening, as PGlite builds its array parsers while it opens. Queries that bring
 * other parsers keep them; raw queries on this client read those types as text too, as Drizzle's
 * do.
 */
export function applyParsersOnce(client: PGlite): void {
  Object.assign(client.parsers, DRIZZLE_TEXT_PARSERS);
  const query = client.query.bind(client);
  client.query = <T>(text: string, params?: unknown[], options?: QueryOptions) =>
    query<T>(text, params, withoutClientParsers(options));
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      // The transaction's other members (its `closed` getter among them) stay its own.
      const lean: Transaction = Object.create(tx, {
        query: {
          value: <R>(text: string, params?: unknown[], options?: QueryOptions) =>
            tx.query<R>(text, params, withoutClientParsers(options)),
        },
      });
      return callback(lean);
    });
}
