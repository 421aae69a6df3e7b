import { randomBytes } from 'node:crypto';
import { and, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { lagosDate } from '../../../shared/date.ts';
import { KYC_MESSAGES, type KycDocumentType, type KycIdType } from '../../../shared/kyc.ts';
import { koboToNaira } from '../../../shared/money.ts';
import type {
  KycAttempt,
  KycDocument,
  KycStatus,
  KycVerifyBody,
} from '../../../shared/schemas/kyc.ts';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newestRowsOf } from '../../db/newest-rows.ts';
import { identityVerifications, kycDocuments, settings, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, ErrorCode, notFound } from '../../errors.ts';
import type { FileStore } from '../../providers/file-store.ts';
import {
  type KycProvider,
  KycProviderError,
  type ProviderIdentity,
} from '../../providers/kyc/index.ts';
import { assertNotThrottled, recordFailure, type ThrottlePolicy } from '../auth/throttle.ts';
import { notify } from '../notifications/service.ts';
import { bindPerson } from '../users/break-binding.ts';
import { capsOf, withdrawnToday } from './caps.ts';
import { DOCUMENT_KEY_PREFIX } from './documents.ts';
import { identityHash } from './identity-hash.ts';
import { identityFromVerifiedName, namesMatch } from './name-match.ts';

/**
 * Every identity check costs a provider call and each one is a guess at someone's number:
 * three a day are free, then each waits twice as long as the one before (from 15 minutes).
 */
export const FREE_CHECKS_PER_DAY = 3;
const CHECKS: ThrottlePolicy = {
  // A check is counted before the provider is asked, so the wait must start with the last free
  // one counted: the next check is then the first to wait.
  freeFailures: FREE_CHECKS_PER_DAY - 1,
  windowMs: 24 * 3_600_000,
  firstDelayMs: 15 * 60_000,
  maxDelayMs: 24 * 3_600_000,
};

export const UNAVAILABLE_MESSAGE = 'Identity checks are not available on this server';

/** Why a check was refused, as stored (failure_reason) and as the player is told. */
export const FAILURE_MESSAGES = {
  not_found: KYC_MESSAGES.notFound,
  name_mismatch: KYC_MESSAGES.nameMismatch,
  birth_date_mismatch: KYC_MESSAGES.birthDateMismatch,
  underage: KYC_MESSAGES.underage,
  duplicate: KYC_MESSAGES.duplicate,
  provider_unavailable: KYC_MESSAGES.providerDown,
} as const;
type FailureReason = keyof typeof FAILURE_MESSAGES;

export interface KycContext {
  db: Database;
  provider: KycProvider | null;
  hashKey: Uint8Array;
  now: () => Date;
  log: { warn(details: object, message: string): void };
}

/** Tier 1 asks for a phone number on file; there is no SMS provider, so it is checked for being
 * a real Nigerian mobile or fixed number, not by a code sent to it. */
export function hasNigerianPhone(phone: string): boolean {
  const parsed = parsePhoneNumberFromString(phone, 'NG');
  return Boolean(parsed?.isValid() && parsed.country === 'NG');
}

export function isAdultOn(birthDate: string, today: string): boolean {
  const [year = 0, month = 0, day = 0] = birthDate.split('-').map(Number);
  const eighteenth = `${String(year + 18).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  // Born on 29 February: the 18th birthday is 1 March in a common year, and "YYYY-02-29" sorts
  // before "YYYY-03-01" so the string comparison already says so.
  return eighteenth <= today;
}

const titleCase = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(
      /(^|[\s'-])(\p{L})/gu,
      (_match, before: string, letter: string) => `${before}${letter.toUpperCase()}`,
    );

async function recordAttempt(
  db: Executor,
  values: {
    userId: string;
    idType: KycIdType;
    idHash: string;
    idLastFour: string;
    provider: KycProvider;
    status: 'VERIFIED' | 'REJECTED';
    failureReason?: FailureReason;
    providerReference?: string | null;
    returnedName?: string;
    returnedBirthDate?: string;
  },
) {
  await db.insert(identityVerifications).values({
    userId: values.userId,
    idType: values.idType,
    idHash: values.idHash,
    idLastFour: values.idLastFour,
    provider: values.provider.name,
    providerReference: values.providerReference ?? null,
    mode: values.provider.mode,
    status: values.status,
    failureReason: values.failureReason ?? null,
    returnedName: values.returnedName ?? null,
    returnedBirthDate: values.returnedBirthDate ?? null,
  });
}

const refusal = (reason: FailureReason) =>
  reason === 'provider_unavailable'
    ? new AppError(ErrorCode.Unavailable, FAILURE_MESSAGES[reason])
    : badRequest(FAILURE_MESSAGES[reason]);

/**
 * Tier 2: asks the KYC provider whose BVN or NIN this is; the name must match the account's
 * (name-match.ts), the date of birth the one the player typed, and it must show 18 or over.
 * Every attempt is recorded; the number itself never is (a keyed hash and its last four
 * digits). Only a match changes anything, in one transaction that also refuses an identity
 * already verified on another account (the unique index on verified hashes).
 */
export async function verifyIdentity(
  ctx: KycContext,
  userId: string,
  body: KycVerifyBody,
): Promise<void> {
  const { provider } = ctx;
  if (!provider) throw new AppError(ErrorCode.Unavailable, UNAVAILABLE_MESSAGE);
  const [user] = await ctx.db
    .select({ tier: users.kycTier, fullname: users.fullname, phone: users.phoneNumber })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  if (user.tier >= 2) throw conflict(KYC_MESSAGES.alreadyVerified);
  if (!hasNigerianPhone(user.phone)) throw badRequest(KYC_MESSAGES.phoneNeeded);

  const now = ctx.now();
  const throttleKey = `kyc-check:${userId}`;
  await assertNotThrottled(ctx.db, [throttleKey], now, KYC_MESSAGES.tooMany);
  await recordFailure(ctx.db, throttleKey, CHECKS, now);

  const attempt = {
    userId,
    idType: body.idType,
    idHash: identityHash(ctx.hashKey, body.idType, body.idNumber),
    idLastFour: body.idNumber.slice(-4),
    provider,
  };
  /**
   * `heldAs`: refused as a duplicate, the hash of the identity verified on the other account,
   * which the attempt is kept under (the type and last four digits stay those typed). A number
   * of a person another account holds ties the two accounts to one person, so a break binds
   * both; the typed number's own hash may be one that account never had (the NIN of a BVN
   * whose record names none, or a BVN naming the NIN verified there).
   */
  const refuse = async (reason: FailureReason, heldAs?: string): Promise<never> => {
    await recordAttempt(ctx.db, {
      ...attempt,
      idHash: heldAs ?? attempt.idHash,
      status: 'REJECTED',
      failureReason: reason,
    });
    if (reason === 'duplicate') await bindPerson(ctx.db, userId, now);
    throw refusal(reason);
  };

  // Known already: no need to pay the provider to be told the same person again.
  if (await verifiedElsewhere(ctx.db, [attempt.idHash], userId)) return refuse('duplicate');

  let result: Awaited<ReturnType<KycProvider['lookup']>>;
  try {
    result = await provider.lookup(body.idType, body.idNumber);
  } catch (error) {
    if (!(error instanceof KycProviderError)) throw error;
    ctx.log.warn({ err: error, provider: provider.name }, 'KYC provider unavailable');
    return refuse('provider_unavailable');
  }
  if (!result.found) return refuse('not_found');
  const { identity } = result;
  if (
    !namesMatch(
      { givenNames: [identity.firstName, identity.middleName], surname: identity.lastName },
      user.fullname,
    )
  )
    return refuse('name_mismatch');
  if (identity.birthDate !== body.dateOfBirth) return refuse('birth_date_mismatch');
  if (!isAdultOn(identity.birthDate, lagosDate(now))) return refuse('underage');
  // A BVN's record names the holder's NIN: kept (as a hash) beside it, so the same person cannot
  // verify another account with the NIN either, whichever number comes first.
  const linked =
    body.idType === 'BVN' && identity.linkedNin
      ? {
          idType: 'NIN' as const,
          idHash: identityHash(ctx.hashKey, 'NIN', identity.linkedNin),
          idLastFour: identity.linkedNin.slice(-4),
        }
      : null;
  if (linked && (await verifiedElsewhere(ctx.db, [linked.idHash], userId)))
    return refuse('duplicate', linked.idHash);

  // Surname last, so the payout account can be matched against it later (name-match.ts).
  const verifiedName = titleCase(
    [identity.firstName, identity.middleName, identity.lastName].filter(Boolean).join(' '),
  );
  let heldElsewhere: string | null = null;
  try {
    await inTransaction(ctx.db, async (tx) => {
      const [locked] = await tx
        .select({ tier: users.kycTier, bankName: users.bankAccountName })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!locked || locked.tier >= 2) throw conflict(KYC_MESSAGES.alreadyVerified);
      // Only a BVN record that names its NIN joins the two numbers; otherwise the person is
      // recognised by name and date of birth (below), one check at a time per birth date so two
      // accounts cannot each pass it with one half of the same identity.
      if (!linked) {
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(${IDENTITY_LOCK}, hashtext(${identity.birthDate}))`,
        );
        heldElsewhere = await otherHalfHeldElsewhere(tx, userId, body.idType, identity);
        if (heldElsewhere) return;
      }
      const verified = {
        status: 'VERIFIED' as const,
        providerReference: identity.reference,
        returnedName: verifiedName,
        returnedBirthDate: identity.birthDate,
      };
      await recordAttempt(tx, { ...attempt, ...verified });
      if (linked) await recordAttempt(tx, { ...attempt, ...linked, ...verified });
      await tx
        .update(users)
        .set({ kycTier: 2, verifiedName, verifiedBirthDate: identity.birthDate })
        .where(eq(users.id, userId));
      const bankMatches =
        !locked.bankName || namesMatch(identityFromVerifiedName(verifiedName), locked.bankName);
      await notify(
        tx,
        userId,
        'Identity verified',
        bankMatches
          ? `Your identity is verified as ${verifiedName}. Your wallet now has tier 2 limits.`
          : `Your identity is verified as ${verifiedName}. Your saved bank account is in another name: replace it with an account in your own name to withdraw.`,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse('duplicate');
    throw error;
  }
  if (heldElsewhere) return refuse('duplicate', heldElsewhere);
  // The verified name and birth date may be those of a player on a break.
  await bindPerson(ctx.db, userId, now);
}

/** Names the advisory locks that serialise identity checks of one birth date (two-key form). */
const IDENTITY_LOCK = 0x4b5943; // "KYC"

/**
 * The hash of the other kind of number of this same person, verified on another account (null
 * if none): a NIN whose holder has the name and date of birth of a BVN verified elsewhere
 * without its NIN, or such a BVN against a NIN verified elsewhere without any BVN. Numbers of one kind are not compared
 * this way: a register gives each person one number, so two NINs (or two BVNs) with the same
 * name and date are two people, already told apart by their hashes.
 */
async function otherHalfHeldElsewhere(
  db: Executor,
  userId: string,
  idType: KycIdType,
  identity: ProviderIdentity,
): Promise<string | null> {
  const otherType: KycIdType = idType === 'NIN' ? 'BVN' : 'NIN';
  const sameAccount = alias(identityVerifications, 'same_account');
  const candidates = await db
    .select({ name: identityVerifications.returnedName, idHash: identityVerifications.idHash })
    .from(identityVerifications)
    .where(
      and(
        eq(identityVerifications.status, 'VERIFIED'),
        eq(identityVerifications.idType, otherType),
        eq(identityVerifications.returnedBirthDate, identity.birthDate),
        ne(identityVerifications.userId, userId),
        // An account that verified both kinds already has this kind of number on file: it is
        // compared by its hash, not by name.
        notExists(
          db
            .select({ id: sameAccount.id })
            .from(sameAccount)
            .where(
              and(
                eq(sameAccount.userId, identityVerifications.userId),
                eq(sameAccount.status, 'VERIFIED'),
                eq(sameAccount.idType, idType),
              ),
            ),
        ),
      ),
    );
  const returned = {
    givenNames: [identity.firstName, identity.middleName],
    surname: identity.lastName,
  };
  const fullName = [identity.firstName, identity.middleName, identity.lastName].join(' ');
  const held = candidates.find(
    ({ name }) =>
      name !== null &&
      (namesMatch(returned, name) || namesMatch(identityFromVerifiedName(name), fullName)),
  );
  return held?.idHash ?? null;
}

/** Whether any of these identity hashes is verified on an account other than `userId`. */
async function verifiedElsewhere(db: Executor, hashes: string[], userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: identityVerifications.userId })
    .from(identityVerifications)
    .where(
      and(
        inArray(identityVerifications.idHash, hashes),
        eq(identityVerifications.status, 'VERIFIED'),
      ),
    );
  return rows.some((row) => row.userId !== userId);
}

/** An identity check as the player (and the console) sees it: the refusal in the player's words. */
export function toApiAttempt(row: typeof identityVerifications.$inferSelect): KycAttempt {
  return {
    idType: row.idType,
    idLastFour: row.idLastFour,
    status: row.status,
    reason: row.failureReason
      ? (FAILURE_MESSAGES[row.failureReason as FailureReason] ?? row.failureReason)
      : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toApiDocument(row: typeof kycDocuments.$inferSelect): KycDocument {
  return {
    id: row.id,
    documentType: row.documentType,
    status: row.status,
    reviewNote: row.reviewNote,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

const naira = (kobo: bigint | null) => (kobo === null ? null : koboToNaira(kobo));

export async function getKycStatus(db: Database, userId: string, now: Date): Promise<KycStatus> {
  const [[user], [row], attempts, documents, today] = await Promise.all([
    db
      .select({
        tier: users.kycTier,
        phone: users.phoneNumber,
        verifiedName: users.verifiedName,
        bankName: users.bankAccountName,
      })
      .from(users)
      .where(eq(users.id, userId)),
    db.select().from(settings).where(eq(settings.id, 1)),
    newestRowsOf(
      db.select().from(identityVerifications).$dynamic(),
      identityVerifications,
      userId,
      1,
    ),
    newestRowsOf(db.select().from(kycDocuments).$dynamic(), kycDocuments, userId, 5),
    withdrawnToday(db, userId, now),
  ]);
  if (!user || !row) throw notFound('User not found');
  const last = attempts[0];
  return {
    tier: user.tier,
    phoneOnFile: hasNigerianPhone(user.phone),
    verifiedName: user.verifiedName,
    tiers: [1, 2, 3].map((tier) => {
      const caps = capsOf(row, tier);
      return {
        tier,
        balanceCap: naira(caps.balanceCap),
        dailyWithdrawalCap: naira(caps.dailyWithdrawalCap),
      };
    }),
    withdrawnToday: koboToNaira(today),
    bankAccountMatches:
      user.tier >= 2 && user.verifiedName && user.bankName
        ? namesMatch(identityFromVerifiedName(user.verifiedName), user.bankName)
        : null,
    lastAttempt: last ? toApiAttempt(last) : null,
    documents: documents.map(toApiDocument),
  };
}

/**
 * Tier 3: one document at a time, for an operator to review. The file is stored first (under a
 * prefix nothing public serves), then the row under the player's lock, so two uploads at once
 * cannot both wait for review; a refused row takes its file with it.
 */
export async function submitDocument(
  db: Database,
  store: FileStore,
  userId: string,
  documentType: KycDocumentType,
  webp: Buffer,
): Promise<KycDocument> {
  const key = `${DOCUMENT_KEY_PREFIX}${userId}/${randomBytes(16).toString('hex')}.webp`;
  await store.put(key, { body: webp, contentType: 'image/webp' });
  try {
    return await inTransaction(db, async (tx) => {
      const [user] = await tx
        .select({ tier: users.kycTier })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!user) throw notFound('User not found');
      if (user.tier < 2) throw badRequest(KYC_MESSAGES.documentNeedsTier2);
      if (user.tier >= 3) throw conflict(KYC_MESSAGES.alreadyTier3);
      const [pending] = await tx
        .select({ id: kycDocuments.id })
        .from(kycDocuments)
        .where(and(eq(kycDocuments.userId, userId), eq(kycDocuments.status, 'PENDING')));
      if (pending) throw conflict(KYC_MESSAGES.documentPending);
      const [created] = await tx
        .insert(kycDocuments)
        .values({ userId, documentType, fileKey: key })
        .returning();
      if (!created) throw new Error('kyc document insert returned nothing');
      return toApiDocument(created);
    });
  } catch (error) {
    await store.delete(key);
    throw error;
  }
}

/** Refuses an upload before its bytes are decoded, when it could not be accepted anyway. */
export async function assertMayUploadDocument(db: Database, userId: string): Promise<void> {
  const [user] = await db.select({ tier: users.kycTier }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  if (user.tier < 2) throw badRequest(KYC_MESSAGES.documentNeedsTier2);
  if (user.tier >= 3) throw conflict(KYC_MESSAGES.alreadyTier3);
}
