import { hmac } from '@noble/hashes/hmac.js';
import { sha1 } from '@noble/hashes/legacy.js';
import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import { signIn } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { Route, Router } from 'wouter';
import type { TestServer } from '../../../test/server.ts';
import { setPageUrl } from '../../test/browser.ts';
import { AdminApp } from './AdminApp.tsx';

// The console's pages load lazily; the first visit in a file compiles them, which takes a moment.
configure({ asyncUtilTimeout: 5000 });

/**
 * Test-only helpers for the console's tests: operators and players on the real test server,
 * arranged through its API as people would, and the console rendered at a path.
 */

export async function api<T>(
  server: TestServer,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.origin}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** An operator signed in as a login would sign in (token stored, user and settings loaded). */
export async function signInAdmin(server: TestServer) {
  const admin = await server.createUser({ role: 'admin', fullname: 'Olu Operator' });
  const token = await server.tokenFor(admin);
  setPageUrl(`${server.origin}/admin`);
  await signIn(token);
  return { admin, token };
}

/**
 * An operator signed in with the password alone, as the login page signs in: the console has
 * yet to ask for the second factor (enrolment the first time).
 */
export async function signInAdminWithPassword(server: TestServer) {
  const password = 'operator-console-password';
  const admin = await server.createUser({ role: 'admin', fullname: 'Olu Operator' }, { password });
  // The page's origin first: the login is a same-origin call, as it is in the app.
  setPageUrl(`${server.origin}/admin`);
  const login = await api<{ data: { accessToken: string } }>(server, null, 'POST', '/auth/login', {
    email: admin.email,
    password,
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  await signIn(login.body.data.accessToken);
  return { admin, password, token: login.body.data.accessToken };
}

/**
 * The code an authenticator app shows for a base32 `secret` at `atMs` (RFC 6238: HMAC-SHA1,
 * 30-second steps, 6 digits), computed here as the operator's phone would.
 */
export function authenticatorCode(secret: string, atMs = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of secret.toUpperCase().replace(/[\s=]/g, '')) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(Math.floor(atMs / 30_000)));
  const mac = hmac(sha1, new Uint8Array(bytes), counter);
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = new DataView(mac.buffer, mac.byteOffset).getUint32(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** The console at `path` (e.g. '/admin/games'), as the app's route table mounts it. */
export function renderConsole(server: TestServer, path: string) {
  setPageUrl(`${server.origin}${path}`);
  // A client per test: no cache or retries carried from one test to the next.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Router>
        <Route path="/admin/*?">
          <AdminApp />
        </Route>
        <Route path="/">
          <p>Player home</p>
        </Route>
      </Router>
      <Toaster />
    </QueryClientProvider>,
  );
}

/** A player with a bank account on file and `balance` naira credited by an operator. */
export async function playerWithBalance(
  server: TestServer,
  adminToken: string,
  balance: number,
  fullname = 'Ada Obi',
) {
  const banks = await api<{ data: { id: string; bankName: string }[] }>(
    server,
    null,
    'GET',
    '/bank',
  );
  const bank = banks.body.data[0];
  if (!bank) throw new Error('the test server has no banks');
  const player = await server.createUser({
    fullname,
    bankId: bank.id,
    bankAccountNumber: '0123456789',
    bankAccountName: fullname.toUpperCase(),
  });
  const token = await server.tokenFor(player);
  const credit = await api(server, adminToken, 'POST', `/admin/users/${player.id}/adjust`, {
    amount: balance,
    reason: 'Opening balance for the test',
  });
  if (credit.status !== 200) throw new Error(`credit: ${credit.status} ${JSON.stringify(credit)}`);
  return { player, token, bank };
}

/** The player asks for a withdrawal, as the wallet page would. */
export async function requestWithdrawal(server: TestServer, token: string, amount: number) {
  const result = await api<{ data: Withdrawal }>(server, token, 'POST', '/withdrawal', {
    amount,
  });
  if (result.status !== 201)
    throw new Error(`withdrawal: ${result.status} ${JSON.stringify(result)}`);
  return result.body.data;
}
