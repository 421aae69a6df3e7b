// The physical limit for the read path: a bare node:http server that answers every request with
// the bytes the real server sent once (status, headers, body), captured by bench/run.ts.
// Usage: node bench/bare-server.mjs <response.json> <port>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const captured = JSON.parse(readFileSync(file, 'utf8'));
const body = Buffer.from(captured.body, 'base64');
const headers = { ...captured.headers, 'content-length': String(body.length) };

createServer((_request, response) => {
  response.writeHead(captured.status, headers);
  response.end(body);
}).listen(Number(port), '127.0.0.1');
