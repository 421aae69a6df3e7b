import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { getOnceMore } from './get-once-more.ts';

/** Answers "ok", after closing the connection of the next `drop` requests without an answer. */
let server: Server;
let url = '';
let drop = 0;
let silent = false;
let requests = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    if (silent) return;
    if (drop > 0) {
      drop -= 1;
      request.socket.destroy();
      return;
    }
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);
beforeEach(() => {
  drop = 0;
  silent = false;
  requests = 0;
});

const options = { headers: { accept: 'text/plain' }, timeoutMs: 2_000 };

it('answers with the second attempt when the first connection closes without an answer', async () => {
  drop = 1;
  const response = await getOnceMore(url, options);
  expect(await response.text()).toBe('ok');
  expect(requests).toBe(2);
});

it('asks only once more: a second failure is the caller’s to handle', async () => {
  drop = 2;
  await expect(getOnceMore(url, options)).rejects.toThrow('fetch failed');
  expect(requests).toBe(2);
});

it('does not ask again after a timeout, so the caller waits timeoutMs at most', async () => {
  silent = true;
  await expect(getOnceMore(url, { ...options, timeoutMs: 300 })).rejects.toMatchObject({
    name: 'TimeoutError',
  });
  expect(requests).toBe(1);
});
