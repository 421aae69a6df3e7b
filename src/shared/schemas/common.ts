import { z } from 'zod';
import { ERROR_CODES } from '../error-codes.ts';
import { RULE_MESSAGES } from '../messages.ts';

/**
 * Every error body the API sends (docs/product.md#errors): the message and status the product
 * has always sent, and a stable code clients branch on (src/shared/error-codes.ts).
 */
export const errorBodySchema = z.object({
  message: z.string(),
  statusCode: z.number().int(),
  code: z.enum(ERROR_CODES),
  /** What the client needs to recover, e.g. the game's current state with a 409 from a play. */
  data: z.unknown().optional(),
});

export const messageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof messageSchema>;

/**
 * A redirect: no body, the browser goes to `Location`. As a response schema it documents the
 * route; the OpenAPI document drops the body (plugins/docs.ts) since there is none to serialize.
 */
export const redirectSchema = (where: string) => z.null().describe(where);

/** Success envelope: `data` plus an optional human message. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ message: z.string().optional(), data });
}
/** The body `envelope(schema)` describes, for a client that knows `data`'s type. */
export type Envelope<T> = { message?: string; data: T };

export const paginationSchema = z.object({
  totalResults: z.number().int(),
  totalPages: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** One page of a list: its rows under `key` (`users`, `games` …), then where the page stands. */
export function pageSchema<K extends string, T extends z.ZodType>(key: K, row: T) {
  const shape = { [key]: z.array(row), pagination: paginationSchema };
  return z.object(shape as { [P in K]: z.ZodArray<T> } & { pagination: typeof paginationSchema });
}

export const pageQuerySchema = z.object({
  page: z.coerce
    .number({ error: RULE_MESSAGES.pageNumber })
    .int(RULE_MESSAGES.pageNumber)
    .min(1, RULE_MESSAGES.pageNumber)
    .max(100_000, RULE_MESSAGES.pageNumber)
    .default(1),
});

export const idSchema = z.uuid({ error: 'Enter a valid id' });
export const idParamsSchema = z.object({ id: idSchema });

/** Timestamps travel as ISO-8601 strings. */
export const timestampSchema = z.iso.datetime({ offset: true });

/** Naira amounts as the API speaks them (docs/product.md#data); the server stores kobo. */
export const nairaSchema = z.number();
