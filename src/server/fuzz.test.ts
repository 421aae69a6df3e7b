/**
 * Property-based fuzzing of every route: random and hostile paths, query strings,
 * headers and bodies, without a token, as a player and as an operator. No answer may be a 5xx,
 * and the ledger must still balance at the end. Routes the OpenAPI document describes get
 * inputs shaped by their schemas (so the fuzzing reaches past validation); the others (sandbox
 * checkout, avatars, docs) and the raw-body ones (webhooks, the photo upload) get hostile
 * inputs of their own. Set FUZZ_SEED to replay a run; FUZZ_RUNS to fuzz longer.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { anyText } from '../test/arbitraries.ts';
import { banks, categories, plans, users } from './db/schema.ts';
import { buildTestApp } from './test/app.ts';
import { testDatabasePerFile } from './test/database.ts';
import { createGame, createUser, fundWallet, type UserRow } from './test/factories.ts';
import { expectLedgerOk } from './test/ledger.ts';
import {
  type JsonSchema,
  type OpenApiParameter,
  openApiOperations,
  registeredRoutes,
} from './test/openapi.ts';

const database = testDatabasePerFile();

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Runs per route and caller: every route is asked RUNS times by each of the 3 callers. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

type Caller = 'anonymous' | 'player' | 'operator';
const CALLERS: Caller[] = ['anonymous', 'player', 'operator'];

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

interface Failure {
  route: string;
  caller: Caller;
  request: Request;
  statusCode: number | string;
  body: string;
}

/** JSON text with an own `__proto__` key, which an object literal cannot write. */
const PROTO_JSON = [
  '{"__proto__":{"role":"admin","isAdmin":true}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  '{"amount":1e999}',
  '{"amount":-0}',
  '{"amount":1e308}',
  '[1e308,-1e308]',
  'NaN',
  '{"a":',
  '',
  'null',
  '"\\u0000"',
  '{"title":"\\ud800"}',
  `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  JSON.stringify({ x: 'y'.repeat(900_000) }),
];

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '1e308',
  '-1e308',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '%ZZ',
  '\u202Egnp.exe',
  '\u2800'.repeat(40),
  '\u200B'.repeat(60),
  '😀'.repeat(200),
  'x'.repeat(10_000),
  'y'.repeat(301),
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '2026-02-30T25:61:61Z',
  '9999-12-31',
  '-000001-01-01T00:00:00Z',
  'paystack',
  'transactpay',
  'sandbox',
];

const HOSTILE_NUMBERS = [
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -0,
  0,
  1e-300,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  -1,
  0.001,
  0.005,
  1.5,
  100,
  1000,
  1e21,
  2 ** 31,
  2 ** 63,
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: anyText({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 400 }) },
);
const hostileNumber = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);
const { hostileValue } = fc.letrec<{ hostileValue: unknown }>((tie) => ({
  hostileValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('hostileValue'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(hostileString, fc.string()), tie('hostileValue'), { maxKeys: 3 }),
  ),
}));

/** Well-formed values from the route's own schema, so requests also get past validation. */
function validish(schema: JsonSchema | undefined, ids: Ids): fc.Arbitrary<unknown> {
  if (!schema) return hostileValue;
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length > 0) return fc.oneof(...branches.map((branch) => validish(branch, ids)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ids.all), fc.uuid());
      if (schema.format === 'email')
        return fc.constantFrom(ids.playerEmail, 'nobody@example.test', 'FUZZ@Example.Test');
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map(iso);
      if (schema.format === 'date') return fc.date({ noInvalidDate: true }).map(day);
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      return fc.oneof(
        fc.string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.min(schema.maxLength ?? 40, 40),
        }),
        // Ids the database knows, for fields that take an id without saying so (gameID …).
        fc.constantFrom(...ids.all),
      );
    case 'number':
    case 'integer': {
      const min = schema.minimum ?? schema.exclusiveMinimum ?? -1_000;
      const max = schema.maximum ?? schema.exclusiveMaximum ?? 1_000_000;
      const whole = fc.integer({
        min: Math.max(Math.ceil(min), -(2 ** 31)),
        max: Math.min(Math.floor(max), 2 ** 31),
      });
      // Doubles alone are mostly tiny fractions; amounts people type are mostly whole.
      return type === 'integer' ? whole : fc.oneof(whole, fc.double({ min, max, noNaN: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(shaped(schema.items, ids), { maxLength: 3 });
    case 'object': {
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        record[name] = shaped(property, ids);
      return fc.record(record, { requiredKeys: schema.required ?? [] });
    }
    default:
      return hostileValue;
  }
}

/** Mostly well-formed, sometimes hostile. */
function shaped(schema: JsonSchema | undefined, ids: Ids): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: validish(schema, ids) },
    { weight: 1, arbitrary: hostileValue },
  );
}

const iso = (date: Date) => {
  try {
    return date.toISOString();
  } catch {
    return '2026-01-01T00:00:00.000Z';
  }
};
const day = (date: Date) => iso(date).slice(0, 10);

interface Ids {
  all: string[];
  playerEmail: string;
}

/** A query or path value as text, sometimes with raw (not encoded) hostile pieces. */
const asText = (value: unknown) =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
/** encodeURIComponent, except that an unpaired surrogate goes as its (invalid) UTF-8 bytes. */
const encodeLoosely = (text: string) =>
  [...text]
    .map((character) =>
      /[\uD800-\uDFFF]/u.test(character) ? '%ED%A0%80' : encodeURIComponent(character),
    )
    .join('');
const encoded = fc.oneof(
  { weight: 4, arbitrary: fc.constant(encodeLoosely) },
  {
    weight: 1,
    arbitrary: fc.constant((text: string) =>
      text.replace(/[^A-Za-z0-9%._~-]/gu, (c) => encodeLoosely(c)),
    ),
  },
);
const rawPiece = fc.constantFrom('%00', '%ZZ', '%E0%A4%A', '%uD800', '..%2F..', '%2e%2e', '');

function pathArbitrary(url: string, parameters: OpenApiParameter[], ids: Ids, hostile: boolean) {
  const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  const values = names.map((name) => {
    const schema = parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
    return hostile
      ? fc.tuple(shaped(schema, ids), encoded, rawPiece)
      : fc.tuple(validish(schema, ids), fc.constant(encodeLoosely), fc.constant(''));
  });
  return fc.tuple(...values).map((parts) => {
    let concrete = url;
    names.forEach((name, index) => {
      const [value, encode, raw] = parts[index] ?? ['', encodeLoosely, ''];
      const text = encode(asText(value)) + raw;
      concrete = concrete.replace(`:${name}`, text === '' ? 'x' : text);
    });
    return concrete.replace('*', 'x');
  });
}

function queryArbitrary(parameters: OpenApiParameter[], ids: Ids, hostile: boolean) {
  const known = parameters.filter((p) => p.in === 'query');
  const pairs = fc.tuple(
    ...known.map((parameter) =>
      fc.option(
        hostile
          ? fc.tuple(
              fc.constant(parameter.name),
              shaped(parameter.schema, ids),
              encoded,
              fc.boolean(),
            )
          : fc.tuple(
              fc.constant(parameter.name),
              validish(parameter.schema, ids),
              fc.constant(encodeLoosely),
              fc.constant(false),
            ),
      ),
    ),
    hostile
      ? fc.array(fc.tuple(hostileString, hostileValue, encoded, fc.boolean()), { maxLength: 2 })
      : fc.constant([]),
    hostile ? fc.option(rawPiece) : fc.constant(null),
  );
  return pairs.map((all) => {
    const extra = all[known.length] as Array<[string, unknown, (t: string) => string, boolean]>;
    const raw = all[known.length + 1] as string | null;
    const chosen = [
      ...(all.slice(0, known.length) as Array<
        [string, unknown, (t: string) => string, boolean] | null
      >),
      ...extra,
    ].filter((pair) => pair !== null);
    const parts: string[] = [];
    for (const [name, value, encode, twice] of chosen) {
      const piece = `${encode(name)}=${encode(asText(value))}`;
      parts.push(piece);
      if (twice) parts.push(piece);
    }
    if (raw) parts.push(`q=${raw}`);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  });
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  '',
];

/** Header text HTTP can carry (no CR or LF), NUL included as some clients send it. */
const headerText = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', 'x'.repeat(8_000), '', ' ', 'ÿÿÿ', '1e308', '-1'),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)) }),
);

const extraHeaders = fc.record(
  {
    'idempotency-key': fc.oneof(headerText, fc.uuid()),
    'accept-encoding': fc.constantFrom('gzip, deflate, br, zstd', 'identity;q=0', '*', 'br;q=x'),
    accept: fc.constantFrom('*/*', 'text/html', 'application/json;q=0', '\u0000'),
    'x-forwarded-for': headerText,
    'x-paystack-signature': headerText,
    'if-none-match': headerText,
    cookie: headerText,
    range: fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=99999999999-', 'bytes=x'),
  },
  { requiredKeys: [] },
);

/** A body for a JSON route: shaped by its schema, random JSON, or hostile JSON text. */
function jsonBody(schema: JsonSchema | undefined, ids: Ids) {
  return fc.oneof(
    { weight: 3, arbitrary: validish(schema, ids).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 4, arbitrary: shaped(schema, ids).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_JSON) },
  );
}

/** Multipart bodies for the photo upload: broken framing, odd parts, non-images, NUL names. */
const multipartBody = fc
  .tuple(
    fc.constantFrom('fuzz', 'other', ''),
    fc.constantFrom('photo', 'file', '\u0000', '__proto__', 'x'.repeat(300)),
    fc.constantFrom('a.png', 'a\u0000.jpg', '../../x.webp', '', '😀.gif'),
    fc.constantFrom('image/png', 'image/jpeg', 'text/plain', '', 'image/svg+xml'),
    fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
      fc.constant(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
      fc.constant(Buffer.from('<svg onload="alert(1)"/>')),
    ),
    fc.boolean(),
  )
  .map(([boundary, field, filename, type, bytes, close]) => {
    const head = `--fuzz\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
    const payload = Buffer.concat([
      Buffer.from(head, 'latin1'),
      bytes,
      Buffer.from(close ? '\r\n--fuzz--\r\n' : ''),
    ]);
    return { contentType: `multipart/form-data; boundary=${boundary}`, payload };
  });

const RAW_BODY_ROUTES = new Set(['POST /api/v1/payment/webhook/:method']);
const MULTIPART_ROUTES = new Set(['POST /api/v1/upload/profile-photo']);

/**
 * Requests to one route: a third well-formed, so the fuzzing reaches the route's logic (plays,
 * payments, withdrawals, operators' changes), the rest hostile everywhere.
 */
function requestArbitrary(
  method: string,
  url: string,
  parameters: OpenApiParameter[],
  bodySchema: JsonSchema | undefined,
  ids: Ids,
): fc.Arbitrary<Request> {
  return fc.oneof(
    { weight: 1, arbitrary: requestOf(method, url, parameters, bodySchema, ids, false) },
    { weight: 2, arbitrary: requestOf(method, url, parameters, bodySchema, ids, true) },
  );
}

function requestOf(
  method: string,
  url: string,
  parameters: OpenApiParameter[],
  bodySchema: JsonSchema | undefined,
  ids: Ids,
  hostile: boolean,
): fc.Arbitrary<Request> {
  const route = `${method} ${url}`;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  let body: fc.Arbitrary<{ contentType: string; payload?: string | Buffer }>;
  if (!hasBody) body = fc.constant({ contentType: '' });
  else if (MULTIPART_ROUTES.has(route))
    body = fc.oneof(
      { weight: 4, arbitrary: multipartBody },
      {
        weight: 1,
        arbitrary: fc.record({
          contentType: fc.constantFrom(...CONTENT_TYPES),
          payload: jsonBody(undefined, ids),
        }),
      },
    );
  else if (RAW_BODY_ROUTES.has(route))
    body = fc.record({
      contentType: fc.constantFrom(...CONTENT_TYPES),
      payload: fc.oneof(
        jsonBody(undefined, ids),
        fc
          .record({
            event: fc.constantFrom('charge.success', 'transfer.success', 'transfer.failed'),
            data: fc.record({ reference: hostileString, amount: hostileNumber }),
          })
          .map((event) => JSON.stringify(event)),
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      ),
    });
  else if (!hostile)
    body = fc.record({
      contentType: fc.constant('application/json'),
      payload: validish(bodySchema, ids).map((value) => JSON.stringify(value) ?? 'null'),
    });
  else
    body = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          contentType: fc.constant('application/json'),
          payload: jsonBody(bodySchema, ids),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          contentType: fc.constantFrom(...CONTENT_TYPES),
          payload: jsonBody(bodySchema, ids),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ contentType: '' }) },
    );
  return fc
    .tuple(
      pathArbitrary(url, parameters, ids, hostile),
      queryArbitrary(parameters, ids, hostile),
      hostile ? extraHeaders : fc.constant({}),
      body,
    )
    .map(([path, query, headers, { contentType, payload }]) => ({
      method,
      url: `${path}${query}`,
      headers: contentType ? { ...headers, 'content-type': contentType } : { ...headers },
      ...(payload === undefined ? {} : { payload }),
    }));
}

/** Tokens for the player and operator, re-issued whenever the fuzzing revokes or suspends one. */
function callers(app: FastifyInstance, player: UserRow, operator: UserRow) {
  const accounts: Record<Exclude<Caller, 'anonymous'>, UserRow> = { player, operator };
  const tokens: Partial<Record<Caller, string>> = {};
  return {
    async headerFor(caller: Caller): Promise<Record<string, string>> {
      if (caller === 'anonymous') return {};
      tokens[caller] ??= await app.tokens.sign(accounts[caller]);
      return { authorization: `Bearer ${tokens[caller]}` };
    },
    /** After a 401 to a signed-in caller: restore the account (unsuspend) and sign again. */
    async refresh(caller: Caller) {
      if (caller === 'anonymous') return;
      const [row] = await app.db
        .update(users)
        .set({ suspendedAt: null, deletedAt: null })
        .where(eq(users.id, accounts[caller].id))
        .returning();
      if (row) accounts[caller] = row;
      app.tokens.forgetUser(accounts[caller].id);
      tokens[caller] = await app.tokens.sign(accounts[caller]);
    },
  };
}

describe('fuzzing every route', () => {
  // A fixed number of requests, so its time follows the machine: beside the browser tests on
  // a slow two-core machine it took several times as long as alone (docs/testing.md). The limit
  // is there to catch a hang, not a slow machine.
  it('no random or hostile request gets a 5xx, and the ledger still balances', {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    // The app as deployed, with a web build: paths outside the API get the page, not a 503.
    const webDist = await mkdtemp(path.join(tmpdir(), 'pluckers-fuzz-web-'));
    onTestFinished(() => rm(webDist, { recursive: true, force: true }));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Pluckers</title>');
    await writeFile(path.join(webDist, 'assets', 'app-fuzz.js'), 'export {};');
    const app = await buildTestApp(database(), { WEB_DIST: webDist });
    const player = await createUser(app.db);
    const operator = await createUser(app.db, { role: 'admin' });
    const [bank] = await app.db.select().from(banks).limit(1);
    await app.db
      .update(users)
      .set({
        bankId: bank?.id ?? null,
        bankAccountNumber: '0123456789',
        bankAccountName: 'Fuzz Plucker',
      })
      .where(eq(users.id, player.id));
    await fundWallet(app.db, player.id, 5_000_000n);
    const game = await createGame(app.db, { entryFee: 10_000n, maximumPlayers: 1_000 });
    const [category] = await app.db.select({ id: categories.id }).from(categories).limit(1);
    const [plan] = await app.db.select({ id: plans.id }).from(plans).limit(1);
    const ids: Ids = {
      all: [player.id, operator.id, game.id, category?.id, plan?.id, bank?.id].filter(
        (id): id is string => typeof id === 'string',
      ),
      playerEmail: player.email,
    };
    const who = callers(app, player, operator);

    const documented = new Map(
      openApiOperations(app).map((operation) => [
        `${operation.method} ${operation.url}`,
        operation,
      ]),
    );
    const routes = registeredRoutes(app);
    const failures: Failure[] = [];
    const statuses = new Map<number | string, number>();
    let requests = 0;

    for (const [index, route] of routes.entries()) {
      const key = `${route.method} ${route.url}`;
      const operation = documented.get(key);
      const jsonSchema = operation?.body['application/json'];
      const arbitrary = fc.tuple(
        fc.constantFrom(...CALLERS),
        requestArbitrary(route.method, route.url, operation?.parameters ?? [], jsonSchema, ids),
      );
      await fc.assert(
        fc.asyncProperty(arbitrary, async ([caller, request]) => {
          requests += 1;
          const headers = { ...request.headers, ...(await who.headerFor(caller)) };
          let statusCode: number | string;
          let body = '';
          try {
            const response = await app.inject({
              method: request.method as 'GET',
              url: request.url,
              headers,
              payload: request.payload,
              remoteAddress: `10.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`,
            });
            statusCode = response.statusCode;
            body = response.body.slice(0, 300);
          } catch (error) {
            statusCode = `threw ${String(error)}`;
          }
          statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
          if (typeof statusCode === 'string' || statusCode >= 500)
            failures.push({ route: key, caller, request, statusCode, body });
          if (statusCode === 401) await who.refresh(caller);
        }),
        { seed: SEED + index, numRuns: RUNS * CALLERS.length, endOnFailure: true },
      );
    }

    const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);
    const report = failures.map(({ route, caller, request, statusCode, body }) =>
      [
        `${route} as ${caller} → ${statusCode} ${clip(body)}`,
        `  ${request.method} ${clip(request.url)}`,
        `  headers ${clip(JSON.stringify(request.headers))}`,
        `  body ${clip(JSON.stringify(String(request.payload ?? '')))}`,
      ].join('\n'),
    );
    // The seed and size, so a failure found in CI can be replayed with FUZZ_SEED.
    process.stdout.write(
      `fuzz: seed ${SEED}, ${routes.length} routes, ${requests} requests, ${failures.length} failures, ${Date.now() - started} ms; answers ${JSON.stringify(Object.fromEntries([...statuses].sort()))}\n`,
    );
    expect(report, report.join('\n')).toEqual([]);
    await expectLedgerOk(app.db, [player.id, operator.id]);
  });
});
