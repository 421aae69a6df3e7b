import { isIPv4, isIPv6 } from 'node:net';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { knownLoginAddresses } from '../../db/schema.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import { describeWait } from '../../lib/describe-wait.ts';
import {
  clearFailures,
  recordFailure,
  remainingBlockMs,
  type ThrottlePolicy,
  throttledError,
} from './throttle.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Password-login limits. Only failed logins count, in PostgreSQL, so every instance sees the
 * same counters. Three keys:
 *
 * - one e-mail from one client (`pair`): a few typos are free, then each failure doubles the
 *   wait. This is what slows a guesser, and only the guesser: nobody else shares the pair.
 *   Over a day it allows about 35 guesses.
 * - one e-mail from clients its owner has not signed in from (`stranger`): a storm of guesses
 *   spread over many addresses. It blocks those unknown clients only; a network the owner
 *   signed in from in the last 90 days keeps its own pair limit, and the e-mailed password
 *   reset stays open (and makes its network a known one).
 * - one client across e-mails (`client`, credential stuffing). Mobile carriers in Nigeria put
 *   many subscribers behind one public IPv4 address (carrier-grade NAT), so this must not
 *   trip on a busy network's honest traffic: successes never count, and only failures on
 *   accounts that have never signed in from that network do. Even with 2,000 subscribers
 *   behind one address, 5% of them signing in within an hour and a third of those mistyping
 *   once make ~35 failures an hour; 100 free leaves three times that, while a stuffing run,
 *   which fails on nearly every try, gets ~100 an hour instead of thousands. When it trips it
 *   again blocks only accounts that do not know the network: players who signed in there
 *   before carry on.
 */
export const LOGIN_POLICIES = {
  pair: { freeFailures: 5, windowMs: 24 * HOUR, firstDelayMs: 15_000, maxDelayMs: HOUR },
  stranger: { freeFailures: 20, windowMs: HOUR, firstDelayMs: MINUTE, maxDelayMs: HOUR },
  client: { freeFailures: 100, windowMs: HOUR, firstDelayMs: MINUTE, maxDelayMs: HOUR },
} satisfies Record<string, ThrottlePolicy>;

/** How long a network the owner signed in from stays trusted. */
export const KNOWN_NETWORK_TTL_MS = 90 * 24 * HOUR;

function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => '0'), ...right];
}

/**
 * The client a limit is counted for: an IPv4 address as it is (carrier NAT already puts many
 * people behind one), an IPv6 address by its /64 (one subscriber's whole range).
 */
export function clientOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped;
  if (isIPv6(address)) return `${expandIpv6(address).slice(0, 4).join(':')}::/64`.toLowerCase();
  return address;
}

/**
 * The network remembered as the owner's: the /24 of an IPv4 address (a carrier hands the same
 * phone a different address of its pool from one day to the next), the /64 of an IPv6 one.
 */
export function networkOf(address: string): string {
  const client = clientOf(address);
  if (isIPv4(client)) return `${client.split('.').slice(0, 3).join('.')}.0/24`;
  return client;
}

const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

const keys = (email: string, client: string) => ({
  pair: `login:pair:${email}:${client}`,
  stranger: `login:stranger:${email}`,
  client: `login:client:${client}`,
});

export interface LoginAttempt {
  email: string;
  keys: ReturnType<typeof keys>;
  network: string;
  /** The owner signed in from this network recently: only the pair limit applies. */
  knownNetwork: boolean;
}

/**
 * Looks the attempt up and refuses it (429, Retry-After) while a limit that applies to it is
 * blocked, before any password is checked. `userId` is null for an unknown e-mail, which then
 * goes through exactly the same checks as an account never used from this network.
 */
export async function admitLoginAttempt(
  db: Executor,
  email: string,
  userId: string | null,
  address: string,
  now: Date,
): Promise<LoginAttempt> {
  const network = networkOf(address);
  const attempt = {
    email,
    keys: keys(email, clientOf(address)),
    network,
    // Asked for an unknown e-mail too (of an id no account has), so both take the same time.
    knownNetwork: await isKnownNetwork(db, userId ?? NO_ACCOUNT, network, now),
  };
  const pairWait = await remainingBlockMs(db, [attempt.keys.pair], now);
  if (pairWait > 0) throw throttledError(pairWait);
  if (!attempt.knownNetwork) {
    const strangerWait = await remainingBlockMs(
      db,
      [attempt.keys.stranger, attempt.keys.client],
      now,
    );
    if (strangerWait > 0) {
      const seconds = Math.max(1, Math.ceil(strangerWait / 1000));
      throw new AppError(
        ErrorCode.TooManyRequests,
        `Too many failed sign-ins. Please try again in ${describeWait(seconds)}, or reset your password to sign in now.`,
        { retryAfterSeconds: seconds },
      );
    }
  }
  return attempt;
}

async function isKnownNetwork(db: Executor, userId: string, network: string, now: Date) {
  const [row] = await db
    .select({ userId: knownLoginAddresses.userId })
    .from(knownLoginAddresses)
    .where(
      and(
        eq(knownLoginAddresses.userId, userId),
        eq(knownLoginAddresses.address, network),
        gt(knownLoginAddresses.lastSuccessAt, new Date(now.getTime() - KNOWN_NETWORK_TTL_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function recordLoginFailure(
  db: Executor,
  attempt: LoginAttempt,
  now: Date,
): Promise<void> {
  await recordFailure(db, attempt.keys.pair, LOGIN_POLICIES.pair, now);
  if (attempt.knownNetwork) return;
  await recordFailure(db, attempt.keys.stranger, LOGIN_POLICIES.stranger, now);
  await recordFailure(db, attempt.keys.client, LOGIN_POLICIES.client, now);
}

/** The right password: this pair starts again. */
export async function recordLoginSuccess(db: Executor, attempt: LoginAttempt): Promise<void> {
  await clearFailures(db, [attempt.keys.pair]);
}

/** After a sign-in (or a reset by e-mailed code) from `address`: its network is the owner's. */
export async function rememberNetwork(
  db: Executor,
  userId: string,
  address: string,
  now: Date,
): Promise<void> {
  await db
    .insert(knownLoginAddresses)
    .values({ userId, address: networkOf(address), lastSuccessAt: now })
    .onConflictDoUpdate({
      target: [knownLoginAddresses.userId, knownLoginAddresses.address],
      set: { lastSuccessAt: sql`excluded.last_success_at` },
    });
}

/**
 * After a reset by e-mailed code from `address`: the mailbox proved the owner, so their network
 * becomes a known one and their own pair starts again.
 */
export async function recordPasswordReset(
  db: Executor,
  email: string,
  userId: string,
  address: string,
  now: Date,
): Promise<void> {
  await clearFailures(db, [keys(email, clientOf(address)).pair]);
  await rememberNetwork(db, userId, address, now);
}
