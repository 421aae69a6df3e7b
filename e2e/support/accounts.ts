import { inject } from 'vitest';
import { totpCode } from '../../src/server/modules/auth/totp.ts';
import { nubanCheckDigit } from '../../src/server/modules/withdrawals/nuban.ts';
import type { TestSmtpServer } from '../../src/server/test/smtp.ts';

/** The operator every e2e server bootstraps (pass `OPERATOR_ENV` to the server). */
export const OPERATOR = { email: 'operator@pluckers.test', password: 'operator-e2e-password' };
export const OPERATOR_ENV = { ADMIN_EMAIL: OPERATOR.email, ADMIN_PASSWORD: OPERATOR.password };

export interface Player {
  /** The handle the player signed up with. */
  handle: string;
  /** The name others see (GET /user's username: the handle with its `plucker_` prefix). */
  username: string;
  email: string;
  fullname: string;
  token: string;
}

/** Calls the real API as a client would; throws with the server's answer on an error status. */
export async function api<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Every player registerPlayer signs up has this password (to log in through the pages). */
export const PLAYER_PASSWORD = 'player-e2e-password';

let phones = 0;

/**
 * A Nigerian mobile number the server accepts, a different one per call. The prefix is fixed
 * (0803 is valid whatever follows): a varying prefix made some numbers invalid on some days.
 */
export function playerPhone(): string {
  phones += 1;
  return `+234803${String((Date.now() + phones) % 10_000_000).padStart(7, '0')}`;
}

let counter = 0;

/**
 * Signs a player up through POST /auth/register and verifies them with the link the real
 * mailer sent to the test SMTP server; returns the session token that link hands out.
 */
export async function registerPlayer(
  baseUrl: string,
  smtp: TestSmtpServer,
  name: string,
  options: {
    /** A full name of the player's own (identity checks match it), else `<Name> Tester`. */
    fullname?: string;
    /** An address of the player's own (another account of one person), else a new one. */
    email?: string;
  } = {},
): Promise<Player> {
  counter += 1;
  const suffix = `${Date.now().toString(36).slice(-5)}${counter}`;
  const handle = `${name}_${suffix}`.toLowerCase().slice(0, 20);
  const email = options.email ?? `${handle}@players.test`;
  const fullname = options.fullname ?? `${name[0]?.toUpperCase()}${name.slice(1)} Tester`;
  const password = PLAYER_PASSWORD;
  await api(baseUrl, 'POST', '/auth/register', {
    body: {
      fullname,
      username: handle,
      email,
      phoneNumber: playerPhone(),
      password,
      confirmPassword: password,
      ageConfirmed: true,
    },
  });
  const mail = await smtp.waitForMail(email, { timeoutMs: 15_000 });
  if (!mail.validateToken) throw new Error(`no verification link in the mail to ${email}`);
  const validated = await api<{ data: { access_token: string } }>(
    baseUrl,
    'GET',
    `/auth/validate-user/${mail.validateToken}`,
  );
  const token = validated.data.access_token;
  const me = await api<{ data: { username: string } }>(baseUrl, 'GET', '/user', { token });
  return { handle, username: me.data.username, email, fullname, token };
}

/**
 * The authenticator secrets of the operators this process enrolled, by server URL: the phone
 * the operator would hold. The run's shared server's operator is enrolled by the global setup,
 * which hands its secret to the files (`sharedOperatorSecret`).
 */
const operatorSecrets = new Map<string, string>();

function operatorSecret(baseUrl: string): string | undefined {
  const known = operatorSecrets.get(baseUrl);
  if (known) return known;
  return inject('sharedServer').url === baseUrl ? inject('sharedOperatorSecret') : undefined;
}

/** The secret this process enrolled the operator of `baseUrl` with, if it did. */
export function enrolledOperatorSecret(baseUrl: string): string | undefined {
  return operatorSecrets.get(baseUrl);
}

/** Proved tokens this process handed out, by server URL, with when they were proved. */
const operatorTokens = new Map<string, { token: string; provedAtMs: number }>();
/** Well inside the 15 minutes a payout or a settings change accepts a proof for. */
const REUSE_PROOF_MS = 10 * 60_000;

/**
 * The operator's token for `baseUrl`, logged in through the API as the console does: the
 * password, then the second factor (enrolling the authenticator the first time, as the
 * console's first login does), so it opens the console and may move money. A token this process
 * proved in the last 10 minutes is handed out again while it still works: an authenticator code
 * is accepted once, so a run of fresh logins would wait for the phone's next code each time.
 */
export async function operatorToken(baseUrl: string): Promise<string> {
  const earlier = operatorTokens.get(baseUrl);
  if (earlier && Date.now() - earlier.provedAtMs < REUSE_PROOF_MS) {
    const check = await fetch(`${baseUrl}/api/v1/admin/second-factor`, {
      headers: { authorization: `Bearer ${earlier.token}` },
    });
    if (check.ok) return earlier.token;
  }
  const token = await provedOperatorToken(baseUrl);
  operatorTokens.set(baseUrl, { token, provedAtMs: Date.now() });
  return token;
}

async function provedOperatorToken(baseUrl: string): Promise<string> {
  const login = await api<{ data: { accessToken: string } }>(baseUrl, 'POST', '/auth/login', {
    body: { email: OPERATOR.email, password: OPERATOR.password },
  });
  const token = login.data.accessToken;
  const status = await api<{ data: { enrolled: boolean } }>(
    baseUrl,
    'GET',
    '/admin/second-factor',
    { token },
  );
  if (!status.data.enrolled) {
    const started = await api<{ data: { secret: string } }>(
      baseUrl,
      'POST',
      '/admin/second-factor/enrolment',
      { token },
    );
    const { secret } = started.data;
    await api(baseUrl, 'POST', '/admin/second-factor/enrolment/confirm', {
      token,
      body: { code: totpCode(secret, Date.now()) },
    });
    operatorSecrets.set(baseUrl, secret);
    return token;
  }
  const secret = operatorSecret(baseUrl);
  if (!secret) throw new Error(`the operator of ${baseUrl} was enrolled by another process`);
  const prove = async (atMs: number) => {
    const response = await fetch(`${baseUrl}/api/v1/admin/second-factor/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: totpCode(secret, atMs) }),
    });
    if (response.ok) return true;
    if (response.status !== 400)
      throw new Error(`the second factor answered ${response.status}: ${await response.text()}`);
    return false;
  };
  // Each code is accepted once: when an earlier login took this 30-second step's code, the
  // phone's next one (accepted a step early) is entered, and failing that, the one after it
  // once its step has come.
  if ((await prove(Date.now())) || (await prove(Date.now() + 30_000))) return token;
  const nextStepAt = (Math.floor(Date.now() / 30_000) + 1) * 30_000;
  await new Promise((resolve) => setTimeout(resolve, nextStepAt - Date.now() + 500));
  if (await prove(Date.now() + 30_000)) return token;
  throw new Error("the operator's authenticator codes were refused");
}

/** Funds a wallet as the sandbox checkout's Pay button does: start a top-up, post its form. */
export async function topUpThroughSandbox(
  baseUrl: string,
  token: string,
  amount: number,
): Promise<void> {
  const started = await api<{ data: { paymentUrl: string } }>(
    baseUrl,
    'POST',
    '/payment/transactpay',
    { token, body: { amount } },
  );
  const checkout = new URL(started.data.paymentUrl, baseUrl);
  const paid = await fetch(`${baseUrl}${checkout.pathname}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`the sandbox Pay form answered ${paid.status}`);
  // The browser would follow on to the callback, which settles the payment.
  const location = paid.headers.get('location');
  if (location) await fetch(new URL(location, baseUrl), { redirect: 'manual' });
}

/** The wallet balance (naira) the API reports for the player. */
export async function balanceOf(baseUrl: string, token: string): Promise<number> {
  const me = await api<{ data: { accountBalance: number } }>(baseUrl, 'GET', '/user', { token });
  return me.data.accountBalance;
}

/** A GTBank account with a valid NUBAN saved as the player's payout account, as the form saves it. */
export async function saveBankAccount(
  baseUrl: string,
  token: string,
): Promise<{ bankName: string; accountNumber: string }> {
  const banks = await api<{ data: { id: string; code: string; bankName: string }[] }>(
    baseUrl,
    'GET',
    '/bank',
  );
  const bank = banks.data.find((candidate) => candidate.code === '058');
  if (!bank) throw new Error('GTBank is not seeded');
  const serial = String(100_000_000 + Math.floor(Math.random() * 800_000_000));
  const accountNumber = `${serial}${nubanCheckDigit(serial, bank.code)}`;
  await api(baseUrl, 'POST', '/bank-account', {
    token,
    body: { bankID: bank.id, accountNumber },
  });
  return { bankName: bank.bankName, accountNumber };
}
