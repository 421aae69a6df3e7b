/**
 * The built web app as a plain static host would serve it, to set the server's own
 * part apart in the web section: each file as it is on disk, its pre-compressed .br or .gz when
 * the browser accepts one, a prerendered page for its paths and index.html for other pages, the
 * same cache headers; /api and /uploads are passed through to the real server, since Home
 * needs the API. No framework, no per-request work beyond finding the file.
 */
import { createReadStream, existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { prerenderedPage } from '../../src/shared/prerendered-pages.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

export interface PlainFiles {
  url: string;
  close(): Promise<void>;
}

export async function startPlainFiles(webDist: string, apiTarget: string): Promise<PlainFiles> {
  const root = path.resolve(webDist);
  const upstream = new URL(apiTarget);
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://plain').pathname);
    if (pathname.startsWith('/api/') || pathname.startsWith('/uploads/')) {
      const forwarded = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: upstream.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      request.pipe(forwarded);
      return;
    }
    const asFile = path.join(root, pathname);
    const isFile = asFile.startsWith(`${root}${path.sep}`) && path.extname(pathname) !== '';
    const file = isFile ? asFile : path.join(root, prerenderedPage(pathname)?.file ?? 'index.html');
    if (!existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const encoding = ['br', 'gzip'].find(
      (name) => accepts.includes(name) && existsSync(`${file}.${name === 'br' ? 'br' : 'gz'}`),
    );
    const immutable = file.includes(`${path.sep}assets${path.sep}`);
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    createReadStream(encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
