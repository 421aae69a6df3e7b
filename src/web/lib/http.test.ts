import { ERROR_MESSAGES } from '@shared/messages.ts';
import { act, render, screen } from '@testing-library/react';
import { Toaster } from '@web/lib/toast.tsx';
import { createElement } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testServerPerFile } from '../../test/server.ts';
import { setPageUrl } from '../test/browser.ts';
import { closedOrigin, sendJson, startFakeServer } from '../test/fake-server.ts';
import { ApiError, type ApiErrorCode, http, TRANSPORT_MESSAGES, timeoutMessage } from './http.ts';

const server = testServerPerFile();

/** Runs a call that is meant to fail and returns what it rejected with. */
async function failure(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

function expectApiError(
  error: unknown,
  message: string,
  statusCode: number,
  code: ApiErrorCode,
): void {
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ name: 'ApiError', message, statusCode, code });
}

describe('http client against the real server', () => {
  beforeEach(() => {
    setPageUrl(`${server().origin}/Home`);
  });

  it('sends the stored token as a bearer header and resolves with the JSON body', async () => {
    const user = await server().createUser();
    localStorage.setItem('authToken', await server().tokenFor(user));

    const body = await http.get<{ data: { id: string; email: string } }>('/user');

    expect(body.data).toMatchObject({ id: user.id, email: user.email });
  });

  it('on 401: warns, goes to /login, forgets the token and rejects with Unauthorized', async () => {
    render(createElement(Toaster));
    localStorage.setItem('authToken', 'not-a-token-this-server-signed');

    let error: unknown;
    await act(async () => {
      error = await failure(http.get('/user'));
    });

    expectApiError(error, ERROR_MESSAGES.unauthorized, 401, 'UNAUTHORIZED');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(window.location.pathname).toBe('/login');
    const toast = await screen.findByRole('status');
    expect(toast.textContent).toBe(ERROR_MESSAGES.unauthorizedToast);
    // A warning, not an error toast: the warning sign stands in for the error icon.
    expect(toast.parentElement?.textContent).toContain('⚠️');
  });

  it('treats a request without any token the same way (401 from a protected route)', async () => {
    setPageUrl(`${server().origin}/Notifications?page=2`);

    const error = await failure(act(() => http.get('/notification')));

    expectApiError(error, 'Unauthorized', 401, 'UNAUTHORIZED');
    expect(window.location.pathname).toBe('/login');
  });

  it('answers a suspended account with plain Unauthorized, whatever the server says', async () => {
    const user = await server().createUser({ suspendedAt: new Date() });
    localStorage.setItem('authToken', await server().tokenFor(user));

    const error = await failure(act(() => http.get('/user')));

    expectApiError(error, 'Unauthorized', 401, 'UNAUTHORIZED');
    expect(localStorage.getItem('authToken')).toBeNull();
  });

  it('on 401 while already on /login, stays there (no navigation)', async () => {
    setPageUrl(`${server().origin}/login?error=Session%20expired`);
    const push = vi.spyOn(window.history, 'pushState');
    const replace = vi.spyOn(window.history, 'replaceState');

    const error = await failure(act(() => http.get('/user')));

    expectApiError(error, 'Unauthorized', 401, 'UNAUTHORIZED');
    expect(push).not.toHaveBeenCalled();
    expect(replace).not.toHaveBeenCalled();
    expect(window.location.href).toBe(`${server().origin}/login?error=Session%20expired`);
  });

  it("rejects a validation failure with the server's message and status code", async () => {
    const user = await server().createUser();
    localStorage.setItem('authToken', await server().tokenFor(user));

    const error = await failure(http.get('/notification', { query: { page: 0 } }));

    expectApiError(error, 'Page must be a whole number from 1', 400, 'VALIDATION_FAILED');
    // Only a 401 logs the player out.
    expect(localStorage.getItem('authToken')).not.toBeNull();
    expect(window.location.pathname).toBe('/Home');
  });

  it("rejects an unknown API route with the server's 404 message", async () => {
    const error = await failure(http.post('/no-such-call', { a: 1 }));

    expectApiError(error, 'Route POST /api/v1/no-such-call not found', 404, 'NOT_FOUND');
  });
});

describe('http client on the wire', () => {
  it('speaks JSON under /api/v1 with the bearer token and the query string', async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 201, { message: 'Created', data: { id: 7 } }),
    );
    setPageUrl(`${fake.origin}/Home`);
    localStorage.setItem('authToken', 'token-123');

    const body = await http.post(
      '/withdrawal',
      { amount: 5000 },
      {
        query: { page: 2, empty: '', missing: undefined, none: null, flag: false },
      },
    );

    expect(body).toEqual({ message: 'Created', data: { id: 7 } });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/api/v1/withdrawal?page=2&flag=false',
      body: '{"amount":5000}',
    });
    expect(request?.headers.authorization).toBe('Bearer token-123');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('application/json');
  });

  it('sends no Authorization header without a token, and no content type without a body', async () => {
    const fake = await startFakeServer((_request, response) => sendJson(response, 200, { ok: 1 }));
    setPageUrl(`${fake.origin}/Terms`);

    await expect(http.get('category')).resolves.toEqual({ ok: 1 });

    const [request] = fake.requests;
    expect(request?.url).toBe('/api/v1/category');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.headers['content-type']).toBeUndefined();
  });

  it('resolves with null for an empty success body', async () => {
    const fake = await startFakeServer((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    setPageUrl(`${fake.origin}/Home`);

    await expect(http.delete('/user', { password: 'x' })).resolves.toBeNull();
  });

  it('falls back to the status text when an error body has no message', async () => {
    const fake = await startFakeServer((request, response) => {
      if (request.url.includes('html')) {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body>Bad gateway</body></html>');
      } else {
        sendJson(response, 500, { statusCode: 500, code: 'INTERNAL', message: '   ' });
      }
    });
    setPageUrl(`${fake.origin}/Home`);

    // No body to read a code from: the status decides it.
    expectApiError(await failure(http.get('/html')), 'Bad Gateway', 502, 'INTERNAL');
    expectApiError(await failure(http.get('/json')), 'Internal Server Error', 500, 'INTERNAL');
  });

  it('rejects with the transport message and status 0 when the server never answers', async () => {
    const fake = await startFakeServer(() => {
      // Never answers.
    });
    setPageUrl(`${fake.origin}/Home`);

    const started = Date.now();
    const error = await failure(http.get('/game', { timeoutMs: 150 }));

    expectApiError(error, timeoutMessage(150), 0, 'NO_ANSWER');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(TRANSPORT_MESSAGES.timeout).toBe('timeout of 20000ms exceeded');
  });

  it('times out a response whose body stalls half-way, too', async () => {
    const fake = await startFakeServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"data":');
    });
    setPageUrl(`${fake.origin}/Home`);

    expectApiError(
      await failure(http.get('/game', { timeoutMs: 200 })),
      timeoutMessage(200),
      0,
      'NO_ANSWER',
    );
  });

  it('rejects with Network Error and status 0 when the connection is refused', async () => {
    setPageUrl(`${await closedOrigin()}/Home`);

    expectApiError(
      await failure(http.get('/settings')),
      TRANSPORT_MESSAGES.network,
      0,
      'NO_ANSWER',
    );
  });

  it("passes the caller's own abort through instead of calling it a network error", async () => {
    const fake = await startFakeServer(() => {
      // Never answers.
    });
    setPageUrl(`${fake.origin}/Home`);
    const controller = new AbortController();

    const call = http.get('/game', { signal: controller.signal });
    // Abort while the request is in flight (the player left the screen).
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    controller.abort();
    const error = await failure(call);

    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});
