import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** One request as a local fake server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. /api/v1/notification?page=2 */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeServer {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type FakeHandler = (request: RecordedRequest, response: ServerResponse) => void;

/** Answers with a JSON body (or nothing for `undefined`). */
export function sendJson(response: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * A throwaway node:http server on 127.0.0.1 for what the real server never does on purpose:
 * stall, answer HTML, hold two requests until both arrived. Closed when the test finishes.
 * The Pluckers API itself is tested against the real server (src/test/server.ts).
 */
export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      handler(request, response);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closing;
  };
  onTestFinished(close);
  return { origin: `http://127.0.0.1:${port}`, requests, close };
}

/** An origin nothing listens on: a port that was free a moment ago, now closed again. */
export async function closedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
