import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { UpdateUserBody, User } from '../../../shared/schemas/users.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { AvatarStorage } from '../../providers/storage.ts';
import { emailChangedMail, passwordChangedMail } from '../auth/emails.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { AuthContext } from '../auth/service.ts';
import { AUTH_MESSAGES, assertStrongPassword, sendVerification } from '../auth/service.ts';
import { notify } from '../notifications/service.ts';
import { loadApiUser } from './serialize.ts';

export const PROFILE_MESSAGES = {
  updated: 'Profile updated',
  emailPending: 'Profile updated. Check your new e-mail address for a verification link.',
  currentPasswordRequired: 'Enter your current password',
  currentPasswordWrong: 'Your current password is incorrect',
  nothingToChange: 'Nothing to update',
  deleteNeedsPassword: 'Enter your password',
  deleteWrongPassword: 'Your password is incorrect',
  deleteNoPassword: 'Set a password on your account before deleting it',
  deleteBalance: 'Withdraw your balance before deleting your account',
  deleted: 'Your account has been deleted',
  photoUpdated: 'Profile photo updated',
} as const;

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
  userId: string,
  body: UpdateUserBody,
): Promise<{ message: string; user: User; accessToken?: string }> {
  const current = await loadRow(ctx.db, userId);
  const changes: Partial<typeof users.$inferInsert> = {};

  const emailChanged = body.email !== undefined && body.email !== current.email.toLowerCase();
  const handleChanged =
    body.username !== undefined && body.username !== current.handle.toLowerCase();
  if (emailChanged) changes.email = body.email;
  if (handleChanged) changes.handle = body.username;
  if (body.phoneNumber !== undefined && body.phoneNumber !== current.phoneNumber)
    changes.phoneNumber = body.phoneNumber;

  if (body.password !== undefined) {
    if (current.passwordHash) {
      if (!body.currentPassword) throw badRequest(PROFILE_MESSAGES.currentPasswordRequired);
      if (!(await verifyPassword(current.passwordHash, body.currentPassword))) {
        throw badRequest(PROFILE_MESSAGES.currentPasswordWrong);
      }
    }
    assertStrongPassword(body.password);
    changes.passwordHash = await hashPassword(body.password);
  }
  if (Object.keys(changes).length === 0) {
    return { message: PROFILE_MESSAGES.nothingToChange, user: await loadApiUser(ctx.db, userId) };
  }
  await assertFree(
    ctx.db,
    userId,
    emailChanged ? body.email : undefined,
    handleChanged ? body.username : undefined,
  );

  const passwordChanged = changes.passwordHash !== undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          ...changes,
          ...(emailChanged ? { emailVerifiedAt: null } : {}),
          // A new password signs out every other session.
          ...(passwordChanged ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
        })
        .where(eq(users.id, userId));
      if (passwordChanged)
        await notify(
          tx,
          userId,
          'Password changed',
          'Your password was changed and other sessions were signed out.',
        );
      if (emailChanged)
        await notify(
          tx,
          userId,
          'E-mail changed',
          `Verify ${body.email} with the link we sent to keep your account secure.`,
        );
    });
  } catch (error) {
    if (isUniqueViolation(error))
      await assertFree(ctx.db, userId, changes.email ?? undefined, changes.handle ?? undefined);
    throw error;
  }
  if (passwordChanged) ctx.forgetSessions(userId);

  if (emailChanged && body.email) {
    await ctx.sendMail(emailChangedMail(current.email, body.email));
    await sendVerification(
      ctx,
      { id: userId, email: body.email, fullname: current.fullname },
      { ignoreCooldown: true },
    );
  }
  if (passwordChanged) await ctx.sendMail(passwordChangedMail(body.email ?? current.email));

  const user = await loadApiUser(ctx.db, userId);
  const accessToken = passwordChanged
    ? await ctx.signToken({ id: userId, tokenVersion: current.tokenVersion + 1 })
    : undefined;
  return {
    message: emailChanged ? PROFILE_MESSAGES.emailPending : PROFILE_MESSAGES.updated,
    user,
    accessToken,
  };
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
  if (!current.passwordHash) throw badRequest(PROFILE_MESSAGES.deleteNoPassword);
  if (!(await verifyPassword(current.passwordHash, password)))
    throw badRequest(PROFILE_MESSAGES.deleteWrongPassword);

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
