import { describe, expect, it } from 'vitest';
import { testAppPerFile } from './test/app.ts';
import { testDatabasePerFile } from './test/database.ts';
import { uniqueSuffix } from './test/factories.ts';
import { type JsonSchema, openApiOperations } from './test/openapi.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

/** Formats that bound a string's length by themselves. */
const BOUNDED_FORMATS = new Set(['uuid', 'date', 'date-time']);

/** Paths (`body.fullname`, `query.q` …) of every string input without a maximum length. */
function unboundedStrings(schema: JsonSchema | undefined, at: string, found: string[]): void {
  if (!schema) return;
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    unboundedStrings(branch, at, found);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    schema.enum === undefined &&
    schema.const === undefined &&
    !BOUNDED_FORMATS.has(schema.format ?? '')
  )
    found.push(at);
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    unboundedStrings(property, `${at}.${name}`, found);
  if (typeof schema.additionalProperties === 'object')
    unboundedStrings(schema.additionalProperties, `${at}.*`, found);
  unboundedStrings(schema.items, `${at}[]`, found);
}

describe('input lengths', () => {
  it('every text a route takes (body, query, path, header) has a maximum length', async () => {
    const app = fileApp();
    const found: string[] = [];
    for (const operation of openApiOperations(app)) {
      const where = `${operation.method} ${operation.url}`;
      for (const parameter of operation.parameters)
        unboundedStrings(parameter.schema, `${where} ${parameter.in}.${parameter.name}`, found);
      for (const [type, schema] of Object.entries(operation.body))
        unboundedStrings(schema, `${where} body(${type})`, found);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('a 100,000-character full name is refused with a clear message, and no account is made', async () => {
    const app = fileApp();
    const suffix = uniqueSuffix();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      remoteAddress: '10.13.0.1',
      payload: {
        fullname: 'A'.repeat(100_000),
        username: `l_${suffix}`.slice(0, 20),
        email: `long-${suffix}@example.test`,
        phoneNumber: '+2348012345678',
        password: 'correct horse',
        confirmPassword: 'correct horse',
        ageConfirmed: true,
      },
    });
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Full name must be at most 100 characters',
    });
  });
});
