import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { SIGNUP_MESSAGES } from '../../../shared/messages.ts';
import type { UpdateUserBody, User } from '../../../shared/schemas/users.ts';
import type { Database, Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { pushSubscriptions, sessions, users } from '../../db/schema.ts';
import { badRequest, conflict, ErrorCode, notFound } from '../../errors.ts';
import { toE164 } from '../../lib/phone.ts';
import type { AvatarStorage } from '../../providers/storage.ts';
import { consumeCode, issueCode } from '../auth/codes.ts';
import {
  emailChangeCodeMail,
  emailChangedMail,
  emailChangeRequestedMail,
  passwordChangedMail,
} from '../auth/emails.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { AuthContext } from '../auth/service.ts';
import { AUTH_MESSAGES, assertStrongPassword } from '../auth/service.ts';
import { guardedGuess, proveOwner } from '../auth/step-up.ts';
import { notify } from '../notifications/service.ts';
import { bindPerson } from '../users/break-binding.ts';
import { loadApiUser } from '../users/serialize.ts';

export const PROFILE_MESSAGES = {
  updated: 'Profile updated',
  emailChanged: 'Your e-mail has been changed',
  emailChangeCancelled: 'The e-mail change was cancelled',
  noPendingEmail: 'Invalid or expired code',
  nothingToChange: 'Nothing to update',
  deleteNeedsPassword: SIGNUP_MESSAGES.password,
  deleteWrongPassword: 'Your password is incorrect',
  deleteNoPassword: 'Set a password on your account before deleting it',
  deleteBalance: 'Withdraw your balance before deleting your account',
  deleted: 'Your account has been deleted',
  photoUpdated: 'Profile photo updated',
} as const;

/** Shown until the new address is confirmed; `email` does not change before that. */
export const emailPendingMessage = (email: string) =>
  `We sent a code to ${email}. Enter it to finish changing your e-mail.`;

async function loadRow(db: Database, userId: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (!row) throw notFound('User not found');
  return row;
}

async function assertFree(db: Database, userId: string, email?: string, handle?: string) {
  if (email) {
    const [owner] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, email), ne(users.id, userId)))
      .limit(1);
    if (owner) throw conflict(AUTH_MESSAGES.emailTaken);
  }
  if (handle) {
    const [owner] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.handle})`, handle), ne(users.id, userId)))
      .limit(1);
    if (owner) throw conflict(AUTH_MESSAGES.usernameTaken);
  }
}

export async function updateProfile(
  ctx: AuthContext,
  /** Who asks, and from which session: a new password keeps that one signed in. */
  actor: { id: string; sessionId: string },
  body: UpdateUserBody,
): Promise<{ message: string; user: User }> {
  const userId = actor.id;
  const current = await loadRow(ctx.db, userId);
  const changes: Partial<typeof users.$inferInsert> = {};

  const emailChanged = body.email !== undefined && body.email !== current.email.toLowerCase();
  const handleChanged =
    body.username !== undefined && body.username !== current.handle.toLowerCase();
  if (handleChanged) changes.handle = body.username;
  const phoneNumber = body.phoneNumber === undefined ? undefined : toE164(body.phoneNumber);
  if (phoneNumber !== undefined && phoneNumber !== current.phoneNumber)
    changes.phoneNumber = phoneNumber;
  const passwordChanged = body.password !== undefined;
  if (!emailChanged && !passwordChanged && Object.keys(changes).length === 0) {
    return { message: PROFILE_MESSAGES.nothingToChange, user: await loadApiUser(ctx.db, userId) };
  }

  // Cheap refusals first, so a guess is only counted when the change itself could go through.
  if (body.password !== undefined) assertStrongPassword(body.password);
  await assertFree(
    ctx.db,
    userId,
    emailChanged ? body.email : undefined,
    handleChanged ? body.username : undefined,
  );
  // A stolen token alone must not be able to take the account: the e-mail (the way back in)
  // and the password need the owner's proof; phone and username do not.
  if (emailChanged || passwordChanged) await proveOwner(ctx, current, body);
  if (body.password !== undefined) changes.passwordHash = await hashPassword(body.password);
  // The new address is only written as pending: it replaces `email` once its code comes back.
  if (emailChanged && body.email) changes.pendingEmail = body.email;

  try {
    await ctx.db.transaction(async (tx) => {
      await tx.update(users).set(changes).where(eq(users.id, userId));
      // A phone number shared with a player on a break binds this account to the break.
      if (changes.phoneNumber !== undefined) await bindPerson(tx, userId, ctx.clock.now());
      // A new password signs out every other session; the one that changed it stays, so a
      // client that ignores the answer is not sent back to the login page.
      if (passwordChanged) {
        await revokeSessionsOf(tx, userId, ctx.clock.now(), actor.sessionId);
        await notify(
          tx,
          userId,
          'Password changed',
          'Your password was changed and other sessions were signed out.',
        );
      }
    });
  } catch (error) {
    if (isUniqueViolation(error))
      await assertFree(ctx.db, userId, undefined, changes.handle ?? undefined);
    throw error;
  }
  if (passwordChanged) {
    ctx.forgetSessions(userId);
    await ctx.sendMail(passwordChangedMail(current.email));
  }
  if (emailChanged && body.email) {
    const code = await issueCode(
      ctx.db,
      ctx.pepper,
      body.email,
      'change_email',
      ctx.clock.now(),
      // The owner just proved who they are; a second try at a mistyped address must not wait.
      { ignoreCooldown: true },
    );
    await ctx.sendMail(emailChangeCodeMail(body.email, code));
    await ctx.sendMail(emailChangeRequestedMail(current.email, body.email));
  }

  return {
    message:
      emailChanged && body.email ? emailPendingMessage(body.email) : PROFILE_MESSAGES.updated,
    user: await loadApiUser(ctx.db, userId),
  };
}

/** Revokes every session row of the user (deletion), or every one but `keep` (a new password). */
async function revokeSessionsOf(
  tx: Executor,
  userId: string,
  now: Date,
  keep?: string,
): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keep ? ne(sessions.id, keep) : undefined,
      ),
    );
}

/**
 * Finishes an e-mail change with the code sent to the new address: only then does `email`
 * change (checked for uniqueness again now, since another account may have taken it since),
 * and the old address is told it happened.
 */
export async function confirmEmailChange(
  ctx: AuthContext,
  userId: string,
  code: string,
): Promise<{ message: string; user: User }> {
  const current = await loadRow(ctx.db, userId);
  const pending = current.pendingEmail;
  // The same words as a wrong code, so the same code: the e-mailed code proves nothing here.
  if (!pending) throw badRequest(PROFILE_MESSAGES.noPendingEmail, ErrorCode.ProofRefused);
  await guardedGuess(
    ctx,
    userId,
    async () => {
      await consumeCode(ctx.db, ctx.pepper, pending, 'change_email', code, ctx.clock.now());
      return true;
    },
    () => badRequest(PROFILE_MESSAGES.noPendingEmail),
  );
  await assertFree(ctx.db, userId, pending);
  const now = ctx.clock.now();
  try {
    const switched = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .update(users)
        // The code proved the new address, so the account stays verified.
        .set({ email: pending, pendingEmail: null, emailVerifiedAt: now })
        .where(and(eq(users.id, userId), eq(users.pendingEmail, pending), isNull(users.deletedAt)))
        .returning({ id: users.id });
      if (rows.length === 0) return false;
      await notify(tx, userId, 'E-mail changed', `Your account's e-mail is now ${pending}.`);
      // The mailbox this account now proves may be the one of a player on a break.
      await bindPerson(tx, userId, now);
      return true;
    });
    if (!switched) throw badRequest(PROFILE_MESSAGES.noPendingEmail);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(AUTH_MESSAGES.emailTaken);
    throw error;
  }
  await ctx.sendMail(emailChangedMail(current.email, pending));
  return { message: PROFILE_MESSAGES.emailChanged, user: await loadApiUser(ctx.db, userId) };
}

/** Drops a pending e-mail change (a mistyped address, or one the owner never asked for). */
export async function cancelEmailChange(
  db: Database,
  userId: string,
): Promise<{ message: string; user: User }> {
  await db.update(users).set({ pendingEmail: null }).where(eq(users.id, userId));
  return { message: PROFILE_MESSAGES.emailChangeCancelled, user: await loadApiUser(db, userId) };
}

/**
 * Deletion keeps the ledger (money records must stay whole) but strips everything personal and
 * revokes every token. Only an empty wallet can be closed.
 */
export async function deleteAccount(
  ctx: AuthContext,
  storage: AvatarStorage,
  userId: string,
  password: string,
): Promise<string> {
  const current = await loadRow(ctx.db, userId);
  const { passwordHash } = current;
  if (!passwordHash) throw badRequest(PROFILE_MESSAGES.deleteNoPassword);
  await guardedGuess(
    ctx,
    userId,
    () => verifyPassword(passwordHash, password),
    () => badRequest(PROFILE_MESSAGES.deleteWrongPassword, ErrorCode.ProofRefused),
  );

  const anonymised = await ctx.db
    .update(users)
    .set({
      handle: `deleted_${userId.replaceAll('-', '').slice(0, 12)}`,
      fullname: 'Deleted player',
      email: `deleted-${userId}@deleted.invalid`,
      phoneNumber: '',
      passwordHash: null,
      googleSub: null,
      profilePhoto: null,
      bankId: null,
      bankAccountNumber: null,
      bankAccountName: null,
      planId: null,
      planExpiresAt: null,
      deletedAt: ctx.clock.now(),
      tokenVersion: sql`${users.tokenVersion} + 1`,
    })
    // The balance check sits in the same statement, so a credit landing meanwhile blocks it.
    .where(and(eq(users.id, userId), isNull(users.deletedAt), eq(users.accountBalance, 0n)))
    .returning({ id: users.id });
  if (anonymised.length === 0) throw badRequest(PROFILE_MESSAGES.deleteBalance);
  await revokeSessionsOf(ctx.db, userId, ctx.clock.now());
  // Its devices hear nothing more (push notifications).
  await ctx.db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  ctx.forgetSessions(userId);
  await storage.remove(current.profilePhoto);
  return PROFILE_MESSAGES.deleted;
}

export async function replaceProfilePhoto(
  db: Database,
  storage: AvatarStorage,
  userId: string,
  webp: Buffer,
): Promise<string> {
  const current = await loadRow(db, userId);
  const url = await storage.save(webp);
  await db.update(users).set({ profilePhoto: url }).where(eq(users.id, userId));
  await storage.remove(current.profilePhoto);
  return url;
}

/**
 * Photos saved before the shared store are in the DATA_DIR of whichever instance received them.
 * Each instance copies those an account still shows into the shared store when it starts, so
 * every instance serves them from then on; files no account points at are left alone.
 */
export async function importLegacyPhotos(db: Database, storage: AvatarStorage): Promise<number> {
  const urls = await storage.legacyUrls();
  let imported = 0;
  // In slices: one query per file would scan the accounts once per file.
  for (let start = 0; start < urls.length; start += 1_000) {
    const inUse = await db
      .selectDistinct({ url: users.profilePhoto })
      .from(users)
      .where(inArray(users.profilePhoto, urls.slice(start, start + 1_000)));
    for (const { url } of inUse) if (url && (await storage.importLegacy(url))) imported += 1;
  }
  return imported;
}
