import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticWeb {
  /** Origin of the pages, e.g. http://127.0.0.1:41235 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

/**
 * The built web app (dist/web) as a plain static host serves it, on an origin of its own: files
 * as they are, any other path the app's index.html (so its routes load), and index.html naming
 * the API with `<meta name="pluckers-api">`, as a deployment on another host would edit it.
 * `apiOrigin` is asked per page, so the API may start after this server.
 */
export async function startStaticWeb(webDist: string, apiOrigin: () => string): Promise<StaticWeb> {
  const root = path.resolve(webDist);
  const indexHtml = await readFile(path.join(root, 'index.html'), 'utf8');
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://static').pathname);
    const file = path.join(root, pathname);
    const serveIndex = () => {
      const meta = `<meta name="pluckers-api" content="${apiOrigin()}" />`;
      response.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      response.end(indexHtml.replace('<head>', `<head>\n    ${meta}`));
    };
    const extension = path.extname(pathname);
    if (!file.startsWith(`${root}${path.sep}`) || !extension || pathname === '/index.html') {
      serveIndex();
      return;
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, { 'content-type': TYPES[extension] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => {
        response.writeHead(404, { 'content-type': TYPES['.txt'] });
        response.end('Not found');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
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
