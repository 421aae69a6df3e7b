import http from 'node:http';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { startInstance } from './test/instances.ts';

/** The real server as `npm start` runs it, on this run's database; killed after the test. */
async function startServer() {
  const server = await startInstance(inject('testDatabaseUrl'), { LOG_LEVEL: 'info' });
  onTestFinished(() => server.kill());
  return server;
}

describe('the server process', () => {
  it('on SIGTERM finishes the request in flight, then exits with code 0', {
    timeout: 90_000,
  }, async () => {
    const { child, port, stdout, exited } = await startServer();

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ note: 'x'.repeat(2000) });
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/nope',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 1000));
    await new Promise((resolve) => setTimeout(resolve, 300));

    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(child.exitCode, 'the server must wait for the request in flight').toBeNull();
    // New connections are no longer accepted.
    const refused = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(refused).toBe('refused');

    request.end(body.slice(1000));
    const answered = await response;
    expect(answered.status).toBe(404);
    expect(JSON.parse(answered.text)).toEqual({
      message: expect.any(String),
      statusCode: 404,
      code: 'NOT_FOUND',
    });

    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stdout()).toContain('shutting down: finishing in-flight requests');
  });
});
