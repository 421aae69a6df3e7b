/**
 * The signed-in player of web component tests, on the real server (src/test/server.ts): the
 * token stored as a login stores it and the session loaded, a query client of its own, and
 * money put in through the sandbox checkout exactly as a player's tap on Pay does. Imported by
 * tests only.
 */
import type { User } from '@shared/schemas/users.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fetchSettings, fetchUser, setSettings, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import type { TestServer, UserOverrides } from '../../test/server.ts';

export function withClient(children: ReactNode) {
  // A client per test: no cache or retries carried from one test to the next.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}

/** A player's call to the test server's API, as the signed-in page makes it; fails the test unless 2xx. */
export async function api<T>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** A verified player with the token stored as a login stores it, and the session loaded. */
export async function signIn(
  server: TestServer,
  overrides: UserOverrides = {},
): Promise<{ token: string; user: User }> {
  const row = await server.createUser(overrides);
  const token = await server.tokenFor(row);
  localStorage.setItem('authToken', token);
  const [user, settings] = await Promise.all([fetchUser(), fetchSettings()]);
  setUser(user);
  setSettings(settings);
  return { token, user };
}

/** The path of a checkout URL on the test server (its PUBLIC_URL is another port). */
export function checkoutPath(paymentUrl: string): string {
  return new URL(paymentUrl).pathname;
}

/**
 * What the sandbox checkout's Pay (or Cancel) button posts. The browser then follows the
 * redirect to the payment callback, which settles the payment and sends it on to
 * /PaymentStatus (the SPA is not built for these tests, so that last page's answer is moot).
 */
export async function finishCheckout(paymentUrl: string, action: 'pay' | 'cancel' = 'pay') {
  const response = await fetch(`${checkoutPath(paymentUrl)}/${action}`, { method: 'POST' });
  await response.text();
  expect(new URL(response.url).pathname).toBe('/PaymentStatus');
  return new URL(response.url).searchParams;
}

/** Top-up through the API and the sandbox's Pay button: real money movement in the ledger. */
export async function topUpThroughSandbox(token: string, amount: number): Promise<void> {
  const { data } = await api<{ data: { paymentUrl: string } }>(
    token,
    'POST',
    '/payment/transactpay',
    { amount },
  );
  await finishCheckout(data.paymentUrl);
}
