import type { FastifyInstance } from 'fastify';

/** The parts of a JSON schema (as the OpenAPI document writes the zod schemas) tests read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** Fastify's form: `/api/v1/game/:id`. */
  url: string;
  parameters: OpenApiParameter[];
  /** Content type → schema of the request body. */
  body: Record<string, JsonSchema | undefined>;
  secured: boolean;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: OpenApiParameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        security?: unknown[];
      }
    >
  >;
}

/** Every operation of the app's OpenAPI document (the app must be ready). */
export function openApiOperations(app: FastifyInstance): Operation[] {
  const doc = app.swagger() as unknown as OpenApiDocument;
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const body: Record<string, JsonSchema | undefined> = {};
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {}))
        body[type] = content.schema;
      operations.push({
        method: method.toUpperCase(),
        url: path.replace(/\{(\w+)\}/g, ':$1'),
        parameters: operation.parameters ?? [],
        body,
        secured: (operation.security?.length ?? 0) > 0,
      });
    }
  }
  return operations;
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app registered, as Fastify prints them (its radix tree: each line adds its
 * segment to its parent's path). HEAD routes Fastify adds beside GETs are left out.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (parents[depth - 1] ?? '') + (match[2] ?? '');
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean))
      if (method !== 'HEAD') routes.push({ method, url: path });
  }
  return routes;
}
