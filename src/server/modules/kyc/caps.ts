import { and, eq, gte, notInArray, sql } from 'drizzle-orm';
import { lagosDayStart } from '../../../shared/date.ts';
import { KYC_MESSAGES, type KycTier } from '../../../shared/kyc.ts';
import { koboToNaira } from '../../../shared/money.ts';
import type { Executor } from '../../db/client.ts';
import { payments, settings, users, withdrawals } from '../../db/schema.ts';
import { badRequest, notFound } from '../../errors.ts';
import { identityFromVerifiedName, namesMatch } from './name-match.ts';

type SettingsRow = typeof settings.$inferSelect;

export interface TierCaps {
  /** Kobo; null: no cap. */
  balanceCap: bigint | null;
  dailyWithdrawalCap: bigint | null;
}

export function capsOf(row: SettingsRow, tier: number): TierCaps {
  if (tier >= 3)
    return { balanceCap: row.tier3BalanceCap, dailyWithdrawalCap: row.tier3DailyWithdrawalCap };
  if (tier === 2)
    return { balanceCap: row.tier2BalanceCap, dailyWithdrawalCap: row.tier2DailyWithdrawalCap };
  return { balanceCap: row.tier1BalanceCap, dailyWithdrawalCap: row.tier1DailyWithdrawalCap };
}

const asTier = (tier: number): KycTier => (tier >= 3 ? 3 : tier === 2 ? 2 : 1);

async function readSettings(db: Executor): Promise<SettingsRow> {
  const [row] = await db.select().from(settings).where(eq(settings.id, 1)).limit(1);
  if (!row) throw new Error('settings row missing: the database was not seeded');
  return row;
}

/** Withdrawn today (Africa/Lagos day), counting every withdrawal that has not failed. */
export async function withdrawnToday(db: Executor, userId: string, now: Date): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, userId),
        gte(withdrawals.createdAt, lagosDayStart(now)),
        notInArray(withdrawals.status, ['FAILED', 'REJECTED']),
      ),
    );
  return BigInt(row?.total ?? 0);
}

/**
 * A top-up that would take the wallet above its tier's balance cap is refused (before any
 * provider is asked). Checkouts still open count as if paid, so several opened at once cannot
 * together pass the cap (the player's row lock makes them queue). Only top-ups: winnings and
 * refunds are the player's and always land, so a balance may end up above the cap; top-ups then
 * wait until it is back under. Called inside the top-up's transaction, after the row lock.
 */
export async function assertTopUpWithinCap(
  tx: Executor,
  userId: string,
  amount: bigint,
): Promise<void> {
  const [user] = await tx
    .select({ tier: users.kycTier, balance: users.accountBalance })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const { balanceCap } = capsOf(await readSettings(tx), user.tier);
  if (balanceCap === null) return;
  const [open] = await tx
    .select({ total: sql<string>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, 'PENDING')));
  if (user.balance + BigInt(open?.total ?? 0) + amount > balanceCap)
    throw badRequest(KYC_MESSAGES.topUpCap(asTier(user.tier), koboToNaira(balanceCap)));
}

/**
 * The KYC rules a withdrawal must pass, inside its transaction after the player's row is
 * locked (so two requests at once are counted one after the other): the tier's daily cap over
 * today's withdrawals that have not failed, and from tier 2 on a payout account in the verified
 * name.
 */
export async function assertWithdrawalAllowed(
  tx: Executor,
  userId: string,
  amount: bigint,
  bankAccountName: string | null,
  now: Date,
): Promise<void> {
  const [user] = await tx
    .select({ tier: users.kycTier, verifiedName: users.verifiedName })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  if (
    user.tier >= 2 &&
    user.verifiedName &&
    !namesMatch(identityFromVerifiedName(user.verifiedName), bankAccountName ?? '')
  )
    throw badRequest(KYC_MESSAGES.withdrawalBankMismatch(user.verifiedName));
  const { dailyWithdrawalCap } = capsOf(await readSettings(tx), user.tier);
  if (dailyWithdrawalCap === null) return;
  const today = await withdrawnToday(tx, userId, now);
  if (today + amount > dailyWithdrawalCap) {
    const left = dailyWithdrawalCap > today ? dailyWithdrawalCap - today : 0n;
    throw badRequest(
      KYC_MESSAGES.withdrawalCap(
        asTier(user.tier),
        koboToNaira(dailyWithdrawalCap),
        koboToNaira(left),
      ),
    );
  }
}

/** After tier 2, a payout account must be in the verified name (saving one, or later). */
export async function assertPayoutNameMatches(
  db: Executor,
  userId: string,
  accountName: string,
): Promise<void> {
  const [user] = await db
    .select({ tier: users.kycTier, verifiedName: users.verifiedName })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || user.tier < 2 || !user.verifiedName) return;
  if (!namesMatch(identityFromVerifiedName(user.verifiedName), accountName))
    throw badRequest(KYC_MESSAGES.bankNameMismatch(user.verifiedName));
}
