import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';

const database = testDatabasePerFile();

interface OpenApiDocument {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, unknown> };
}
interface OpenApiOperation {
  security?: unknown[];
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { content?: { 'application/json'?: { schema?: JsonSchema } } }>;
}
interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
}

describe('OpenAPI', () => {
  it('GET /api/docs/json documents the API from the zod schemas', async () => {
    const app = await buildTestApp(database());

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
    const app = await buildTestApp(database());

    const response = await app.inject({ url: '/api/docs/' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toMatch(/swagger/i);
  });

  it('serves the UI scripts it links to from this server', async () => {
    const app = await buildTestApp(database());
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
