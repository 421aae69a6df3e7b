import { eq } from 'drizzle-orm';
import { koboToNaira } from '../../../shared/money.ts';
import { USERNAME_PREFIX, type User } from '../../../shared/schemas/users.ts';
import type { Executor } from '../../db/client.ts';
import { plans, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';

/** docs/product.md#accounts: the public name carries `plucker_` unless the user's plan has the verified badge. */
export function publicUsername(handle: string, hasVerifiedBadge: boolean): string {
  return hasVerifiedBadge ? handle : `${USERNAME_PREFIX}${handle}`;
}

type UserRow = typeof users.$inferSelect;

export function toApiUser(row: UserRow, hasVerifiedBadge: boolean): User {
  return {
    id: row.id,
    username: publicUsername(row.handle, hasVerifiedBadge),
    fullname: row.fullname,
    email: row.email,
    phoneNumber: row.phoneNumber,
    planID: row.planId,
    planExpiresAt: row.planExpiresAt?.toISOString() ?? null,
    isVerified: hasVerifiedBadge,
    role: row.role,
    accountBalance: koboToNaira(row.accountBalance),
    level: row.level,
    points: row.points,
    totalGamesPlayed: row.totalGamesPlayed,
    totalGamesWon: row.totalGamesWon,
    totalWinningAmount: koboToNaira(row.totalWinningAmount),
    profilePhoto: row.profilePhoto,
    hasSetPassword: row.passwordHash !== null,
    ageConfirmed: row.ageConfirmedAt !== null,
    bankAccount:
      row.bankId && row.bankAccountNumber
        ? {
            bankID: row.bankId,
            accountNumber: row.bankAccountNumber,
            accountName: row.bankAccountName ?? '',
          }
        : null,
    pendingEmail: row.pendingEmail,
  };
}

export async function loadApiUser(db: Executor, userId: string): Promise<User> {
  const [row] = await db
    .select({ user: users, features: plans.features })
    .from(users)
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('User not found');
  return toApiUser(row.user, row.features?.getVerifiedBadge === true);
}
