import Ajv, { type ValidateFunction } from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse as Response } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp } from './test/app.ts';
import { testDatabasePerFile } from './test/database.ts';
import {
  bankByCode,
  bearerFor,
  createAdmin,
  createGame,
  uniqueSuffix,
  validNuban,
} from './test/factories.ts';
import { balanceOf, reviewSandboxTopUpsOf } from './test/fake-money.ts';
import { startSmtpServer, type TestSmtpServer } from './test/smtp.ts';
import { topUpFlow } from './test/top-ups.ts';

/**
 * The OpenAPI document is what other clients build against (docs/api.md), so it is held to the real answers: a scripted session, from sign-up to an
 * operator approving a withdrawal, and every response it gets, errors included, is validated
 * against the document's schema for that path, method and status.
 */
const database = testDatabasePerFile({ alone: true });
const PUBLIC_URL = 'http://localhost:3999';
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});

interface DocumentedResponse {
  content?: Record<string, { schema?: object }>;
  headers?: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface CallOptions {
  /** Values of the `{name}` segments of the documented path. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  payload?: Record<string, unknown>;
}

/** Calls the app by the path as the document writes it, and checks the answer against it. */
function contractClient(app: FastifyInstance) {
  const doc = app.swagger() as unknown as OpenApiDocument;
  // OpenAPI 3.0 schemas are JSON Schema draft 4 (boolean exclusiveMinimum) plus `nullable`,
  // which Ajv reads natively; strict, so a keyword Ajv does not know fails loudly.
  expect(doc.openapi).toMatch(/^3\.0\./);
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  const validators = new Map<object, ValidateFunction>();
  /** `METHOD path status` of every response validated, in order. */
  const checked: string[] = [];

  function check(method: Method, path: string, response: Response): void {
    const status = String(response.statusCode);
    const where = `${method} ${path} → ${status}`;
    const operation = doc.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
    const documented =
      operation.responses[status] ??
      operation.responses[`${status[0]}XX`] ??
      operation.responses.default;
    if (!documented) {
      const statuses = Object.keys(operation.responses).join(', ');
      throw new Error(
        `${where}: status not in the document (it has ${statuses})\n${response.body}`,
      );
    }
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) {
      if (response.body !== '')
        throw new Error(`${where}: the document says no body, got ${response.body.slice(0, 300)}`);
      for (const header of Object.keys(documented.headers ?? {}))
        if (response.headers[header] === undefined)
          throw new Error(`${where}: no ${header} header, which the document promises`);
      checked.push(`${method} ${path} ${status}`);
      return;
    }
    if (!String(response.headers['content-type']).startsWith('application/json'))
      throw new Error(`${where}: documented as JSON, sent as ${response.headers['content-type']}`);
    let validate = validators.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      validators.set(schema, validate);
    }
    const body: unknown = response.json();
    if (!validate(body)) {
      const errors = ajv.errorsText(validate.errors, { dataVar: 'body', separator: '\n  ' });
      throw new Error(
        `${where} does not match the OpenAPI document:\n  ${errors}\nbody: ${response.body.slice(0, 1000)}`,
      );
    }
    checked.push(`${method} ${path} ${status}`);
  }

  async function call(method: Method, path: string, options: CallOptions = {}) {
    const url = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
      return encodeURIComponent(value);
    });
    const response = await app.inject({
      method,
      url,
      query: options.query,
      headers: options.headers,
      payload: options.payload,
    });
    check(method, path, response);
    return response;
  }

  return { call, checked };
}

describe('OpenAPI contract', () => {
  it('a player from sign-up to an approved withdrawal gets the answers the document describes', async () => {
    const app = await buildTestApp(database(), { SMTP_URL: smtp.url, PUBLIC_URL });
    const { call, checked } = contractClient(app);
    const suffix = uniqueSuffix();
    const email = `contract-${suffix}@example.test`;
    const password = 'Quiz-Master-2024';

    // Public pages first, as the sign-up page loads them.
    await call('GET', '/api/v1/settings');
    await call('GET', '/api/v1/payment/methods');
    await call('GET', '/api/v1/bank');

    // Sign-up, the code from the e-mail, sign-in.
    const registered = await call('POST', '/api/v1/auth/register', {
      payload: {
        fullname: 'Ada Contract',
        username: `contract_${suffix}`,
        email,
        phoneNumber: '0803 123 4567',
        password,
        confirmPassword: password,
        ageConfirmed: true,
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const { code } = await smtp.waitForMail(email);
    expect(code).toMatch(/^\d{6}$/);
    const unverified = await call('POST', '/api/v1/auth/login', { payload: { email, password } });
    expect(unverified.statusCode).toBe(403);
    const verified = await call('POST', '/api/v1/auth/verify-email', {
      payload: { email, otp: code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const wrongPassword = await call('POST', '/api/v1/auth/login', {
      payload: { email, password: `${password}-wrong` },
    });
    expect(wrongPassword.statusCode).toBeGreaterThanOrEqual(400);
    const login = await call('POST', '/api/v1/auth/login', { payload: { email, password } });
    expect(login.statusCode, login.body).toBe(200);
    const { accessToken, user } = login.json().data as {
      accessToken: string;
      user: { id: string };
    };
    const player = { authorization: `Bearer ${accessToken}` };
    onTestFinished(() => reviewSandboxTopUpsOf(app.db, user.id));
    expect((await call('GET', '/api/v1/user')).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/user', { headers: player })).statusCode).toBe(200);

    // Games: the lists, one game, a play, and the refusal of a second play.
    const game = await createGame(app.db);
    await call('GET', '/api/v1/category', { headers: player });
    for (const gameType of ['TRENDING', 'NEW_CHALLANGES', 'HIGHEST_PAYOUTS', 'TOURNAMENT'])
      await call('GET', '/api/v1/game', { headers: player, query: { gameType } });
    const shown = await call('GET', '/api/v1/game/{id}', {
      headers: player,
      params: { id: game.id },
    });
    expect(shown.statusCode, shown.body).toBe(200);
    const played = await call('POST', '/api/v1/game/play', {
      headers: player,
      payload: { gameID: game.id, submittedAnswer: 'Suya at midnight' },
    });
    expect(played.statusCode, played.body).toBe(201);
    const again = await call('POST', '/api/v1/game/play', {
      headers: player,
      payload: { gameID: game.id, submittedAnswer: 'Jollof, obviously' },
    });
    expect(again.statusCode).toBeGreaterThanOrEqual(400);
    await call('GET', '/api/v1/game/played', { headers: player });
    await call('GET', '/api/v1/game/{id}/draw', { params: { id: game.id } });
    await call('GET', '/api/v1/leaderboard', { headers: player });

    // A top-up through the sandbox checkout: its Pay button stands in for the provider (and is
    // not part of the API), the browser then comes back through the documented callback.
    const topUp = await call('POST', '/api/v1/payment/{method}', {
      headers: player,
      params: { method: 'transactpay' },
      payload: { amount: 2500 },
    });
    expect(topUp.statusCode, topUp.body).toBe(200);
    const { paymentUrl, reference } = topUp.json().data as {
      paymentUrl: string;
      reference: string;
    };
    const paid = await topUpFlow(app, player).paySandbox(paymentUrl);
    const back = new URL(String(paid.headers.location), PUBLIC_URL);
    expect(back.pathname).toBe('/api/v1/payment/callback/transactpay');
    const status = await call('GET', '/api/v1/payment/callback/{method}', {
      params: { method: 'transactpay' },
      query: Object.fromEntries(back.searchParams),
    });
    expect(status.statusCode).toBe(302);
    expect(String(status.headers.location)).toContain('status=success');
    expect(await balanceOf(app.db, user.id)).toBe(250_000n);

    // The wallet's history.
    const history = await call('GET', '/api/v1/payment', { headers: player });
    expect(JSON.stringify(history.json())).toContain(reference);
    await call('GET', '/api/v1/notification', { headers: player });

    // KYC: the tier and its caps, and an identity check refused (the sandbox's test identity is
    // not Ada Contract).
    await call('GET', '/api/v1/kyc', { headers: player });
    const refusedCheck = await call('POST', '/api/v1/kyc/verify', {
      headers: player,
      payload: { idType: 'NIN', idNumber: '70123456789', dateOfBirth: '1990-05-14' },
    });
    expect(refusedCheck.statusCode).toBe(400);
    await call('POST', '/api/v1/notification/mark-all-as-read', { headers: player });

    // Where the money goes, then the withdrawal (a retry with its key returns the same one).
    const bank = await bankByCode(app.db, '044');
    const account = { bankID: bank.id, accountNumber: validNuban('044') };
    const resolved = await call('POST', '/api/v1/bank-account/resolve', {
      headers: player,
      payload: account,
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const saved = await call('POST', '/api/v1/bank-account', {
      headers: player,
      payload: account,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const tooMuch = await call('POST', '/api/v1/withdrawal', {
      headers: player,
      payload: { amount: 1_000_000 },
    });
    expect(tooMuch.statusCode).toBe(400);
    const withKey = { ...player, 'idempotency-key': `contract-${suffix}` };
    const requested = await call('POST', '/api/v1/withdrawal', {
      headers: withKey,
      payload: { amount: 1000 },
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const retried = await call('POST', '/api/v1/withdrawal', {
      headers: withKey,
      payload: { amount: 1000 },
    });
    expect(retried.statusCode).toBe(200);
    const withdrawalId = (requested.json().data as { id: string }).id;
    expect((retried.json().data as { id: string }).id).toBe(withdrawalId);
    await call('GET', '/api/v1/withdrawal', { headers: player });

    // The operator's side: the queue, the approval (paid through the sandbox's transfers), and
    // the books afterwards. A player is refused there.
    expect((await call('GET', '/api/v1/admin/withdrawals', { headers: player })).statusCode).toBe(
      403,
    );
    const operator = await bearerFor(app, await createAdmin(app.db));
    // On a shared PostgreSQL other files queue withdrawals too: ours may be on a later page.
    const queued: string[] = [];
    for (let page = 1, pages = 1; page <= pages; page += 1) {
      const queue = await call('GET', '/api/v1/admin/withdrawals', {
        headers: operator,
        query: { page: String(page) },
      });
      const data = queue.json().data as {
        withdrawals: Array<{ id: string }>;
        pagination: { totalPages: number };
      };
      queued.push(...data.withdrawals.map((withdrawal) => withdrawal.id));
      pages = data.pagination.totalPages;
      if (queued.includes(withdrawalId)) break;
    }
    expect(queued).toContain(withdrawalId);
    const approved = await call('POST', '/api/v1/admin/withdrawals/{id}/approve', {
      headers: operator,
      params: { id: withdrawalId },
      // The first payout to an account is held for review: approving it takes a note.
      payload: { reviewNote: 'First payout; account name matches' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ id: withdrawalId, internalStatus: 'SUCCESSFUL' });
    const twice = await call('POST', '/api/v1/admin/withdrawals/{id}/approve', {
      headers: operator,
      params: { id: withdrawalId },
      payload: {},
    });
    expect(twice.statusCode).toBe(409);
    await call('GET', '/api/v1/admin/users/{id}', { headers: operator, params: { id: user.id } });
    await call('GET', '/api/v1/admin/ledger/check', { headers: operator });
    await call('GET', '/api/v1/admin/reports', { headers: operator });
    await call('GET', '/api/v1/admin/audit', { headers: operator });
    await call('GET', '/api/v1/admin/settings', { headers: operator });
    await call('GET', '/api/v1/admin/kyc/documents', { headers: operator });
    await call('GET', '/api/v1/withdrawal', { headers: player });
    // ₦2,500 in, ₦1,000 + the ₦50 fee out.
    expect(await balanceOf(app.db, user.id)).toBe(145_000n);
    const chart = await call('GET', '/api/v1/wallet/balance-history', { headers: player });
    expect((chart.json().data as { points: { balance: number }[] }).points.at(-1)?.balance).toBe(
      1450,
    );

    // Every step was checked, errors included (4XX and 3XX as the document declares them).
    expect(checked).toEqual(
      expect.arrayContaining([
        'POST /api/v1/auth/register 201',
        'POST /api/v1/auth/login 403',
        'GET /api/v1/user 401',
        'POST /api/v1/game/play 201',
        'GET /api/v1/payment/callback/{method} 302',
        'POST /api/v1/withdrawal 201',
        'POST /api/v1/withdrawal 200',
        'GET /api/v1/admin/withdrawals 403',
        'POST /api/v1/admin/withdrawals/{id}/approve 200',
        'POST /api/v1/admin/withdrawals/{id}/approve 409',
      ]),
    );
  });

  it('names the path and the schema error when an answer breaks the document', async () => {
    const app = await buildTestApp(database());
    const { call } = contractClient(app);
    // The settings route's real answer, checked against another route's schema: a mismatch,
    // as a route that drifted from its document would be.
    const doc = app.swagger() as unknown as OpenApiDocument;
    const settings = doc.paths['/api/v1/settings']?.get;
    const bank = doc.paths['/api/v1/bank']?.get?.responses['200'];
    if (!settings || !bank) throw new Error('the document lost /settings or /bank');
    settings.responses['200'] = bank;

    await expect(call('GET', '/api/v1/settings')).rejects.toThrow(
      /GET \/api\/v1\/settings → 200 does not match the OpenAPI document:\n {2}body\/data must be array/,
    );
  });
});
