import { describe, expect, it } from 'vitest';
import { testAppPerFile } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, unknown> };
}
interface OpenApiOperation {
  security?: unknown[];
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<
    string,
    {
      content?: Record<string, { schema?: JsonSchema } | undefined>;
      headers?: Record<string, unknown>;
    }
  >;
}
interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
}

/**
 * Operations that change something without a request body, each with the reason. Any other
 * POST, PUT or DELETE must document the body it reads.
 */
const NO_REQUEST_BODY: Record<string, string> = {
  'POST /api/v1/auth/resend-token': 'the address is in the query',
  'POST /api/v1/auth/logout': 'the session is the bearer token',
  'POST /api/v1/auth/logout-all': 'the account is the bearer token',
  'POST /api/v1/user/step-up-code': 'the code goes to the signed-in account',
  'DELETE /api/v1/user/email/pending': 'the pending address is the signed-in account',
  'POST /api/v1/notification/mark-all-as-read': "the signed-in account's notifications",
  'POST /api/v1/payment/webhook/{method}':
    "the provider's own payload, read as raw bytes to check its signature",
  'POST /api/v1/plan/subscribe/{id}': 'the plan is in the path',
  'POST /api/v1/admin/games/{id}/close': 'the game is in the path',
  'POST /api/v1/admin/second-factor/enrolment': 'a new secret for the signed-in operator',
};

/** Operations whose success is a file to save rather than JSON, with its media type. */
const DOWNLOADS: Record<string, string> = {
  'GET /api/v1/responsible-play/statement.csv': 'text/csv',
};

describe('OpenAPI', () => {
  it('documents every /api/v1 operation: JSON success and error bodies, redirects and request bodies', async () => {
    const app = fileApp();
    const doc = app.swagger() as unknown as OpenApiDocument;

    const problems: string[] = [];
    const bodiless = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${path}`;
        const statuses = Object.keys(operation.responses);
        const successes = statuses.filter((status) => /^2\d\d$/.test(status));
        const redirects = statuses.filter((status) => /^3\d\d$/.test(status));
        if (successes.length + redirects.length === 0) problems.push(`${name}: no success status`);
        for (const status of [...successes, '4XX', '5XX']) {
          const content = operation.responses[status]?.content;
          const download = DOWNLOADS[name];
          if (download && successes.includes(status)) {
            if (!content?.[download]) problems.push(`${name} ${status}: no ${download} body`);
            continue;
          }
          const schema = content?.['application/json']?.schema;
          if (!schema?.properties) problems.push(`${name} ${status}: no JSON object schema`);
        }
        for (const status of redirects) {
          const response = operation.responses[status];
          if (response?.content) problems.push(`${name} ${status}: a redirect has no body`);
          if (!response?.headers?.location) problems.push(`${name} ${status}: no Location`);
        }
        const content = operation.requestBody?.content ?? {};
        const bodySchemas = Object.values(content).filter((media) => media.schema?.properties);
        if (method === 'get' && operation.requestBody) problems.push(`${name}: a GET with a body`);
        if (method !== 'get' && bodySchemas.length === 0) bodiless.add(name);
      }
    }
    expect(problems).toEqual([]);
    // Both ways: the list names exactly the operations that take no body.
    expect([...bodiless].sort()).toEqual(Object.keys(NO_REQUEST_BODY).sort());
    expect(
      doc.paths['/api/v1/upload/profile-photo']?.post?.requestBody?.content?.['multipart/form-data']
        ?.schema?.required,
    ).toEqual(['file']);
  });

  it('GET /api/docs/json documents the API from the zod schemas', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/docs/json' });

    expect(response.statusCode).toBe(200);
    const doc: OpenApiDocument = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Pluckers API');
    for (const path of [
      '/api/health',
      '/api/v1/settings',
      '/api/v1/category',
      '/api/v1/bank',
      '/api/v1/user',
      '/api/v1/notification',
      '/api/v1/notification/mark-all-as-read',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }

    const settings =
      doc.paths['/api/v1/settings']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(Object.keys(settings?.properties?.data?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'withdrawalTransactionFee',
        'minimumPaymentAmount',
        'dailyGameLimit',
      ]),
    );
    const bank =
      doc.paths['/api/v1/bank']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(Object.keys(bank?.properties?.data?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'bankName', 'code']),
    );

    const notifications = doc.paths['/api/v1/notification']?.get;
    expect(notifications?.security).toEqual([{ bearerAuth: [] }]);
    expect(notifications?.parameters).toContainEqual(
      expect.objectContaining({ name: 'page', in: 'query' }),
    );
    expect(doc.components.securitySchemes).toHaveProperty('bearerAuth');
  });

  it('GET /api/docs/ serves the documentation UI', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/docs/' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toMatch(/swagger/i);
  });

  it('serves the UI scripts it links to from this server', async () => {
    const app = fileApp();
    const html = (await app.inject({ url: '/api/docs/' })).body;
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src, src).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(src, 'http://localhost/api/docs/').pathname;
      const script = await app.inject({ url });
      expect(script.statusCode, url).toBe(200);
    }
  });
});
