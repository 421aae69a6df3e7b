import { and, desc, eq, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { identityVerifications, users } from '../../db/schema.ts';
import { AppError, badRequest, ErrorCode, notFound } from '../../errors.ts';
import { type KycProvider, KycProviderError } from '../../providers/kyc/index.ts';
import { identityHash } from './identity-hash.ts';
import { identityFromVerifiedName, namesMatch } from './name-match.ts';

export const OWN_BVN_MESSAGES = {
  notVerified:
    'To get an account number, verify your identity (KYC tier 2) first: the bank needs your BVN to open it.',
  notYours: (lastFour: string) =>
    `This is not the BVN you verified your identity with. Enter that BVN (it ends in ${lastFour}).`,
  notYourIdentity:
    'This BVN is not registered to you: enter the BVN in the name and date of birth you verified.',
  unavailable: 'We could not check your BVN right now. Please try again later.',
} as const;

/**
 * Refuses a BVN that is not the player's own, before it goes to a provider that opens an account
 * in its holder's name: money sent to that account lands in this player's wallet, so a BVN typed
 * at random (someone else's) must not open it. A player verified with a BVN (KYC tier 2) must
 * type that one (its keyed hash is compared: the number is never stored). A player verified with
 * a NIN has no BVN on file: the KYC provider is asked whose it is, and it must name that NIN
 * or the verified name and date of birth, and not be verified on another account.
 */
export async function assertOwnBvn(
  ctx: { db: Executor; hashKey: Uint8Array; provider: KycProvider | null },
  userId: string,
  bvn: string,
): Promise<void> {
  const [user] = await ctx.db
    .select({
      tier: users.kycTier,
      verifiedName: users.verifiedName,
      verifiedBirthDate: users.verifiedBirthDate,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const verified = await ctx.db
    .select({
      idType: identityVerifications.idType,
      idHash: identityVerifications.idHash,
      idLastFour: identityVerifications.idLastFour,
    })
    .from(identityVerifications)
    .where(
      and(eq(identityVerifications.userId, userId), eq(identityVerifications.status, 'VERIFIED')),
    )
    .orderBy(desc(identityVerifications.createdAt));
  const hash = identityHash(ctx.hashKey, 'BVN', bvn);
  const verifiedBvn = verified.find((row) => row.idType === 'BVN');
  if (verifiedBvn) {
    if (verifiedBvn.idHash !== hash)
      throw badRequest(OWN_BVN_MESSAGES.notYours(verifiedBvn.idLastFour));
    return;
  }
  const verifiedNin = verified.find((row) => row.idType === 'NIN');
  if (user.tier < 2 || !verifiedNin || !user.verifiedName || !user.verifiedBirthDate)
    throw badRequest(OWN_BVN_MESSAGES.notVerified);
  const [elsewhere] = await ctx.db
    .select({ id: identityVerifications.id })
    .from(identityVerifications)
    .where(
      and(
        eq(identityVerifications.idHash, hash),
        eq(identityVerifications.status, 'VERIFIED'),
        ne(identityVerifications.userId, userId),
      ),
    )
    .limit(1);
  if (elsewhere) throw badRequest(OWN_BVN_MESSAGES.notYourIdentity);
  if (!ctx.provider) throw new AppError(ErrorCode.Unavailable, OWN_BVN_MESSAGES.unavailable);
  let result: Awaited<ReturnType<KycProvider['lookup']>>;
  try {
    result = await ctx.provider.lookup('BVN', bvn);
  } catch (error) {
    if (error instanceof KycProviderError)
      throw new AppError(ErrorCode.Unavailable, OWN_BVN_MESSAGES.unavailable);
    throw error;
  }
  if (!result.found) throw badRequest(OWN_BVN_MESSAGES.notYourIdentity);
  const { identity } = result;
  const namesTheNin =
    identity.linkedNin !== null &&
    identityHash(ctx.hashKey, 'NIN', identity.linkedNin) === verifiedNin.idHash;
  const samePerson =
    identity.birthDate === user.verifiedBirthDate &&
    namesMatch(
      identityFromVerifiedName(user.verifiedName),
      [identity.firstName, identity.middleName, identity.lastName].filter(Boolean).join(' '),
    );
  // A record that names another NIN is another person's, whatever the name says.
  if (identity.linkedNin !== null ? !namesTheNin : !samePerson)
    throw badRequest(OWN_BVN_MESSAGES.notYourIdentity);
}
